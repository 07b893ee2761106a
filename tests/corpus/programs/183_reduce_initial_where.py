import numpy as np

a = np.array([[1, 5, 2], [7, 0, 3]])
print(np.maximum.reduce(a, axis=1, initial=4))
print(np.add.reduce(a, axis=0, where=[True, False, True]))
print(np.sum(a, axis=1, where=a > 1, initial=100))
print(np.min(np.array([]), initial=np.inf))
print(np.add.accumulate(a, axis=1), np.multiply.accumulate(a, axis=0))
print(np.add.reduce(a, axis=None), np.add.reduce(a, dtype=np.float32))

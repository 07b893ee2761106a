import numpy as np

a = np.arange(1, 7)
print(np.add.reduce(a))
print(np.multiply.reduce(a))
print(np.add.accumulate(a))
print(np.multiply.accumulate(a))
print(np.maximum.accumulate(np.array([1, 3, 2, 5, 4])))
m = a.reshape(2, 3)
print(np.add.reduce(m, axis=1))
print(np.minimum.reduce(m, axis=0))
print(np.logical_or.reduce([False, False, True]))

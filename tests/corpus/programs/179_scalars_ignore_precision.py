import numpy as np

np.set_printoptions(precision=3)
x = np.float64(1 / 3)
print(x, np.array(1 / 3), np.array([1 / 3]))
print(np.arange(3) / 3, (np.arange(3) / 3)[1])
print(np.float32(2) / 3, np.mean([1, 2, 2]))

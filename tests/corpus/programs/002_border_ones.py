import numpy as np

# a 5x5 array with ones on the border and zeros inside
a = np.ones((5, 5))
a[1:-1, 1:-1] = 0
print(a)
# pad a small block with a frame of -1
b = np.pad(np.arange(4).reshape(2, 2), 1, constant_values=-1)
print(b)
print(b.shape)

import numpy as np

m = np.arange(9).reshape(3, 3)
print(np.flip(m))
print(np.fliplr(m))
print(np.flipud(m))
print(np.rot90(m))
print(np.rot90(m, k=2))
print(np.roll(np.arange(10), 3))
print(np.roll(m, 1, axis=1))
print(np.roll(m, (1, 1), axis=(0, 1)))

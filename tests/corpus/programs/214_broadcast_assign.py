import numpy as np

m = np.zeros((3, 4))
m[:] = np.arange(4)
print(m)
m[:, :2] = [[1], [2], [3]]
print(m)
m[1] = 7
m[..., -1] = -1
print(m)
t = np.zeros((2, 3, 2))
t[:, 1] = [9, 8]
print(t[:, 1], t.sum())

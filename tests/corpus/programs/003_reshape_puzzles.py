import numpy as np

a = np.arange(24)
print(a.reshape(2, 3, 4))
print(a.reshape(4, -1).shape)
b = a.reshape(2, 3, 4).transpose(2, 0, 1)
print(b.shape)
print(b[1])
print(a.reshape(6, 4, order="F")[:, 0])
print(np.ravel(a.reshape(3, 8), order="F")[:10])

import numpy as np

a = np.arange(6)
b = np.resize(a, (3, 3))
print(b)
c = np.arange(4).copy()
c.resize((2, 3), refcheck=False)
print(c)
print(np.reshape(a, (2, -1), copy=True).shape)

import numpy as np

a = np.arange(10)
v = a[2:6]
v += 100
print(a)
a[...] *= 2
print(v)
m = np.zeros((3, 3))
m[:, 1] = [1, 2, 3]
m[0] += 5
print(m)
r = a.reshape(2, 5)
r[1, :] = -1
print(a)
b = a[::3]
b[:] = 0
print(a)

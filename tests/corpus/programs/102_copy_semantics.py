import numpy as np

a = np.arange(5)
b = a
c = a.copy()
d = a.view()
a[0] = 99
print(b[0], c[0], d[0])
e = np.asarray(a)
f = np.array(a)
a[1] = -1
print(e[1], f[1])
print(a.flatten() is a, np.may_share_memory(a, a.ravel()))
g = a[[0, 1]]
g[0] = 0
print(a[0])

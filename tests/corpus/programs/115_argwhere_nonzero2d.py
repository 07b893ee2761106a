import numpy as np

m = np.array([[0, 3, 0], [4, 0, 5]])
print(np.argwhere(m))
r, c = np.nonzero(m)
print(r, c)
print(m[r, c])
print(np.transpose(np.nonzero(m > 3)))
print(np.extract(m > 0, m))
print(np.compress([True, False, True], m, axis=1))
p = m.copy()
np.place(p, p == 0, [-7, -8])
print(p)

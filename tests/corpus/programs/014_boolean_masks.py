import numpy as np

a = np.array([3, -1, 4, -1, 5, -9, 2, 6])
print(a[a > 0])
print(a[(a > 0) & (a % 2 == 0)])
b = a.copy()
b[b < 0] = 0
print(b)
print(np.count_nonzero(a < 0))
print(np.nonzero(a < 0))
print(np.flatnonzero(a == -1))
m = np.arange(12).reshape(3, 4)
print(m[m % 3 == 0])
print(m[[True, False, True]])

import numpy as np

a = np.arange(8)
np.putmask(a, a % 3 == 0, [-1, -2])
print(a)
b = np.arange(6.0)
np.place(b, b > 2, [10.0, 20.0])
print(b)
c = np.arange(9).reshape(3, 3)
c[c > 4] = 0
c[[0, 2], 1] = -5
print(c)
d = np.zeros(5)
d[np.array([1, 3])] = [7, 8]
d[-1:] = 9
print(d)

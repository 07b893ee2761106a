import numpy as np

a = np.arange(1, 7)
a //= 2
print(a)
a **= 2
print(a)
a <<= 1
a |= 1
print(a)
b = np.ones((2, 2))
b @= np.array([[1.0, 2.0], [3.0, 4.0]])
print(b)
c = np.arange(4.0)
c -= c.mean()
c /= np.abs(c).max()
print(c)
try:
    d = np.arange(3)
    d += 0.5
except TypeError:
    print("TypeError: int array += float")

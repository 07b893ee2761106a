import numpy as np

a = np.array(["1.5", "2.25", "-3"])
f = a.astype(float)
print(f, f.sum())
n = np.arange(3)
print(n.astype(str))
print(np.array([1.5, 2.0]).astype("U5"))
b = np.array([b"ab", b"cde"])
print(b.dtype, b)
print(np.array(["x", "yz"]).itemsize)

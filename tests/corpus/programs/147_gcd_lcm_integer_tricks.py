import numpy as np

a = np.arange(1, 13)
print(np.gcd.reduce(np.array([24, 36, 60])), np.lcm.reduce(np.arange(1, 11)))
print(a[(a % 3 == 0) | (a % 4 == 0)])
digits = (np.array([1234, 907]) // 10 ** np.arange(4)[:, None]) % 10
print(digits)
print(np.binary_repr(10), np.binary_repr(-3, width=4), np.base_repr(255, 16))
print(np.unpackbits(np.array([5], dtype=np.uint8)), np.packbits([1, 0, 1]))
print(np.isin(a, [2, 3, 5, 7, 11]).sum())

import numpy as np

a = np.ma.masked_array([1.0, 2.0, -999.0, 4.0], mask=[0, 0, 1, 0])
print(a)
print(a.mean(), a.sum())
print(a.filled(0.0))
b = np.ma.masked_where(np.arange(6) % 2 == 0, np.arange(6))
print(b)
print(b.count(), b.compressed())
print(np.ma.masked_invalid(np.array([1.0, np.nan, 3.0])).sum())

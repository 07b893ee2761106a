import numpy as np

m = np.ma.array(np.arange(6).reshape(2, 3), mask=[[1, 0, 0], [0, 1, 0]])
print(m)
print(repr(m.sum(axis=1)))
print(m.mean(axis=0))
print(np.ma.median(np.ma.array([1.0, 5.0, 3.0, 100.0], mask=[0, 0, 0, 1])))
m[0, 1] = np.ma.masked
print(m.count(axis=1))
print(np.ma.where(m > 2, m, 0))

import numpy as np

x = np.ma.array([[1, 2, 3], [4, 5, 6]], mask=[[0, 1, 0], [0, 0, 1]])
print(x.sum(axis=0))
print(x.max(axis=1))
print((x * 2).filled(-1))
print(x.mask)
y = np.ma.masked_greater(np.arange(6), 3)
print(y, np.ma.getmaskarray(y))
print(np.ma.masked_equal([1, 0, 2, 0], 0).mean())

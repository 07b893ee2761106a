import numpy as np

a = np.arange(20).reshape(4, 5)
print(a[[0, 2, 3]])
print(a[[0, 1, 2], [4, 3, 2]])
print(a[:, [1, 3]])
print(a[np.ix_([0, 3], [0, 2, 4])])
rows = np.array([[0, 0], [3, 3]])
cols = np.array([[0, 4], [0, 4]])
print(a[rows, cols])
print(a[-1, ::-2])
print(a[..., 1])

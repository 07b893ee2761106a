import numpy as np

x = np.array([0, 1, 2])
y = np.array([10, 20])
X, Y = np.meshgrid(x, y)
print(X)
print(Y)
Xi, Yi = np.meshgrid(x, y, indexing="ij")
print(Xi.shape, Yi.shape)
xs, ys = np.meshgrid(x, y, sparse=True)
print(xs.shape, ys.shape)
print((X + Y).sum())

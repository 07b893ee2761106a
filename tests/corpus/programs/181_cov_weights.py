import numpy as np

x = np.array([[1.0, 2.0, 4.0, 7.0], [2.0, 1.0, 0.0, -3.0]])
print(np.round(np.cov(x, fweights=[1, 2, 1, 1]), 6))
print(np.round(np.cov(x, aweights=[0.5, 1.0, 1.0, 2.0]), 6))
print(np.round(np.cov(x[0], ddof=0), 6), np.cov(x).shape)
print(np.round(np.corrcoef(x, rowvar=True)[0, 1], 6))

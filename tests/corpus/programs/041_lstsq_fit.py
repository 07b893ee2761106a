import numpy as np

x = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
y = np.array([1.1, 2.9, 5.2, 7.1, 8.8])
A = np.vstack([x, np.ones_like(x)]).T
coef, res, rank, sv = np.linalg.lstsq(A, y, rcond=None)
print(np.round(coef, 6))
print(np.round(res, 6), rank)
print(np.round(sv, 6))

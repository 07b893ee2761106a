import numpy as np

a = np.array([40, 10, 30, 20, 10])
print(np.argsort(np.argsort(a, kind="stable"), kind="stable"))
m = np.array([[3, 1], [1, 3]])
u, inv = np.unique(m, return_inverse=True)
print(u, inv.shape, inv)
print(u[inv])
u0, inv0 = np.unique(np.array([[1, 2], [1, 2], [0, 5]]), axis=0, return_inverse=True)
print(u0, inv0)

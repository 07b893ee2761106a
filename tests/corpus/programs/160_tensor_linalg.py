import numpy as np

a = np.eye(6).reshape(6, 2, 3)
b = np.arange(6.0)
x = np.linalg.tensorsolve(a, b)
print(x.shape, np.round(x, 6) + 0)
t = np.eye(4 * 6).reshape(4, 6, 8, 3)
print(np.linalg.tensorinv(t, ind=2).shape)
print(np.linalg.matrix_rank(np.diag([1.0, 1e-12, 1.0]), tol=1e-8))
print(np.round(np.linalg.svd(np.array([[2.0, 1.0], [1.0, 2.0]]), hermitian=True)[1], 6))
w = np.linalg.eigvalsh(np.stack([np.eye(2), 2 * np.eye(2)]))
print(w)

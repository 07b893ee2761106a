import numpy as np

A = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
s = np.linalg.svd(A, compute_uv=False)
print(np.round(s, 6))
U, s, Vt = np.linalg.svd(A, full_matrices=False)
print(U.shape, s.shape, Vt.shape)
print(np.allclose(U @ np.diag(s) @ Vt, A))
print(np.round(np.linalg.norm(A, 2), 6))
print(np.round(np.linalg.cond(A), 6))

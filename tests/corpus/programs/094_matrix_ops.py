import numpy as np

A = np.array([[2, -1, 0], [-1, 2, -1], [0, -1, 2]])
print(A.T @ A)
print(np.allclose(A, A.T))
print(np.round(np.linalg.det(A), 6))
print(np.diagflat([1, 2]))
print(np.vander([1, 2, 3], 3))
print(np.vander([1, 2, 3], increasing=True))
print(np.triu_indices(3))
print(A[np.tril_indices(3, -1)])
print(np.diag_indices(3))

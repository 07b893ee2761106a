import numpy as np

A = np.array([[4.0, 7.0], [2.0, 6.0]])
Ai = np.linalg.inv(A)
print(np.round(Ai, 6))
print(np.round(A @ Ai, 6))
print(np.round(np.linalg.pinv(np.array([[1.0, 2.0], [2.0, 4.0], [0.0, 1.0]])), 6))
print(np.linalg.matrix_rank(np.array([[1, 2], [2, 4]])))
print(np.round(np.linalg.matrix_power(A, 3), 6))
print(np.linalg.matrix_power(np.array([[1, 1], [1, 0]]), 10))

import numpy as np

A = np.array([[1.0, 2.0], [3.0, 4.0]])
I = np.eye(2)
print(np.allclose(A @ np.linalg.inv(A), I))
print(A * A)
print(A @ A)
print(np.linalg.matrix_power(A, 0))
print(np.round(np.linalg.eigvals(np.array([[2.0, 0.0], [0.0, 3.0]])), 6))
x = np.linalg.solve(A, np.array([[1.0], [2.0]]))
print(np.round(x, 6), x.shape)

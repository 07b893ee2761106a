import numpy as np

np.set_printoptions(precision=6, suppress=True)
A = np.array([[3.0, 1.0, 2.0], [1.0, 4.0, 0.5], [2.0, 0.5, 5.0]])
b = np.array([1.0, 2.0, 3.0])
x = np.linalg.solve(A, b)
print(np.round(x, 6))
print(np.allclose(A @ x, b))
B = np.eye(3)
print(np.round(np.linalg.solve(A, B), 6))
print(np.round(np.linalg.det(A), 6))

import numpy as np

a = np.array([[1, 1j], [0, 1]])
print(np.kron(a, np.eye(2)))
print(np.outer([1j, 2], [1, -1j]))
print(np.dot([1j, 2], [1j, 2]), np.vdot([1j, 2], [1j, 2]))
print(np.round(np.linalg.inv(a), 6) + 0)

import numpy as np

a = np.arange(6).reshape(2, 3)
b = np.arange(12).reshape(3, 4)
print(a @ b)
print(np.dot(a, b))
print(np.matmul(np.ones((5, 2, 3)), np.ones((3, 4))).shape)
print(np.vdot([1, 2, 3], [4, 5, 6]))
print(np.inner([1, 2, 3], [4, 5, 6]))
print(np.cross([1, 0, 0], [0, 1, 0]))
print(np.tensordot(np.arange(6).reshape(2, 3), np.arange(6).reshape(3, 2), axes=1))
print(np.linalg.multi_dot([a, b, np.ones((4, 2), dtype=int)]))

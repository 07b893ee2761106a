import numpy as np

rng = np.random.default_rng(1)
A = rng.standard_normal((3, 4, 4)) + 4 * np.eye(4)
b = rng.standard_normal((3, 4))
x = np.linalg.solve(A, b[..., None])[..., 0]
print(np.allclose(np.einsum("bij,bj->bi", A, x), b))
print(np.round(np.linalg.det(A), 6))
print(np.linalg.inv(A).shape)
print(np.round(np.linalg.norm(A, axis=(1, 2)), 6))

import numpy as np

mats = np.stack([np.eye(2) * k for k in range(1, 4)])
print(mats.shape)
print(mats.sum(axis=0))
print(np.trace(mats, axis1=1, axis2=2))
print(np.diagonal(mats, axis1=1, axis2=2))
print((mats @ np.array([1.0, 2.0])).tolist())
print(np.linalg.det(mats).round(6))
print(np.matrix_transpose(np.arange(6).reshape(1, 2, 3)).shape)

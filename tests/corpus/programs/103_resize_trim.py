import numpy as np

print(np.resize(np.arange(3), (2, 4)))
print(np.trim_zeros(np.array([0, 0, 1, 2, 0, 3, 0])))
print(np.trim_zeros(np.array([0, 1, 0]), "f"))
print(np.array([[1, 2], [3, 4]]).flatten())
print(np.unique(np.array([3, 3, 1])).tolist())
print(np.arange(6).reshape(2, 3).tolist())
print(np.array([1.5]).item(), type(np.array([7]).item()).__name__)

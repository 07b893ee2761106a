import numpy as np

A = np.ones((2, 2), dtype=int)
B = np.zeros((2, 3), dtype=int)
C = np.full((1, 2), 5)
D = np.arange(3).reshape(1, 3)
print(np.block([[A, B], [C, D]]))
print(np.column_stack([np.arange(3), np.arange(3) ** 2]))
print(np.dstack([np.ones((2, 2)), np.zeros((2, 2))]).shape)
print(np.append(np.arange(3), [[7, 8]]))
print(np.insert(np.arange(5), 2, 99))
print(np.delete(np.arange(6).reshape(2, 3), 1, axis=1))

import numpy as np

col = np.arange(4).reshape(4, 1)
row = np.arange(3)
print(col + row)
print(col * row)
print(np.broadcast_shapes((3, 1, 5), (4, 1)))
b = np.broadcast(col, row)
print(b.shape, b.nd, b.size)
x = np.ones((2, 3, 4))
print((x * np.arange(4)).sum(axis=(0, 1)))
try:
    np.ones((2, 3)) + np.ones((4,))
except ValueError as e:
    print("ValueError")

import numpy as np

rows = np.array([0, 1, 1, 2, 2, 2])
cols = np.array([1, 0, 2, 0, 1, 1])
vals = np.array([5.0, 1.0, 2.0, 3.0, 4.0, 6.0])
dense = np.zeros((3, 3))
np.add.at(dense, (rows, cols), vals)
print(dense)
flat = np.ravel_multi_index((rows, cols), (3, 3))
print(np.bincount(flat, weights=vals, minlength=9).reshape(3, 3))
print(np.unravel_index(np.argmax(dense), dense.shape))

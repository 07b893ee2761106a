import numpy as np

img = np.zeros((3, 3), dtype=int)
rows = np.array([0, 0, 1, 2, 2, 2])
cols = np.array([0, 0, 1, 2, 2, 0])
np.add.at(img, (rows, cols), 1)
print(img)
w = np.zeros(4)
np.add.at(w, np.array([3, 3, 0]), np.array([0.5, 0.25, 1.0]))
print(w)
grid = np.zeros((2, 4), dtype=int)
np.add.at(grid, (slice(None), [0, 0, 3]), 1)
print(grid)

import numpy as np

v = np.array([3.0, -4.0, 12.0])
print(np.linalg.norm(v), np.linalg.norm(v, 1), np.linalg.norm(v, np.inf))
m = np.array([[1.0, -2.0], [3.0, 4.0]])
print(np.round(np.linalg.norm(m), 6), np.linalg.norm(m, 1), np.linalg.norm(m, np.inf))
print(np.round(np.linalg.norm(m, axis=1), 6))
print(np.round(np.linalg.norm(m, "nuc"), 6))
print(np.round(v / np.linalg.norm(v), 6))

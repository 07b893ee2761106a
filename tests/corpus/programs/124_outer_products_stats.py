import numpy as np

x = np.array([[1.0, 2.0], [3.0, 5.0], [4.0, 4.0]])
xc = x - x.mean(axis=0)
C = xc.T @ xc / (len(x) - 1)
print(np.round(C, 6))
print(np.allclose(C, np.cov(x, rowvar=False)))
w, v = np.linalg.eigh(C)
print(np.round(w, 6))
proj = xc @ v[:, -1]
print(np.round(np.abs(proj), 6))

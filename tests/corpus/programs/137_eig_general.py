import numpy as np

A = np.array([[0.0, -1.0], [1.0, 0.0]])
w = np.linalg.eigvals(A)
print(np.round(np.sort_complex(w), 6) + 0)
B = np.array([[2.0, 1.0], [0.0, 3.0]])
w, v = np.linalg.eig(B)
order = np.argsort(w)
print(np.round(w[order], 6))
vn = v[:, order] / v[:, order][np.abs(v[:, order]).argmax(axis=0), [0, 1]]
print(np.round(vn, 6) + 0)

import numpy as np

v = np.array([3.0, -4.0, 0.0, 1.0])
for ord_ in (None, 0, 1, 2, 3, np.inf, -np.inf, -1):
    with np.errstate(divide="ignore"):
        print(ord_, np.round(np.linalg.norm(v, ord_), 6))
m = np.array([[1.0, 2.0], [3.0, 4.0]])
print(np.round(np.linalg.norm(m, -2), 6), np.round(np.linalg.norm(m, -np.inf), 6))
print(np.round(np.linalg.vector_norm(m, axis=0), 6), np.round(np.linalg.matrix_norm(m), 6))

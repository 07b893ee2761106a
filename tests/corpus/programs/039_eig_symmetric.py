import numpy as np

S = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])
w, v = np.linalg.eigh(S)
print(np.round(w, 6))
print(np.round(np.abs(v), 6))
print(np.allclose(S @ v, v * w))
print(np.round(np.linalg.eigvalsh(S), 6))
w2 = np.linalg.eigvals(S)
print(np.round(np.sort(w2.real), 6))

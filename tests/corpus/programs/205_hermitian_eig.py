import numpy as np

H = np.array([[2.0, 1 - 1j], [1 + 1j, 3.0]])
w, v = np.linalg.eigh(H)
print(np.round(w, 6))
print(np.round(np.abs(v), 6))
print(np.allclose(H @ v, v * w))
print(np.round(np.linalg.eigvalsh(H, UPLO="U"), 6))
print(np.round(np.linalg.det(H).real, 6), np.round(np.linalg.norm(H), 6))

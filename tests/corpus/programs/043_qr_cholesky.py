import numpy as np

A = np.array([[4.0, 2.0, 0.6], [2.0, 5.0, 1.0], [0.6, 1.0, 3.0]])
L = np.linalg.cholesky(A)
print(np.round(L, 6))
print(np.allclose(L @ L.T, A))
Q, R = np.linalg.qr(A)
print(np.round(np.abs(np.diag(R)), 6))
print(np.allclose(Q @ R, A))
sign, logdet = np.linalg.slogdet(A)
print(sign, np.round(logdet, 6))

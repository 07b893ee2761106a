import numpy as np

a = np.array([[3.0, 1.0], [2.0, 4.0]])
print(a.sum(), a.prod(), a.mean(axis=0), a.std().round(6))
print(a.argmax(), a.argmin(axis=1), a.clip(2, 3))
print(a.round(0), a.cumsum(), a.ravel(), a.T, a.diagonal(), a.trace())
print(a.any(), a.all(), a.nonzero())
print(a.astype(int).tolist(), a.reshape(-1).shape, a.swapaxes(0, 1).shape)
print(a.max(axis=1), a.min(), np.ptp(a))
print(a.repeat(2, axis=1), a.squeeze().shape, a.conj().dtype)
print(a.dot(a), a.take([0, 3]))

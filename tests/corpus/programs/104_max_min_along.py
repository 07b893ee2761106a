import numpy as np

m = np.array([[4, 9, 2], [3, 5, 7], [8, 1, 6]])
print(m.max(), m.max(axis=0), m.min(axis=1))
print(np.amax(m, axis=1, keepdims=True))
print(np.maximum(m, 5))
print(np.argmax(m, axis=0), np.argmin(m, axis=1))
print(m.sum(axis=0), m.sum(axis=1), np.trace(m), np.trace(np.fliplr(m)))
print(m.cumsum(axis=1)[:, -1])
print(np.max(m, initial=100), np.sum(m, where=m > 4))

import numpy as np

m = np.array([[1, 8, 3], [9, 2, 7]])
print(np.argmax(m, axis=1, keepdims=True), np.argmin(m, axis=0, keepdims=True))
print(np.cumsum(m), np.cumsum(m, axis=None).shape)
print(np.rollaxis(np.zeros((2, 3, 4)), 2).shape, np.roll(np.arange(5), -2))
print(np.max(m, axis=0, keepdims=True).shape, m.mean(axis=1, keepdims=True))
print(np.take_along_axis(m, np.argsort(m, axis=1), axis=1))

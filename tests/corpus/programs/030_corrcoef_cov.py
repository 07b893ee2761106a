import numpy as np

x = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
y = np.array([2.0, 4.1, 5.9, 8.2, 9.9])
print(np.round(np.cov(x, y), 6))
print(np.round(np.corrcoef(x, y), 6))
m = np.vstack([x, y, x ** 2])
print(np.round(np.cov(m, bias=True), 6))
print(np.round(np.correlate(x, y, mode="full"), 6))
print(np.convolve([1, 2, 3], [0, 1, 0.5]))

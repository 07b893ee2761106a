import numpy as np

x = np.array([0.1, 0.4, 0.45, 0.7, 0.9, 0.95])
w = np.array([1.0, 2.0, 1.0, 0.5, 0.5, 3.0])
h, e = np.histogram(x, bins=2, weights=w)
print(h, e)
print(np.histogram(x, bins="auto")[0])
print(np.histogram(np.arange(10), bins=3, range=(0, 9))[0])
print(np.interp([350, 10], [0, 90, 180, 270], [0, 1, 2, 3], period=360))

import numpy as np

pts = np.array([[0.1, 0.2], [0.6, 0.4], [0.9, 0.8], [0.5, 0.5]])
H, edges = np.histogramdd(pts, bins=(2, 2), range=((0, 1), (0, 1)))
print(H)
print([e.tolist() for e in edges])
x = np.array([1.0, 2.0, 3.0, 4.0, 10.0])
print(np.percentile(x, 40, method="lower"), np.percentile(x, 40, method="nearest"))
print(np.percentile(x, 40, method="midpoint"), np.quantile(x, 0.5, method="higher"))

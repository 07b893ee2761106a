import numpy as np

data = np.array([0.5, 1.5, 1.7, 2.2, 2.9, 3.1, 3.3, 3.8, 4.0])
counts, edges = np.histogram(data, bins=4)
print(counts)
print(edges)
counts, edges = np.histogram(data, bins=[0, 1, 2, 3, 4])
print(counts)
dens, _ = np.histogram(data, bins=3, range=(0, 6), density=True)
print(np.round(dens, 6))
print(np.histogram_bin_edges(data, bins=3))
h, xe, ye = np.histogram2d([0, 1, 1, 2], [0, 0, 1, 2], bins=2)
print(h)

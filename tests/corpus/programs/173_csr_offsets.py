import numpy as np

lengths = np.array([3, 0, 2, 4])
offsets = np.concatenate([[0], np.cumsum(lengths)])
print(offsets)
row_ids = np.repeat(np.arange(len(lengths)), lengths)
print(row_ids)
data = np.arange(offsets[-1]) * 10
sums = np.add.reduceat(data, offsets[:-1][lengths > 0])
print(sums)
print(np.bincount(row_ids, weights=data, minlength=len(lengths)))

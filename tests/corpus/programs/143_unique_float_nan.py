import numpy as np

a = np.array([1.0, np.nan, 2.0, np.nan, 1.0])
print(np.unique(a))
print(np.unique(a, equal_nan=False))
print(np.unique_values(np.array([3, 1, 3])))
r = np.unique_counts(np.array([3, 1, 3]))
print(r.values, r.counts)
print(np.sort(a), np.argsort(a))

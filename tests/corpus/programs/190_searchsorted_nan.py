import numpy as np

a = np.array([1.0, 2.0, 3.0, np.nan])
print(np.searchsorted(a, [np.nan, 2.5, 10.0]))
print(np.sort(np.array([np.nan, 1.0, -np.inf, np.nan])))
print(np.argmax(np.array([1.0, np.nan, 3.0])), np.max(np.array([1.0, np.nan])))
print(np.unique(np.array([np.nan, np.nan, 1.0])), np.isin([np.nan], [np.nan]))

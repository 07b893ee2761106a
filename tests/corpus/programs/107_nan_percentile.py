import numpy as np

a = np.array([1.0, np.nan, 3.0, 4.0, np.nan, 10.0])
print(np.nanpercentile(a, 50), np.nanquantile(a, [0.25, 0.75]))
print(np.nanprod(a), np.nanvar(a), np.nanargmin(a))
print(np.nancumprod(a))
b = np.where(np.isnan(a), np.nanmean(a), a)
print(b)

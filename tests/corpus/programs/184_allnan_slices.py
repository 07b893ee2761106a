import numpy as np
import warnings

a = np.array([[np.nan, np.nan], [1.0, np.nan]])
with warnings.catch_warnings():
    warnings.simplefilter("ignore", RuntimeWarning)
    print(np.nanmean(a, axis=1), np.nanmax(a, axis=0))
    print(np.nanmedian(a, axis=1), np.nanstd(a, axis=1))
print(np.nansum(a, axis=1), np.nanprod(a, axis=0))
try:
    np.nanargmax(a, axis=1)
except ValueError:
    print("ValueError: all-NaN slice")

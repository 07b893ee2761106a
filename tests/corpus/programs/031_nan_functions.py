import numpy as np

a = np.array([[1.0, np.nan, 3.0], [np.nan, 5.0, 6.0]])
print(np.nansum(a), np.nansum(a, axis=0))
print(np.nanmean(a, axis=1))
print(np.nanmax(a), np.nanmin(a, axis=0))
print(np.nanargmax(a, axis=1))
print(np.nanmedian(a))
print(np.round(np.nanstd(a), 6))
print(np.nancumsum(a, axis=1))
print(np.isnan(a).sum())
print(np.nan_to_num(a, nan=-1.0))

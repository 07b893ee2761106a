import numpy as np

d = np.datetime64("2024-02-27")
print(d + np.arange(4))
print(np.datetime64("2024-03-01") - d)
days = np.arange("2024-01", "2024-04", dtype="datetime64[M]")
print(days)
print(np.datetime64("2024-01-31") + np.timedelta64(1, "D"))
print(d.dtype, (d - np.datetime64("2024-01-01")).astype(int))

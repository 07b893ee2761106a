import numpy as np

td = np.array([90, 3600, 86400], dtype="timedelta64[s]")
print(td)
print(td.astype("timedelta64[m]"))
print(td / np.timedelta64(1, "h"))
t0 = np.datetime64("2024-01-01T00:00")
print(t0 + td)
print(np.diff(np.array(["2024-01-01", "2024-01-05", "2024-02-01"], dtype="datetime64[D]")))

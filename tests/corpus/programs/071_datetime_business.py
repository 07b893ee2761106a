import numpy as np

start = np.datetime64("2024-05-01")
dates = start + np.arange(10)
print(dates)
print(np.is_busday(dates))
print(np.busday_count("2024-05-01", "2024-06-01"))
print(np.busday_offset("2024-05-03", 1, roll="forward"))
weekday = (dates.astype("datetime64[D]").view("int64") - 4) % 7
print(weekday)

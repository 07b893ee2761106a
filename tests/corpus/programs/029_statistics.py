import numpy as np

data = np.array([[2.0, 4.0, 4.0, 4.0], [5.0, 5.0, 7.0, 9.0]])
print(data.mean(), data.mean(axis=1))
print(np.median(data), np.median(data, axis=0))
print(data.std(), data.var(axis=1))
print(data.std(ddof=1))
print(np.percentile(data, [25, 50, 75]))
print(np.quantile(data, 0.9, axis=1))
print(np.average(data, axis=1, weights=[1, 2, 3, 4]))
print(np.ptp(data, axis=1))

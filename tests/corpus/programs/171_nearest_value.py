import numpy as np

values = np.array([1.5, 3.2, 7.7, 10.1, 4.4])
target = 5.0
print(values[np.abs(values - target).argmin()])
s = np.sort(values)
i = np.clip(np.searchsorted(s, target), 1, len(s) - 1)
left, right = s[i - 1], s[i]
print(left if target - left <= right - target else right)
print(values[np.argsort(np.abs(values - target))[:2]])

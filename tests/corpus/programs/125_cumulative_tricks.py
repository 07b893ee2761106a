import numpy as np

# run lengths of equal consecutive values
a = np.array([1, 1, 2, 2, 2, 3, 1, 1])
change = np.flatnonzero(np.diff(a)) + 1
starts = np.concatenate([[0], change])
lengths = np.diff(np.concatenate([starts, [len(a)]]))
print(a[starts], lengths)
# group ids and cumulative max
print(np.cumsum(np.concatenate([[0], np.diff(a) != 0])))
print(np.maximum.accumulate([3, 1, 4, 1, 5, 9, 2, 6]))
print(np.cumsum(np.arange(5))[::-1])

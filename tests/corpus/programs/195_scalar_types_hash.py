import numpy as np

d = {np.int64(1): "a", 2: "b"}
print(d[1], d[np.int32(2)])
print(hash(np.float64(1.5)) == hash(1.5), np.float64(2.0) in {2.0})
a = np.arange(3)
print(a[0] == 0, type(a[0] == 0).__name__)
print(max(a), min(np.array([3.5, -1.0])), abs(np.int8(-4)))
print(sorted(set(np.array([3, 1, 3]).tolist())))

import numpy as np

b = np.broadcast_to(np.arange(3), (2, 3))
print(b.flags.writeable)
try:
    b[0, 0] = 5
except ValueError:
    print("ValueError: read-only broadcast view")
a = np.arange(4)
a.flags.writeable = False
try:
    a[0] = 1
except ValueError:
    print("ValueError: read-only array")
x, y = np.broadcast_arrays(np.arange(3), np.arange(2)[:, None])
print(x.shape, y.shape, x[1], y[:, 2])

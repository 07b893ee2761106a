import numpy as np

try:
    np.array([[1, 2], [3]])
except ValueError:
    print("ValueError ragged")
o = np.array([[1, 2], [3]], dtype=object)
print(o.shape, o.dtype, len(o[1]))
print(np.array([None, 1]).dtype)

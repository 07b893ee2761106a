import numpy as np

a = np.arange(12, dtype=np.int32).reshape(3, 4)
print(a.strides, a.itemsize, a.nbytes)
print(a.T.strides)
print(a[:, ::2].strides)
print(a.flags["C_CONTIGUOUS"], a.T.flags["C_CONTIGUOUS"], a.T.flags["F_CONTIGUOUS"])
print(np.ascontiguousarray(a.T).flags["C_CONTIGUOUS"])
print(np.asfortranarray(a).strides)
v = a[1]
print(np.shares_memory(a, v), np.shares_memory(a, a.copy()))
print(v.base is a)

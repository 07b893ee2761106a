import numpy as np

dt = np.dtype(np.float32)
print(dt, dt.name, dt.kind, dt.itemsize, dt.char, dt.byteorder, repr(dt))
print(np.dtype("i4") == np.int32, np.dtype("c16").type.__name__)
a = np.zeros(3, dtype="uint16")
print(a.dtype, a.dtype.type(7) + 1, np.dtype(a.dtype).num == np.dtype(np.uint16).num)
print(np.float32 in (np.float32, np.float64), np.dtype(np.bool_).name)
print(np.dtype(np.int8).str, np.dtype(">f8").byteorder)

import numpy as np

print(np.iinfo(np.int8).min, np.iinfo(np.int8).max)
print(np.iinfo(np.uint32).max)
print(np.finfo(np.float32).eps)
print(np.finfo(np.float64).max)
print(np.finfo(np.float16).bits)
print(np.dtype(np.float64).itemsize, np.dtype("int16").name)
print(np.dtype("f8") == np.float64, np.dtype(int).kind)
print(np.issubdtype(np.int32, np.integer), np.issubdtype(np.float32, np.integer))
print(np.issubdtype(np.complex64, np.complexfloating))
print(np.array([1, 2]).dtype.char, np.dtype(np.uint8).str)

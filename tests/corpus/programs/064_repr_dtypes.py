import numpy as np

print(repr(np.array([1, 2, 3], dtype=np.int8)))
print(repr(np.array([1.0, 2.0], dtype=np.float32)))
print(repr(np.array([True, False])))
print(repr(np.array([1 + 2j, 3 - 1j])))
print(repr(np.zeros((2, 0))))
print(repr(np.array(5)))
print(repr(np.float64(2.5)), repr(np.int32(3)))
print(repr(np.arange(3, dtype=np.uint16)))
print(str(np.array([[1.0, -0.5], [100.0, 0.25]])))

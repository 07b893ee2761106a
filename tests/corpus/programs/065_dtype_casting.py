import numpy as np

a = np.array([1.7, -2.3, 3.9])
print(a.astype(int))
print(a.astype(np.int8).dtype)
print(np.array([300, -1]).astype(np.uint8))
print(np.array([1, 0, 2]).astype(bool))
print(np.can_cast(np.int32, np.float64), np.can_cast(np.float64, np.int32))
print(np.can_cast(np.int64, np.int8, casting="same_kind"))
print(np.result_type(np.int8, np.uint8), np.result_type(np.float32, np.int64))
print(np.promote_types("i2", "f4"))
print((np.arange(3, dtype=np.int16) + np.int8(1)).dtype)
print((np.arange(3, dtype=np.float32) * 2.0).dtype)

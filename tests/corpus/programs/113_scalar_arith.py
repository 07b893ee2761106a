import numpy as np

x = np.float64(2.5)
print(x * 2, x ** 2, -x, abs(-x), int(x), float(x), round(x))
i = np.int32(7)
print(i // 2, i % 4, i / 2, (i + 1).dtype)
print(np.float32(0.1) + np.float64(0.2))
print(np.int8(3) * 2, (np.int8(3) * 2).dtype)
print(np.sqrt(np.float32(2.0)).dtype, np.array(3) + 0.5)
print(str(np.float64(1e20)), str(np.float32(3.14159)), repr(np.bool_(True)))
print(np.float64(np.nan) == np.nan, np.uint8(255) + np.uint8(0))

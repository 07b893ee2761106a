import numpy as np

a = np.array([1, 256, 65535], dtype=np.uint16)
raw = a.tobytes()
print(len(raw), raw[:4])
b = np.frombuffer(raw, dtype=np.uint16)
print(b, b.dtype)
print(a.view(np.uint8))
print(np.array([1.0], dtype=np.float32).view(np.int32))
print(a.byteswap())
print(np.array([1, 2], dtype=">i4").astype("<i4"))

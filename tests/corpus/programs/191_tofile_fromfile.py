import numpy as np
import os
import tempfile

a = np.arange(6, dtype=np.int32)
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "raw.bin")
    a.tofile(path)
    print(os.path.getsize(path))
    b = np.fromfile(path, dtype=np.int32)
    print(b, b.dtype)
    c = np.fromfile(path, dtype=np.int32, count=2, offset=8)
    print(c)

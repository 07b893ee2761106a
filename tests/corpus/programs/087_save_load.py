import numpy as np
import os
import tempfile

a = np.arange(12, dtype=np.float32).reshape(3, 4)
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "a.npy")
    np.save(path, a)
    b = np.load(path)
    print(b, b.dtype, np.array_equal(a, b))
    zpath = os.path.join(d, "z.npz")
    np.savez(zpath, first=a, second=np.arange(3))
    with np.load(zpath) as z:
        print(sorted(z.files))
        print(z["second"])

import numpy as np

dt = np.dtype([("x", "f4"), ("y", "f4"), ("id", "i2")])
pts = np.zeros(3, dtype=dt)
pts["x"] = [1.0, 2.0, 3.0]
pts["y"] = pts["x"] ** 2
pts["id"] = np.arange(3) + 10
print(pts)
print(pts.dtype.itemsize, pts.dtype.fields["y"][1])
r = np.rec.array(pts)
print(r.x + r.y)

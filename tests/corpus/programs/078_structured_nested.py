import numpy as np

dt = np.dtype([("pos", "f8", (2,)), ("tag", "U3")])
a = np.array([((0.0, 1.0), "a"), ((2.0, 3.0), "b")], dtype=dt)
print(a["pos"])
print(a["pos"].sum(axis=0))
print(a["tag"])
print(a.shape, a["pos"].shape)

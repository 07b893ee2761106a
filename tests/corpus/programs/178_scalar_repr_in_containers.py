import numpy as np

a = np.array([1.5, 2.0])
print([a[0], a[1]])
print((a.sum(), a.max()))
print({"mean": a.mean()})
print(repr(a[0]), str(a[0]), repr(np.int64(3)), repr(np.bool_(False)))
np.set_printoptions(legacy="1.25")
print([a[0], a.sum()], repr(np.int64(3)))

import numpy as np

g = np.mgrid[0:3, 0:4]
print(g.shape)
print(g[0])
print(np.mgrid[0:1:5j])
o = np.ogrid[0:3, 0:4]
print(o[0].shape, o[1].shape)
print(o[0] * 10 + o[1])
print(np.r_[1:4, 0, [7, 8]])
print(np.c_[np.array([1, 2]), np.array([3, 4])])

import numpy as np

a = np.zeros((2, 3, 4, 5))
print(np.moveaxis(a, 0, -1).shape)
print(np.swapaxes(a, 1, 3).shape)
print(np.expand_dims(a, (0, 2)).shape)
print(np.squeeze(np.ones((1, 3, 1))).shape)
print(a.T.shape)
print(np.atleast_2d(5).shape, np.atleast_3d([1, 2]).shape)
print(np.broadcast_to(np.arange(3), (2, 3)))

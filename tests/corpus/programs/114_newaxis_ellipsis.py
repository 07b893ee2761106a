import numpy as np

a = np.arange(24).reshape(2, 3, 4)
print(a[np.newaxis].shape, a[:, None, :, None].shape)
print(a[..., 0])
print(a[0, ..., ::2])
print(a[:, 1:, np.newaxis, -1].shape)
print(a[(0, 1)])
idx = (slice(None), 0, slice(1, 3))
print(a[idx])

import numpy as np

img = np.arange(36, dtype=float).reshape(6, 6)
pooled = img.reshape(3, 2, 3, 2).max(axis=(1, 3))
print(pooled)
avg = img.reshape(2, 3, 2, 3).mean(axis=(1, 3))
print(avg)
padded = np.pad(img[:2, :2], ((1, 1), (0, 2)), mode="edge")
print(padded)
print(np.pad(np.arange(4), 2, mode="reflect"), np.pad(np.arange(4), (1, 2), mode="wrap"))
gx = img[:, 2:] - img[:, :-2]
print(gx[0])

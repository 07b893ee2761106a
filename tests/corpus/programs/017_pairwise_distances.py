import numpy as np

pts = np.array([[0.0, 0.0], [3.0, 4.0], [1.0, 1.0], [-2.0, 5.0]])
diff = pts[:, None, :] - pts[None, :, :]
d = np.sqrt((diff ** 2).sum(axis=-1))
print(np.round(d, 4))
nearest = np.argsort(d, axis=1)[:, 1]
print(nearest)
print(np.round(d.max(), 6))

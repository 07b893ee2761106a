import numpy as np

rng = np.random.default_rng(2024)
n = 20000
pts = rng.random((n, 2))
inside = (pts ** 2).sum(axis=1) <= 1.0
print(inside.sum())
print(np.round(4 * inside.mean(), 6))
walk = rng.choice([-1, 1], size=1000).cumsum()
print(walk[-1], walk.max(), walk.min())

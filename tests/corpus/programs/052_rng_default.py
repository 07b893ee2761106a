import numpy as np

rng = np.random.default_rng(0)
print(rng.integers(0, 10, size=8))
print(np.round(rng.random(4), 6))
print(np.round(rng.normal(0, 1, size=3), 6))
print(np.round(rng.uniform(-1, 1, size=(2, 2)), 6))
rng2 = np.random.default_rng(0)
print(rng2.integers(0, 10, size=8))

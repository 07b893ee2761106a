import numpy as np

rng = np.random.default_rng(77)
print(rng.integers(1, 6, size=5, endpoint=True))
m = np.arange(12).reshape(4, 3)
print(rng.choice(m, 2, replace=False, axis=0))
print(rng.permuted(np.arange(6).reshape(2, 3), axis=1))
print(np.round(rng.triangular(0, 1, 2, size=3), 6))
print(np.round(rng.lognormal(0, 0.5, size=3), 6))
print(rng.geometric(0.3, size=5), rng.hypergeometric(5, 5, 3, size=4))

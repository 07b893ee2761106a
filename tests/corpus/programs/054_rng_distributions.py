import numpy as np

rng = np.random.default_rng(123)
print(rng.poisson(3.0, size=6))
print(rng.binomial(10, 0.3, size=6))
print(np.round(rng.exponential(2.0, size=4), 6))
print(np.round(rng.standard_normal((2, 3)), 6))
print(np.round(rng.gamma(2.0, 1.0, size=3), 6))
print(np.round(rng.beta(2.0, 5.0, size=3), 6))

import numpy as np

rng = np.random.default_rng(9)
mean = np.array([1.0, -1.0])
cov = np.array([[1.0, 0.5], [0.5, 2.0]])
s = rng.multivariate_normal(mean, cov, size=4000)
print(s.shape)
print(np.round(s.mean(axis=0), 1))
print(np.round(np.cov(s.T), 1))
print(rng.integers(5, size=3, dtype=np.int8).dtype)
print(np.round(rng.dirichlet([1.0, 1.0, 1.0]).sum(), 6))

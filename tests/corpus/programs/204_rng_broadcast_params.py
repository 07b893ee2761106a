import numpy as np

rng = np.random.default_rng(31)
print(np.round(rng.normal(loc=[0.0, 10.0, 100.0], scale=0.01), 3))
print(np.round(rng.uniform(low=np.zeros((2, 1)), high=[1.0, 10.0], size=(2, 2)), 4))
print(rng.integers([0, 10], [5, 20], size=(3, 2)))
print(rng.choice(10, size=5, replace=False, shuffle=False))
print(rng.binomial([1, 10, 100], 0.5))

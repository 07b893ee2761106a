import numpy as np

rng = np.random.default_rng(5)
data = np.array([2.1, 3.4, 1.9, 5.6, 4.4, 3.3, 2.8, 4.9])
idx = rng.integers(0, len(data), size=(1000, len(data)))
means = data[idx].mean(axis=1)
print(np.round(means.mean(), 6))
print(np.round(np.percentile(means, [2.5, 97.5]), 6))
print(idx[0])

import numpy as np

rng = np.random.default_rng(12)
m = np.arange(12).reshape(3, 4)
rng.shuffle(m, axis=1)
print(m)
m2 = np.arange(6).reshape(3, 2)
np.random.seed(1)
np.random.shuffle(m2)
print(m2)
print(rng.permutation(np.arange(6).reshape(3, 2)))

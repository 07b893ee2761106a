import numpy as np

rng = np.random.default_rng(42)
print(rng.choice(10, size=4, replace=False))
print(rng.choice(["a", "b", "c"], size=5))
a = np.arange(8)
rng.shuffle(a)
print(a)
print(rng.permutation(6))
print(rng.choice(5, size=6, p=[0.1, 0.2, 0.3, 0.2, 0.2]))

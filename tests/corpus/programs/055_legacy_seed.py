import numpy as np

np.random.seed(0)
print(np.random.randint(0, 100, size=5))
print(np.round(np.random.rand(3), 6))
print(np.round(np.random.randn(2, 2), 6))
np.random.seed(0)
print(np.random.randint(0, 100, size=5))
print(np.random.choice(10, 3, replace=False))

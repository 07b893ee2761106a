import numpy as np

np.random.seed(42)
print(np.round(np.random.random((2, 2)), 6))
print(np.random.permutation(7))
x = np.arange(10)
np.random.shuffle(x)
print(x)
print(np.round(np.random.normal(5.0, 0.1, 3), 6))
print(np.random.binomial(5, 0.5, size=6))
print(np.random.randint(3, size=(2, 4)))

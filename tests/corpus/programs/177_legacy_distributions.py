import numpy as np

np.random.seed(3)
print(np.round(np.random.uniform(1, 2, 3), 6))
print(np.random.choice([10, 20, 30], size=5, p=[0.5, 0.3, 0.2]))
print(np.round(np.random.standard_t(5, 2), 6))
print(np.random.poisson(2.0, 5))
print(np.round(np.random.exponential(1.0, 3), 6))
print(np.round(np.random.random_sample(2), 6), np.random.randint(10))

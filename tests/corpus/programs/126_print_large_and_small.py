import numpy as np

print(np.array([1e-8, 1.0, 1e8]))
print(np.array([123456789.0, 0.5]))
print(np.array([0.1, 0.25, 100.0]))
print(np.arange(2000))
print(np.linspace(0, 1, 3, dtype=np.float32))
print(np.array([[1, -20], [300, 4]]))
print(np.array([np.inf, -np.inf, np.nan, 0.0]))
print(np.array([1.0 + 0.5j, -2.0j]))
print(np.zeros((2, 2, 2)))

import numpy as np

print(np.linspace([0, 10], [1, 20], 3))
print(np.linspace([0, 10], [1, 20], 3, axis=1))
print(np.linspace(2, 3, 1), np.linspace(0, 10, 4, dtype=int))
print(np.arange(0, 1, 0.1).size, np.arange(1, 2, 0.3))
print(np.arange(5.0, dtype=np.float32).dtype, np.arange(3, dtype=np.uint8))

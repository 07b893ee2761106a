import numpy as np

print(np.multiply.outer(np.arange(1, 4), np.arange(1, 5)))
print(np.add.outer([0, 10], [1, 2, 3]))
print(np.subtract.outer(np.arange(3), np.arange(3)))
print(np.greater.outer([1, 2, 3], [2]))
print(np.outer([1, 2], [3, 4, 5]))
print(np.power.outer([2, 3], [0, 1, 2, 3]))

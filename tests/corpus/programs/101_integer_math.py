import numpy as np

a = np.arange(-5, 6)
print(a // 3, a % 3)
print(np.fmod(a, 3), np.remainder(a, 3))
print(np.power(2, np.arange(6)))
print(np.float_power(2, [-1, 0.5]))
print(np.abs(a).max(), np.absolute(-3))
print(np.prod([1, 2, 3, 4]), np.sum(np.arange(101)))
print(np.floor_divide(7, [2, -2]), np.true_divide(7, 2))

import numpy as np

a = np.array([1, 2])
print([3, 4] + a, a * [3, 4], [10] - a)
print(a == [1, 3], [1, 2] == a, (a == [1, 2]).all())
print(np.max([[1, 5], [7, 2]]), np.sum([np.arange(3), np.ones(3)], axis=0))
print(np.array([a, a + 1]).T, np.add([1, 2], [[10], [20]]))
print(a.tolist() + [3], list(a * 2))

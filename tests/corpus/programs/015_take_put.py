import numpy as np

a = np.arange(10) * 10
print(np.take(a, [1, 5, -1]))
m = np.arange(12).reshape(3, 4)
print(np.take(m, [0, 2], axis=1))
print(np.take_along_axis(m, np.array([[3], [0], [1]]), axis=1))
b = np.zeros(6, dtype=int)
np.put(b, [0, 2, 4], [7, 8, 9])
print(b)
np.put_along_axis(m, np.array([[0], [1], [2]]), -1, axis=1)
print(m)
print(np.choose([0, 1, 2, 1], [[1, 2, 3, 4], [10, 20, 30, 40], [100, 200, 300, 400]]))

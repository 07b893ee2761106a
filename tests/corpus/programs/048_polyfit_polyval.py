import numpy as np

x = np.array([-2.0, -1.0, 0.0, 1.0, 2.0, 3.0])
y = 2 * x ** 2 - 3 * x + 1
c = np.polyfit(x, y, 2)
print(np.round(c, 6) + 0)
print(np.polyval([2, -3, 1], [0, 1, 2]))
print(np.round(np.sort(np.roots([1, -6, 11, -6])), 6))
print(np.poly([1, 2, 3]))
print(np.polyder([1, 0, -2, 5]))
print(np.polyint([3, 2, 1]))
print(np.polymul([1, 1], [1, -1]))
print(np.polyadd([1, 2], [1, 0, 0]))
q, r = np.polydiv([1, 0, -1], [1, -1])
print(q, r)

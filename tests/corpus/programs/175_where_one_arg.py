import numpy as np

m = np.array([[0, 7, 0], [3, 0, 9]])
print(np.where(m))
r, c = np.where(m > 5)
print(list(zip(r.tolist(), c.tolist())))
print(np.where([True, False, True], [1, 2, 3], [-1, -2, -3]))
print(np.where(m > 0, 1.5, 0))

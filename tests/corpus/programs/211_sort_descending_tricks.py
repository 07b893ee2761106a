import numpy as np

a = np.array([4.0, -1.0, 7.5, 0.0, 7.5])
print(np.sort(a)[::-1], -np.sort(-a))
print(np.argsort(-a, kind="stable"))
print(np.flip(np.argsort(a, kind="stable")))
m = np.array([[2, 9], [5, 1], [2, 3]])
print(m[np.lexsort((-m[:, 1], m[:, 0]))])
print(np.sort(m, axis=1)[:, ::-1])

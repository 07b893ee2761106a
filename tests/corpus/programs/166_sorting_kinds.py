import numpy as np

a = np.array([[3, 1, 2], [1, 3, 2]])
print(np.sort(a, kind="mergesort"), np.sort(a, kind="heapsort", axis=0))
print(np.argsort(a, axis=None), np.argsort(-a, axis=1, kind="stable"))
print(np.sort(np.array([2.0, np.nan, -1.0, np.inf])))
print(np.argsort(np.array([1, 1, 1, 0]), stable=True))
print(np.sort(np.array([True, False, True])))

import numpy as np

m = np.array([[3, 100], [1, 300], [2, 200], [1, 50]])
print(m[m[:, 0].argsort(kind="stable")])
print(m[np.lexsort((m[:, 1], m[:, 0]))])
print(m[m[:, 1].argsort()[::-1]])
ranks = np.empty(4, dtype=int)
ranks[np.argsort(m[:, 1])] = np.arange(4)
print(ranks)

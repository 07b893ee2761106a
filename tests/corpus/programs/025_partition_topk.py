import numpy as np

a = np.array([7, 1, 8, 3, 9, 2, 6])
k = 3
part = np.partition(a, k)
print(part[k], np.sort(part[:k]), np.sort(part[k + 1:]))
idx = np.argpartition(a, -k)[-k:]
print(np.sort(a[idx]))
top = np.argsort(a)[::-1][:k]
print(top, a[top])

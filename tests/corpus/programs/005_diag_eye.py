import numpy as np

print(np.eye(4, k=1, dtype=int))
print(np.diag([1, 2, 3]))
m = np.arange(16).reshape(4, 4)
print(np.diag(m))
print(np.diag(m, k=-1))
print(np.trace(m))
print(np.identity(3) * 7)
print(np.tri(4, 3, dtype=int))
print(np.tril(m), np.triu(m, 1), sep="\n")

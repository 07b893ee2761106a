import numpy as np

z = np.array([1 + 2j, 1 - 1j, 0 + 5j, 1 + 2j])
print(np.sort(z))
print(np.unique(z))
print(np.argsort(z, kind="stable"))
print(np.max(np.abs(z)))
print(np.round(np.mean(z), 6), np.round(np.std(z), 6))

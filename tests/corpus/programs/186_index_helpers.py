import numpy as np

m = np.arange(16).reshape(4, 4)
print(m[np.tril_indices_from(m)])
print(m[np.triu_indices(4, k=2)])
print(np.mask_indices(3, np.triu))
print(m[np.diag_indices_from(m)])
print(np.indices((2, 3)))
print(np.unravel_index([5, 11], (3, 4)))

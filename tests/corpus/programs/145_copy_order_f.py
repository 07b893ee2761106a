import numpy as np

a = np.arange(6).reshape(2, 3)
f = np.asfortranarray(a)
print(f.flags["F_CONTIGUOUS"], np.array_equal(a, f))
print(np.copy(a, order="F").ravel(order="K"))
print(a.ravel(order="F"))
print(a.flatten("F"))
print(np.reshape(np.arange(6), (2, 3), order="F"))

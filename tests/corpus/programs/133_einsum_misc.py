import numpy as np

a = np.arange(6.0).reshape(2, 3)
b = np.arange(3.0)
print(np.einsum("ij,j->i", a, b))
print(np.einsum("ij,ij->i", a, a))
print(np.einsum(a, [0, 1], b, [1], [0]))
print(np.einsum("i,i->", b, b))
q = np.arange(8.0).reshape(2, 2, 2)
print(np.einsum("ijk->kji", q)[1])
print(np.einsum("ij,kj->ik", a, a, optimize=True))

import numpy as np

a = np.arange(6).reshape(2, 3)
b = np.arange(12).reshape(3, 4)
print(np.einsum("ij,jk->ik", a, b))
print(np.einsum("ii->i", np.arange(9).reshape(3, 3)))
print(np.einsum("ii", np.arange(9).reshape(3, 3)))
print(np.einsum("ij->ji", a))
print(np.einsum("ij->", a))
print(np.einsum("i,j->ij", [1, 2], [3, 4, 5]))
x = np.arange(24).reshape(2, 3, 4)
print(np.einsum("bij,bjk->bik", x, x.transpose(0, 2, 1)))
print(np.einsum("...j,j", x, np.ones(4)))

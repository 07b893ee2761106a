import numpy as np

A = np.arange(4).reshape(2, 2)
B = np.arange(4, 8).reshape(2, 2)
print(np.einsum("ij,ij->ij", A, B))
print(np.einsum("ij,ji->", A, B))
print(np.einsum("ab,bc,cd->ad", A, B, A))
print(np.einsum("i,i,i->", [1, 2], [3, 4], [5, 6]))
print(np.einsum("ijk,k->ij", np.ones((2, 2, 3)), np.arange(3)))
print(np.einsum("Ab,bC->AC", A, B))

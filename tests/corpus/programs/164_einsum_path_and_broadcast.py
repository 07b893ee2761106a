import numpy as np

a = np.ones((2, 3))
b = np.ones((3, 4))
c = np.ones((4, 5))
path, info = np.einsum_path("ij,jk,kl->il", a, b, c, optimize="greedy")
print(path)
print(np.einsum("ij,jk,kl->il", a, b, c, optimize=path))
print(np.einsum("i...,i->...", np.arange(6).reshape(2, 3), np.array([1, 2])))
print(np.einsum("ij->i", np.arange(6).reshape(2, 3)))

import numpy as np

for uf in (np.add, np.sin, np.divmod, np.isnan):
    print(uf.__name__, uf.nin, uf.nout, uf.nargs)
print(np.add.types[:3])
print(isinstance(np.add, np.ufunc), type(np.add).__name__)
print(np.matmul.signature, np.add.signature)
print(np.negative.identity, np.logical_and.identity, np.bitwise_or.identity)

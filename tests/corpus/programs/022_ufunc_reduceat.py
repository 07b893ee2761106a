import numpy as np

a = np.arange(10)
print(np.add.reduceat(a, [0, 3, 7]))
print(np.maximum.reduceat(a, [0, 5]))
m = np.arange(12).reshape(3, 4)
print(np.add.reduceat(m, [0, 2], axis=1))
print(np.add.nin, np.add.nout, np.add.identity)
print(np.multiply.identity, np.maximum.identity)
print(np.add.__name__)

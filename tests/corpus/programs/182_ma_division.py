import numpy as np

a = np.ma.array([1.0, 2.0, 3.0])
b = np.ma.array([1.0, 0.0, 2.0])
q = a / b
print(q, q.mask)
print(np.ma.log(np.ma.array([1.0, -1.0, np.e])))
print(np.ma.masked_less(np.arange(5), 2).mean())
print(np.ma.array([1, 2, 3], mask=[0, 1, 0]).tolist())

import numpy as np

a = np.ma.array([1.0, 2.0, 3.0, 4.0], mask=[0, 1, 0, 0], fill_value=-9.0)
print(a.filled(), a.fill_value)
print(np.ma.sqrt(np.ma.array([4.0, -1.0, 9.0])))
print((a + np.arange(4)).mask)
print(a.argmax(), a.cumsum())
b = np.ma.masked_outside(np.arange(10), 2, 6)
print(b.sum(), b.compressed())
print(np.ma.concatenate([a, np.ma.array([5.0], mask=[1])]))

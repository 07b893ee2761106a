import numpy as np

a = np.array([1.0, -2.0, 3.0, -4.0])
out = np.zeros(4)
np.abs(a, out=out)
print(out)
res = np.sqrt(a, where=a > 0, out=np.full(4, -1.0))
print(res)
print(np.add(np.arange(3), 1.5, dtype=np.float32))
print(np.divmod(np.arange(7), 3))
q, r = np.divmod(-7, 2)
print(q, r)
print(np.modf(np.array([1.5, -2.25])))
print(np.frexp(np.array([8.0, 0.75])))

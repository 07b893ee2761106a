import numpy as np

dst = np.zeros(5)
np.copyto(dst, np.arange(5.0) * 2, where=np.arange(5) % 2 == 0)
print(dst)
out = np.empty(3)
np.multiply([1, 2, 3], 2, out=out)
print(out)
acc = np.zeros(3)
for k in range(3):
    np.add(acc, k, out=acc)
print(acc)
m = np.ones((2, 3))
m.sum(axis=0, out=out)
print(out)
print(np.cumsum([1, 2, 3], out=np.empty(3, dtype=int)))

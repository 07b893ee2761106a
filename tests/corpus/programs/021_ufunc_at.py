import numpy as np

counts = np.zeros(5, dtype=int)
np.add.at(counts, [0, 1, 1, 3, 3, 3], 1)
print(counts)
a = np.arange(5, dtype=float)
np.multiply.at(a, [1, 1, 4], 2.0)
print(a)
b = np.full(4, 100)
np.minimum.at(b, [0, 0, 2], [50, 30, 200])
print(b)
# compare with plain fancy assignment, which does not accumulate
c = np.zeros(5, dtype=int)
c[[0, 1, 1, 3]] += 1
print(c)

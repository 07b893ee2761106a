import numpy as np

m = np.arange(6).reshape(3, 2)
for row in m:
    print(row, row.sum())
for a, b in m:
    print(int(a) * int(b), end=" ")
print()
print([x for x in m.flat][:4])
print(list(m.T[0]))
print(dict(zip("abc", m[:, 1].tolist())))
print(len(m), m.size, m.ndim)

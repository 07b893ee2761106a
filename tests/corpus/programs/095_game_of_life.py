import numpy as np

def step(g):
    n = sum(np.roll(np.roll(g, i, 0), j, 1)
            for i in (-1, 0, 1) for j in (-1, 0, 1) if (i, j) != (0, 0))
    return ((n == 3) | ((g == 1) & (n == 2))).astype(int)

g = np.zeros((6, 6), dtype=int)
g[1, 2] = g[2, 3] = g[3, 1] = g[3, 2] = g[3, 3] = 1
for _ in range(4):
    g = step(g)
print(g)
print(g.sum())

import numpy as np

x = np.arange(-3, 4)
print(np.where(x > 0, x, 0))
print(np.where(x % 2 == 0))
conds = [x < -1, x > 1]
print(np.select(conds, [x * 100, x * 10], default=x))
print(np.clip(x, -2, 2))
print(np.where(x[:, None] > x[None, :3], 1, 0))

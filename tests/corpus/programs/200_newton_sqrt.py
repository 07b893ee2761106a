import numpy as np

targets = np.array([2.0, 9.0, 10.0, 0.25])
x = np.ones_like(targets)
for it in range(20):
    x_new = 0.5 * (x + targets / x)
    if np.all(np.abs(x_new - x) < 1e-14):
        break
    x = x_new
print(it, np.round(x, 12))
print(np.allclose(x, np.sqrt(targets)))
print(np.max(np.abs(x * x - targets)) < 1e-12)

import numpy as np

print(np.linspace(0, 1, 5))
print(np.linspace(0, 1, 5, endpoint=False))
vals, step = np.linspace(-2, 2, 9, retstep=True)
print(vals, step)
print(np.logspace(0, 3, 4))
print(np.geomspace(1, 1000, 4))
print(np.arange(0.0, 1.0, 0.25))
print(np.arange(10, 0, -3))

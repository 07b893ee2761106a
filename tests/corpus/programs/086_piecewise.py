import numpy as np

x = np.linspace(-2, 2, 9)
y = np.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v ** 2])
print(y)
step = np.piecewise(x, [x < -1, (x >= -1) & (x < 1)], [0, 1, 2])
print(step)
print(np.heaviside(x, 0.5))
print(np.sign(x))

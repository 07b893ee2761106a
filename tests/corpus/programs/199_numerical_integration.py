import numpy as np

x = np.linspace(0, np.pi, 101)
y = np.sin(x)
print(np.round(np.trapezoid(y, x), 6))
dx = x[1] - x[0]
simpson = dx / 3 * (y[0] + y[-1] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum())
print(np.round(simpson, 6))
print(np.round(np.cumsum(y)[-1] * dx, 6))
xs = np.linspace(0, 1, 5)
print(np.round(np.gradient(xs ** 2, xs), 6), np.round(np.gradient(xs ** 2, xs, edge_order=2), 6))

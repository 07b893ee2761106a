import numpy as np

x = np.linspace(-2.0, 0.5, 24)
y = np.linspace(-1.0, 1.0, 10)
c = x[None, :] + 1j * y[:, None]
z = np.zeros_like(c)
count = np.zeros(c.shape, dtype=int)
for _ in range(20):
    live = np.abs(z) <= 2
    z[live] = z[live] ** 2 + c[live]
    count += live
for row in count:
    print("".join("#" if v == 20 else "." for v in row))

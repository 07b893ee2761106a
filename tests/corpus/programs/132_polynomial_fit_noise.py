import numpy as np

rng = np.random.default_rng(21)
x = np.linspace(0, 4, 30)
y = 0.5 * x ** 2 - x + 2 + rng.normal(scale=0.1, size=x.size)
c = np.polyfit(x, y, 2)
print(np.round(c, 2))
resid = y - np.polyval(c, x)
print(np.round(np.abs(resid).max(), 2))
p = np.polynomial.Polynomial.fit(x, y, 2).convert()
print(np.round(p.coef, 2))

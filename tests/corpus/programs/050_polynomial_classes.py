import numpy as np
from numpy.polynomial import Polynomial, Chebyshev

p = Polynomial([1, 2, 3])
print(p(2.0))
print(p.coef)
print((p * p).coef)
print(p.deriv().coef, p.integ().coef)
print(np.round(np.sort(Polynomial([-6, 11, -6, 1]).roots()), 6))
x = np.linspace(-1, 1, 7)
fit = Polynomial.fit(x, x ** 3 - x, 3)
print(np.round(fit.convert().coef, 6) + 0)
c = Chebyshev([0, 0, 1])
print(c(0.5), np.round(c.convert(kind=Polynomial).coef, 6))

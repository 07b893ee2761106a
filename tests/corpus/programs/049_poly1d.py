import numpy as np

p = np.poly1d([1, -3, 2])
print(p(0), p(1), p(3))
print(p.order, p.coeffs)
print(np.round(np.sort(p.roots), 6))
q = p * np.poly1d([1, 1])
print(q.coeffs)
print(p.deriv().coeffs, p.integ().coeffs)
print(p + 1)

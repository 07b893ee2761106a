import numpy as np

def poly(x, coeffs):
    return sum(c * x ** i for i, c in enumerate(coeffs))

vpoly = np.vectorize(poly, excluded={"coeffs"})
print(vpoly(np.arange(4), coeffs=[1, 0, 2]))
vp2 = np.vectorize(poly, excluded=[1])
print(vp2(np.array([0.5, 1.5]), [1, 1]))
counter = np.vectorize(lambda s: len(str(s)))
print(counter(np.array([1, 22, 333])))

import numpy as np

print(0.1 + 0.2 == 0.3, np.isclose(0.1 + 0.2, 0.3))
a = np.linspace(0, 1, 11)
print(np.flatnonzero(np.isclose(a, 0.3)))
print(np.array([1.0, 2.0]) == np.array([1.0, 2.0 + 1e-12]))
print(np.allclose(np.array([1e-9]), np.array([0.0])), np.allclose([1e-9], [0.0], atol=0))
print(np.maximum(np.nan, 1.0), np.fmin(np.nan, 1.0), np.minimum(-0.0, 0.0))
print(np.copysign([1.0, 2.0], [-1.0, 0.0]), np.ldexp(3.0, 2))

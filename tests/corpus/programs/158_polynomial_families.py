import numpy as np
from numpy.polynomial import hermite as H, laguerre as La, chebyshev as C

print(H.hermval(1.0, [1, 2, 3]))
print(La.lagval(0.5, [1, 1, 1]))
print(C.chebval(0.3, [1, 0, 2]))
print(np.round(C.chebroots([0, 0, 1]), 6) + 0)
print(np.round(C.chebpts1(3), 6) + 0)
print(C.chebmul([1, 2], [0, 1]))
print(H.herm2poly([0, 1, 1]))
print(np.polynomial.Polynomial([1, 2, 3]).degree())

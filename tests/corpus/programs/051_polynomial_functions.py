import numpy as np
from numpy.polynomial import polynomial as P
from numpy.polynomial import legendre as L

print(P.polyval(2.0, [1, 0, 3]))
print(P.polyadd([1, 2], [0, 0, 5]))
print(P.polymul([1, 1], [1, 1]))
print(P.polyder([1, 2, 3, 4]))
print(np.round(P.polyfit([0, 1, 2, 3], [1, 3, 7, 13], 2), 6) + 0)
print(L.legval(0.5, [0, 0, 1]))
print(np.round(L.leg2poly([0, 0, 1]), 6))
print(P.polyvander(np.array([1.0, 2.0]), 2))

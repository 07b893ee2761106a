import numpy as np

print(np.emath.sqrt(-4))
print(np.emath.sqrt(np.array([4.0, -9.0])))
print(np.emath.log(-1.0))
print(np.round(np.emath.log10(np.array([-10.0, 100.0])), 6))
print(np.emath.power(-2, 2))

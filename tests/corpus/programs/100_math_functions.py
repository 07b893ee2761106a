import numpy as np

x = np.array([0.0, 0.5, 1.0, 2.0])
print(np.round(np.exp(x), 6))
print(np.round(np.log1p(x), 6))
print(np.round(np.sin(np.pi * x), 6) + 0)
print(np.round(np.arctan2([1, -1], [-1, -1]), 6))
print(np.round(np.sinh(x), 6), np.round(np.tanh(x), 6))
print(np.sqrt([4, 9, 16]), np.cbrt([8.0, -27.0]), np.square([2, -3]))
print(np.round(np.deg2rad([180, 90]), 6), np.rad2deg(np.pi))
print(np.hypot(3, 4), np.exp2(3), np.log2(8), np.log10(1000))
print(np.reciprocal(np.array([2.0, 4.0])), np.negative([1, -2]), np.positive([3]))

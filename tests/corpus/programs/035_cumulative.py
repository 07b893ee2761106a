import numpy as np

a = np.array([[1, 2, 3], [4, 5, 6]])
print(np.cumsum(a))
print(np.cumsum(a, axis=0))
print(np.cumprod(a, axis=1))
print(np.diff(np.array([1, 4, 9, 16, 25])))
print(np.diff(np.array([1, 4, 9, 16, 25]), n=2))
print(np.diff(a, axis=0))
print(np.ediff1d([1, 3, 6], to_begin=0))
print(np.round(np.gradient(np.array([1.0, 2.0, 4.0, 7.0, 11.0])), 6))
print(np.trapezoid([1, 2, 3]), np.trapezoid([1.0, 4.0], dx=0.5))

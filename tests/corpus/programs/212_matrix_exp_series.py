import numpy as np

A = np.array([[0.0, 1.0], [-1.0, 0.0]])
term = np.eye(2)
total = np.eye(2)
for k in range(1, 25):
    term = term @ A / k
    total = total + term
print(np.round(total, 8) + 0)
print(np.round(np.array([[np.cos(1.0), np.sin(1.0)], [-np.sin(1.0), np.cos(1.0)]]), 8))
print(np.allclose(total @ total.T, np.eye(2)))

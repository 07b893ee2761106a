import numpy as np

m = np.array([[1.0, 2.0, 3.0], [4.0, 0.0, 4.0], [0.5, 0.5, 0.0]])
print(m / m.sum(axis=1, keepdims=True))
centered = m - m.mean(axis=0)
print(np.round(centered, 6))
z = (m - m.mean()) / m.std()
print(np.round(z, 6))
mn, mx = m.min(axis=1, keepdims=True), m.max(axis=1, keepdims=True)
print((m - mn) / (mx - mn))

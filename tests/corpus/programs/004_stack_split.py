import numpy as np

x = np.arange(6).reshape(2, 3)
y = x * 10
print(np.vstack([x, y]))
print(np.hstack([x, y]))
print(np.stack([x, y], axis=-1).shape)
print(np.concatenate([x, y], axis=None))
parts = np.array_split(np.arange(10), 3)
for p in parts:
    print(p)
left, right = np.hsplit(np.arange(12).reshape(3, 4), 2)
print(left)
print(right)

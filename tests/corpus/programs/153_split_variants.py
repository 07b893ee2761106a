import numpy as np

a = np.arange(12).reshape(3, 4)
print(np.split(np.arange(9), [2, 5]))
print(np.split(a, 2, axis=1)[1])
print([p.shape for p in np.array_split(a, 3, axis=1)])
print(np.vsplit(a, [1])[1])
try:
    np.split(np.arange(10), 3)
except ValueError:
    print("ValueError: unequal split")
print(np.dsplit(np.arange(8).reshape(1, 2, 4), 2)[0].shape)

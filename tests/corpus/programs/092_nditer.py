import numpy as np

a = np.arange(6).reshape(2, 3)
for x in np.nditer(a):
    print(int(x), end=" ")
print()
for x in np.nditer(a, order="F"):
    print(int(x), end=" ")
print()
b = np.zeros((2, 3), dtype=int)
with np.nditer(b, op_flags=["readwrite"]) as it:
    for x in it:
        x[...] = 7
print(b)

import numpy as np

for idx in np.ndindex(2, 2):
    print(idx, end=" ")
print()
a = np.array([[10, 20], [30, 40]])
for idx, val in np.ndenumerate(a):
    print(idx, int(val))
total = sum(int(a[i]) for i in np.ndindex(a.shape))
print(total)

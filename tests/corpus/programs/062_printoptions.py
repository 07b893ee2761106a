import numpy as np

x = np.array([1.123456789, 2000.5, 0.000012345])
print(x)
np.set_printoptions(precision=3)
print(x)
np.set_printoptions(suppress=True)
print(x)
np.set_printoptions(precision=8, suppress=False)
with np.printoptions(precision=2, floatmode="fixed"):
    print(np.array([1.0, 2.5, 3.14159]))
print(np.get_printoptions()["precision"])
np.set_printoptions(threshold=5, edgeitems=2)
print(np.arange(100))

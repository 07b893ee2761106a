import numpy as np
import os
import tempfile

a = np.array([[1.5, 2.0], [3.25, -4.0]])
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "a.csv")
    np.savetxt(path, a, delimiter=",", fmt="%.3f")
    with open(path) as f:
        print(f.read())
    b = np.loadtxt(path, delimiter=",")
    print(b)
    c = np.genfromtxt(path, delimiter=",")
    print(c.shape)
print(np.fromstring("1 2 3", dtype=int, sep=" "))

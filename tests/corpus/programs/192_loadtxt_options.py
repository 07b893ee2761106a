import numpy as np
import io

text = "# x y z\n1 2 3\n4 5 6\n7 8 9\n"
print(np.loadtxt(io.StringIO(text)))
print(np.loadtxt(io.StringIO(text), usecols=(0, 2), dtype=int))
print(np.loadtxt(io.StringIO(text), skiprows=2))
x, y, z = np.loadtxt(io.StringIO(text), unpack=True)
print(y)
out = io.StringIO()
np.savetxt(out, np.eye(2), fmt="%d", header="identity", delimiter=";")
print(out.getvalue())

import numpy as np

m = np.arange(12).reshape(3, 4)
print(m.flat[5], m.flat[[1, 10]])
m.flat[::5] = -1
print(m)
print(np.ravel(m)[np.argmax(m)])
print(m.item(5), m.item((2, 3)))

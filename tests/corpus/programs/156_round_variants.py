import numpy as np

x = np.array([1234.5678, -55.55, 0.125])
print(np.round(x, 2), np.round(x, -1), np.round(x, -2))
print(np.round(np.array([15, 25, 35]), -1))
print(np.round(2.675, 2), np.round(np.float32(0.125), 2))
print(np.fix(np.array([-2.7, 2.7])), np.around(-0.5), np.round(-1.5))
print(np.array([1.006, 2.004]).round(2))

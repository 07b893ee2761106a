import numpy as np

print(np.round(np.hanning(5), 6))
print(np.round(np.hamming(5), 6))
print(np.round(np.blackman(4), 6) + 0)
print(np.round(np.bartlett(5), 6))
print(np.round(np.kaiser(4, 5.0), 6))

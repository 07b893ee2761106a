import numpy as np

x = np.array([3.0, 5.0, 2.0, 8.0, 6.0, 9.0, 1.0])
w = 3
c = np.cumsum(np.insert(x, 0, 0.0))
print((c[w:] - c[:-w]) / w)
print(np.convolve(x, np.ones(w) / w, mode="valid"))
print(np.convolve(x, np.ones(w), mode="same"))
ema = np.zeros_like(x)
ema[0] = x[0]
for i in range(1, len(x)):
    ema[i] = 0.5 * x[i] + 0.5 * ema[i - 1]
print(ema)

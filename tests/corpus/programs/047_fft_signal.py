import numpy as np

n = 64
t = np.arange(n) / n
sig = np.sin(2 * np.pi * 5 * t) + 0.5 * np.sin(2 * np.pi * 12 * t)
spec = np.abs(np.fft.rfft(sig)) / (n / 2)
peaks = np.argsort(spec)[-2:]
print(np.sort(peaks))
print(np.round(spec[np.sort(peaks)], 6))
img = np.arange(16.0).reshape(4, 4)
F = np.fft.fft2(img)
print(np.round(np.abs(F), 4))
print(np.round(np.fft.ifft2(F).real, 6) + 0)
print(np.round(np.fft.irfft(np.fft.rfft(sig), n)[:4], 6) + 0)

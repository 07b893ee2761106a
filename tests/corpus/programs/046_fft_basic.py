import numpy as np

np.set_printoptions(precision=6, suppress=True)
x = np.array([1.0, 2.0, 0.0, -1.0, 1.5, 0.5, -2.0, 3.0])
X = np.fft.fft(x)
print(np.round(X, 6) + 0)
print(np.round(np.fft.ifft(X).real, 6) + 0)
print(np.round(np.abs(np.fft.rfft(x)), 6))
print(np.fft.fftfreq(8, d=0.5))
print(np.fft.rfftfreq(8))
print(np.fft.fftshift(np.arange(6)))
print(np.fft.ifftshift(np.fft.fftshift(np.arange(7))))

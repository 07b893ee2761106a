import numpy as np

z = np.exp(2j * np.pi * np.arange(8) / 8)
print(np.round(np.abs(np.fft.fft(z)), 6) + 0)
m = np.arange(12.0).reshape(3, 4)
print(np.round(np.abs(np.fft.fft(m, axis=0)), 4) + 0)
print(np.round(np.fft.fft2(m, axes=(1, 0)).real, 4) + 0)
print(np.round(np.fft.ifft(np.fft.fft(z)), 6) + 0)
print(np.fft.fftfreq(5), np.fft.fftshift(np.fft.fftfreq(4)))

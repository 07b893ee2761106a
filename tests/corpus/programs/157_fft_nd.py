import numpy as np

x = np.arange(24.0).reshape(2, 3, 4)
F = np.fft.fftn(x)
print(F.shape, np.round(F[0, 0, 0].real, 6))
print(np.round(np.fft.ifftn(F).real, 6) + 0)
R = np.fft.rfftn(x)
print(R.shape, np.round(np.abs(R).max(), 4))
print(np.round(np.fft.irfftn(R, s=x.shape, axes=(0, 1, 2)), 6)[1, 2] + 0)
print(np.round(np.fft.fft(np.ones(4), n=6), 6) + 0)
print(np.round(np.fft.fft(np.arange(4.0), norm="ortho"), 6) + 0)
print(np.round(np.fft.hfft(np.array([1.0, 2.0, 3.0])), 6) + 0)

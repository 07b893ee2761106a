import numpy as np

z = np.array([1 + 1j, -2 + 0.5j, 3j])
print(z.real, z.imag)
print(np.abs(z))
print(np.round(np.angle(z), 6))
print(np.conj(z))
print(z * z)
print(np.round(np.exp(1j * np.pi / 2 * np.arange(4)), 6) + 0)
print(np.iscomplexobj(z), np.isrealobj(z.real))
print(np.real_if_close(np.array([1 + 0j, 2 + 0j])))
print(np.sort_complex(np.array([3 + 1j, 1 + 2j, 1 + 1j])))

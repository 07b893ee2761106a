import numpy as np

n = 60
is_p = np.ones(n + 1, dtype=bool)
is_p[:2] = False
for k in range(2, int(n ** 0.5) + 1):
    if is_p[k]:
        is_p[k * k::k] = False
primes = np.nonzero(is_p)[0]
print(primes)
print(len(primes), primes.sum())
print(np.diff(primes).max())

import numpy as np

import math
fact = np.frompyfunc(math.factorial, 1, 1)
r = fact(np.arange(6))
print(r, r.dtype)
gcd = np.frompyfunc(math.gcd, 2, 1)
print(gcd(np.array([12, 18, 27]), 6))
print(gcd.reduce(np.array([12, 18, 24])))
print(np.gcd(np.array([12, 18]), 8), np.lcm(4, np.array([6, 10])))

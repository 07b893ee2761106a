import numpy as np

rs = np.random.RandomState(7)
print(rs.randint(0, 6, size=10))
print(np.round(rs.uniform(size=3), 6))
print(rs.permutation(5))
print(np.round(rs.normal(10, 2, size=3), 6))
a = np.arange(6)
rs.shuffle(a)
print(a)

import numpy as np

votes = np.array([0, 2, 2, 1, 0, 2, 3])
print(np.bincount(votes))
print(np.bincount(votes, minlength=6))
w = np.array([0.5, 1.0, 1.0, 2.0, 0.5, 1.0, 3.0])
print(np.bincount(votes, weights=w))
ages = np.array([3, 17, 18, 35, 64, 65, 90])
bins = np.array([0, 18, 65])
print(np.digitize(ages, bins))
print(np.digitize(ages, bins, right=True))
print(np.argmax(np.bincount(votes)))

import numpy as np

dt = np.dtype([("name", "U10"), ("age", "i4"), ("height", "f8")])
people = np.array([("Ann", 31, 1.65), ("Bob", 25, 1.80), ("Cid", 40, 1.72)], dtype=dt)
print(people["age"])
print(people[people["age"] > 30]["name"])
print(np.sort(people, order="age")["name"])
print(people.dtype.names)
print(people[1])
print(people["height"].mean())

import numpy as np

s = np.array(["a-b-c", "d-e", "f"])
print(np.char.replace(s, "-", "+"))
print(np.char.count(s, "-"))
print(np.char.center(np.array(["x", "yy"]), 5, "*"))
print(np.char.zfill(np.array(["7", "42"]), 4))
print(np.char.join("|", np.array(["ab", "cd"])))
print(np.strings.lower(np.array(["ABC", "De"])))

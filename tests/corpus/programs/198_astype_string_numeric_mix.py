import numpy as np

codes = np.array([3, 1, 2])
labels = np.array(["low", "mid", "high"])
print(labels[codes - 1])
print(np.char.mod("%03d", codes))
print(np.array2string(codes, separator=","))
print(",".join(map(str, codes)))

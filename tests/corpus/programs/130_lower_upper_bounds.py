import numpy as np

scores = np.array([55, 72, 88, 91, 64, 79])
grades = np.array(list("FDCBA"))
cut = np.array([60, 70, 80, 90])
print(np.digitize(scores, cut))
letters = grades[np.digitize(scores, cut)]
print(letters)
print(np.searchsorted(cut, scores))

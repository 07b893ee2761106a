import numpy as np

words = np.array(["apple", "Banana", "cherry"])
print(words, words.dtype)
print(np.char.upper(words))
print(np.char.str_len(words))
print(np.char.add(words, "!"))
print(np.char.startswith(words, "b"))
print(np.sort(words))
print(words[np.char.find(words, "an") >= 0])

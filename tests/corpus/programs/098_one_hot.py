import numpy as np

labels = np.array([2, 0, 1, 2, 3])
one_hot = np.eye(4, dtype=int)[labels]
print(one_hot)
print(one_hot.argmax(axis=1))
oh2 = np.zeros((labels.size, labels.max() + 1))
oh2[np.arange(labels.size), labels] = 1
print(np.array_equal(one_hot, oh2))
logits = np.array([[1.0, 2.0, 0.5], [0.1, 0.2, 3.0]])
e = np.exp(logits - logits.max(axis=1, keepdims=True))
print(np.round(e / e.sum(axis=1, keepdims=True), 6))

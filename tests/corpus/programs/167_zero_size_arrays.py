import numpy as np

e = np.zeros((0, 3))
print(e.sum(axis=0), e.sum(axis=1), e.shape, e.size)
print(np.concatenate([e, np.ones((1, 3))]))
print(np.nansum(np.array([])))
try:
    np.zeros(0).max()
except ValueError:
    print("ValueError: max of empty")
print(np.arange(0).reshape(0, 5).T.shape, np.prod(np.array([])))
print(repr(np.array([], dtype=int)), np.unique(np.array([])))

import numpy as np

def clip_sign(x, lim):
    if x > lim:
        return lim
    if x < -lim:
        return -lim
    return x

f = np.vectorize(clip_sign)
print(f(np.array([-5, -1, 0, 2, 9]), 3))
g = np.vectorize(lambda a, b: a * 10 + b, otypes=[float])
print(g(np.arange(3)[:, None], np.arange(2)))
h = np.vectorize(lambda v: v.sum(), signature="(n)->()")
print(h(np.arange(6).reshape(2, 3)))

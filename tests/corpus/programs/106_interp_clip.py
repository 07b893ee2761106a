import numpy as np

xp = np.array([0.0, 1.0, 2.0, 3.0])
fp = np.array([0.0, 10.0, 5.0, 20.0])
print(np.interp([0.5, 1.5, 2.75, -1.0, 4.0], xp, fp))
print(np.interp(2.5, xp, fp, left=-1, right=-2))
print(np.clip(np.array([-3, 0, 7]), 0, 5))
print(np.round(np.sinc(np.array([0.0, 0.5, 1.0])), 6) + 0)
print(np.round(np.unwrap(np.array([0.0, 3.0, 6.5, 0.2])), 6))

import numpy as np

np.set_printoptions(linewidth=30)
print(np.arange(20))
np.set_printoptions(linewidth=75, sign="+")
print(np.array([1.0, -2.0, 0.0]))
np.set_printoptions(sign="-", floatmode="unique", precision=4)
print(np.array([1 / 3, 2.0]))
np.set_printoptions(nanstr="NA", infstr="INF")
print(np.array([np.nan, np.inf, 1.0]))
np.set_printoptions(formatter={"float": "{:.1f}".format})
print(np.array([1.25, 2.5]))

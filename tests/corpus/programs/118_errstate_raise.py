import numpy as np

with np.errstate(divide="raise"):
    try:
        np.array([1.0]) / 0.0
    except FloatingPointError as e:
        print("FloatingPointError")
with np.errstate(all="ignore"):
    print(np.array([1.0, -1.0, 0.0]) / 0.0)
old = np.seterr(invalid="ignore")
print(np.sqrt(np.array([-1.0])))
np.seterr(**old)
print(np.geterr()["divide"])

import numpy as np

a = np.array([1.0, -1.0, 0.0, np.inf, -np.inf, np.nan])
print(a / 1)
with np.errstate(divide="ignore", invalid="ignore"):
    print(a / 0)
    print(np.log(a))
print(np.isfinite(a), np.isinf(a), np.isposinf(a))
print(np.nan == np.nan, np.isnan(np.nan))
print(np.maximum(a, 0), np.fmax(a, 0))
print(np.nan_to_num(a))
print(np.signbit(np.array([-0.0, 0.0, -1.0])))

import numpy as np
import warnings

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    r = np.array([1.0, 0.0]) / np.array([0.0, 0.0])
    print(r)
    print(sorted({str(x.category.__name__) for x in w}))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    print(np.log(np.array([-1.0, 0.0])))
    print(len(w) > 0)
print(np.float64(1.0) / np.inf, np.divide(1, 2))

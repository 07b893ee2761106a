import numpy as np

np.testing.assert_equal({"a": np.arange(2)}, {"a": np.array([0, 1])})
np.testing.assert_equal([1.0, np.nan], [1.0, np.nan])
np.testing.assert_array_almost_equal([1.0, 2.0001], [1.0, 2.0], decimal=3)
with np.testing.assert_raises(ZeroDivisionError):
    1 / 0
np.testing.assert_array_max_ulp(np.array([1.0]), np.array([1.0]))
try:
    np.testing.assert_equal(np.arange(3), np.arange(4))
except AssertionError:
    print("shape mismatch caught")
print(np.array_equal([1.0, np.nan], [1.0, np.nan], equal_nan=True))
print("done")

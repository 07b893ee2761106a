import numpy as np

np.testing.assert_array_equal(np.arange(3), [0, 1, 2])
np.testing.assert_allclose(np.array([1.0, 2.0]), [1.0, 2.0 + 1e-9])
np.testing.assert_almost_equal(np.pi, 3.14159, decimal=5)
try:
    np.testing.assert_array_equal(np.arange(3), [0, 1, 3])
except AssertionError:
    print("mismatch detected")
try:
    np.testing.assert_allclose([1.0], [1.1], rtol=1e-3)
except AssertionError:
    print("not close")
print(np.allclose([1, 2], [1, 2.0000001]), np.isclose([1.0, 2.0], [1.0, 2.1]))
np.testing.assert_array_less([1, 2], [2, 3])
print("done")

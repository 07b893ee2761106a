import numpy as np

a = np.array([[1.5, 2.25], [3.0, -4.125]])
print(np.array2string(a))
print(np.array2string(a, separator=", "))
print(np.array2string(a, precision=1))
print(np.array2string(np.arange(5), prefix="x = "))
print(np.array_repr(np.arange(3.0)))
print(np.array_str(np.array([0.1, 0.2])))
print(np.array2string(np.array([1, 2, 3]), formatter={"int": lambda v: f"<{v}>"}))
print(repr(np.array([1e-10, 1.0])))
print(np.format_float_positional(3.14159, precision=3))
print(np.format_float_scientific(12345.678, precision=2))

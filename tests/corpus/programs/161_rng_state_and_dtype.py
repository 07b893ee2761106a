import numpy as np

rng = np.random.default_rng(99)
print(rng.random(3, dtype=np.float32).dtype)
print(rng.bit_generator.state["bit_generator"])
rng2 = np.random.default_rng(99)
print(np.round(rng2.random(3, dtype=np.float32), 6))
print(rng.standard_normal(2, dtype=np.float32).dtype)
print(rng.integers(0, 2 ** 40, size=2).dtype)
print(np.random.default_rng(99).integers(-5, 5, size=(2, 3)))

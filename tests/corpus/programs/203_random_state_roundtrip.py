import numpy as np

np.random.seed(10)
state = np.random.get_state()
print(state[0], len(state[1]))
first = np.random.randint(0, 1000, 4)
np.random.set_state(state)
again = np.random.randint(0, 1000, 4)
print(first, again, np.array_equal(first, again))
rng = np.random.default_rng(4)
saved = rng.bit_generator.state
x = rng.random(2)
rng.bit_generator.state = saved
print(np.array_equal(x, rng.random(2)))

import numpy as np

ss = np.random.SeedSequence(1234)
children = ss.spawn(2)
gens = [np.random.default_rng(c) for c in children]
print([g.integers(0, 100, 3).tolist() for g in gens])
bg = np.random.PCG64(5)
g = np.random.Generator(bg)
print(g.integers(0, 1000, 4))
print(np.round(np.random.default_rng(3).standard_exponential(3), 6))
print(np.random.default_rng(11).integers(0, 2, size=(2, 5)))

import numpy as np

rng = np.random.default_rng(17)
x = rng.normal(3.0, 2.0, size=500)
mean = x.sum() / x.size
var = ((x - mean) ** 2).sum() / (x.size - 1)
print(np.round([mean, var], 8), np.round([x.mean(), x.var(ddof=1)], 8))
skew = np.mean(((x - mean) / x.std()) ** 3)
print(np.round(skew, 6))
q1, q3 = np.percentile(x, [25, 75])
print(np.round(q3 - q1, 6), np.sum((x < q1 - 1.5 * (q3 - q1)) | (x > q3 + 1.5 * (q3 - q1))))
z = (x - x.mean()) / x.std()
print(np.round(z[:3], 6), np.count_nonzero(np.abs(z) > 2))

import numpy as np

S = np.array([[1.0, 2.0], [2.0, 4.0]])
try:
    np.linalg.inv(S)
except np.linalg.LinAlgError as e:
    print("LinAlgError", e)
try:
    np.linalg.cholesky(np.array([[1.0, 2.0], [2.0, 1.0]]))
except np.linalg.LinAlgError as e:
    print("LinAlgError", e)
print(np.round(np.linalg.det(S), 6) + 0)

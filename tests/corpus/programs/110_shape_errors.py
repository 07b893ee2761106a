import numpy as np

for thunk in (lambda: np.arange(6).reshape(4, 2),
              lambda: np.zeros((2, 3)) @ np.zeros((2, 3)),
              lambda: np.arange(3)[5],
              lambda: np.concatenate([np.zeros((2, 2)), np.zeros((3, 3))])):
    try:
        thunk()
    except (ValueError, IndexError) as e:
        print(type(e).__name__)
print(np.arange(3)[-1])

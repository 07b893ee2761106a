import numpy as np

a = np.array(7)
print(int(a), float(a), a.item(), complex(np.array(2.0)), np.array([[7]]).item())
try:
    int(np.array([1, 2]))
except TypeError:
    print("TypeError: int of a 2-element array")
print(np.arange(5)[np.int64(2)], [10, 20, 30][np.int32(1)])
print(range(10)[np.array(3)], "%d %.2f" % (np.int8(5), np.float32(1.5)))
print(bool(np.float64(0.0)), np.array(2) ** 10)

import numpy as np

a = np.array([250, 5], dtype=np.uint8)
print(a + np.uint8(10))
print(np.array([127], dtype=np.int8) + np.int8(1))
print(np.array([2 ** 31 - 1], dtype=np.int32) + 1)
print(np.arange(5, dtype=np.int16) * 10000)
print(-np.array([0, 1, 2], dtype=np.uint8))
print(np.uint8(200) // np.uint8(3), np.int8(-7) // np.int8(2), np.int8(-7) % np.int8(2))
print(np.left_shift(1, np.arange(5)), np.right_shift(256, [1, 4]))
print(np.bitwise_and(12, 10), np.bitwise_or(12, 10), np.bitwise_xor(12, 10), np.invert(np.uint8(1)))

import numpy as np

# 8x8 checkerboard of 0/1 built two ways
board = np.zeros((8, 8), dtype=int)
board[1::2, ::2] = 1
board[::2, 1::2] = 1
print(board)
alt = np.indices((8, 8)).sum(axis=0) % 2
print(np.array_equal(board, alt))
print(board.sum(), board.dtype)

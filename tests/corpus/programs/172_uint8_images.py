import numpy as np

img = np.array([[10, 200, 255], [0, 128, 64]], dtype=np.uint8)
print(img.mean(), img.mean().dtype, img.sum(), img.sum().dtype)
brighter = np.clip(img.astype(np.int16) + 100, 0, 255).astype(np.uint8)
print(brighter)
print(img + np.uint8(100))
print(255 - img, (img // 2).dtype)
print(np.round(img / 255.0, 3))
print(img.max(), img.argmax(), np.histogram(img, bins=4, range=(0, 256))[0])

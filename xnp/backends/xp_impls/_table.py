"""The shared table of ``xp`` implementations (filled by the family modules)."""

XP_IMPLS: dict = {}
# primitive -> reason, for primitives an xp backend cannot run
UNSUPPORTED: dict = {}

# primitives whose xp implementation returns a view of its first operand (NumPy's aliasing);
# an eager input that is a read-only view of a jit output is copied before such an op so
# that writes through the view reach the array (see EvalTrace)
VIEW_PRIMITIVES: set = set()

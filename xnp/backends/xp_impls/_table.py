"""The shared table of ``xp`` implementations (filled by the family modules)."""

XP_IMPLS: dict = {}
#: primitive -> ``fn(xp, x, **params)``: a callable of the operands alone (no Python
#: frame: a replay's floating-point warnings name the user's line, and a replay of a view or
#: a reduction costs NumPy's method call) computing the primitive with ``params`` for
#: operands like ``x`` (the recorded call's first array operand: its dtype, shape and
#: strides, which the call's signature fixes), or None there (its implementation runs);
#: filled by the family modules beside their implementations
PARAM_KERNELS: dict = {}
# primitive -> reason, for primitives an xp backend cannot run
UNSUPPORTED: dict = {}

# primitives whose xp implementation returns a view of its first operand (NumPy's aliasing);
# an eager input that is a read-only view of a jit output is copied before such an op so
# that writes through the view reach the array (see EvalTrace)
VIEW_PRIMITIVES: set = set()

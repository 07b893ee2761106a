"""xnp.tracing.sizes: the int64 and memory limits every shape is checked against (the
crash probes in tests/test_crash_probes.py run the risky inputs end to end)."""

import numpy as np
import pytest

import xnp
from xnp import lax
from xnp.tracing import ShapedArray, sizes

# zero-size shapes: NumPy decides by the non-zero dims alone, without allocating
ZERO_SIZE = [(2**60, 0), (2**59, 0), (0, 2**61), (2**31, 2**31, 0), (2**20, 0, 2**40),
             (2**62, 0), (2**63 - 1, 0)]


@pytest.mark.parametrize("shape", ZERO_SIZE)
@pytest.mark.parametrize("dtype", [np.uint8, np.float64, np.complex128])
def test_int64_rule_matches_numpy(shape, dtype):
    try:
        np.empty(shape, dtype)
        numpy_raises = False
    except ValueError:
        numpy_raises = True
    if numpy_raises:
        with pytest.raises(ValueError, match="too big"):
            sizes.check_array_size("zeros", shape, dtype)
        with pytest.raises(ValueError, match="too big"):
            xnp.zeros(shape, dtype)
    else:
        sizes.check_array_size("zeros", shape, dtype)
        assert xnp.jit(lambda: xnp.zeros(shape, dtype))().shape == shape


def test_memory_limit_is_the_machines():
    limit = sizes.machine_memory()
    assert 0 < limit < 2**63
    fits = (limit // 8,)
    sizes.check_array_size("zeros", fits, np.float64)
    over = (limit // 8 + 1,)
    with pytest.raises(MemoryError, match=r"xnp\.zeros: unable to allocate .* float64 "
                                          r"\(from `shape`\)"):
        sizes.check_array_size("zeros", over, np.float64)
    sizes.check_array_size("broadcast_to", over, np.float64, allocates=False)


def test_negative_dimension_names_function_argument_and_dtype():
    with pytest.raises(ValueError, match=r"xnp\.tile: negative .*\(3, -1\) and dtype int32 "
                                         r"\(from `reps`\)"):
        sizes.check_array_size("tile", (3, -1), np.int32, argname="reps")


def test_result_check_runs_in_abstract_eval():
    # every primitive's result avals: the lax name, the shape and the dtype in the message
    huge = ShapedArray((2**25, 2**25), np.float32)
    with pytest.raises(MemoryError, match=r"xnp\.lax\.neg: .*\(33554432, 33554432\) and "
                                          r"dtype float32"):
        lax.neg_p.abstract_eval(huge)
    # a broadcast is a view (NumPy) or fused (XLA): held to int64 only
    out = lax.broadcast_in_dim_p.abstract_eval(
        ShapedArray((), np.float32), shape=huge.shape, broadcast_dimensions=())
    assert out.shape == huge.shape
    with pytest.raises(ValueError, match=r"xnp\.lax\.broadcast_in_dim: .*too big"):
        lax.broadcast_in_dim_p.abstract_eval(
            ShapedArray((), np.float32), shape=(2**40, 2**40), broadcast_dimensions=())


def test_eager_and_jit_raise_the_same_class():
    for fn in (lambda: xnp.zeros((2**40, 2**40)), lambda: xnp.zeros((2**24, 2**24)),
               lambda: xnp.arange(2**62), lambda: xnp.eye(2**24),
               lambda: xnp.tile(xnp.ones(3), 2**50), lambda: xnp.fft.fft(xnp.ones(3), n=2**50)):
        with pytest.raises((ValueError, MemoryError)) as eager:
            fn()
        with pytest.raises((ValueError, MemoryError)) as jitted:
            xnp.jit(fn)()
        assert eager.type is jitted.type
        assert str(eager.value) == str(jitted.value)


@pytest.mark.parametrize("n, text", [(0, "0 B"), (1023, "1023 B"), (1024, "1.00 KiB"),
                                     (8 << 40, "8.00 TiB"), (384 << 30, "384 GiB")])
def test_format_bytes(n, text):
    assert sizes.format_bytes(n) == text


def test_fused_intermediate_bigger_than_memory_is_not_refused_under_jit():
    # XLA fuses (x[:, None] * x[None, :]).sum() into one loop: the product, far bigger
    # than memory as an array, is never allocated, so jit must not refuse it; an output
    # that big is refused after compiling (MemoryError naming the function), and eagerly
    # NumPy's own allocation raises MemoryError
    import xnp
    from xnp.tracing.sizes import machine_memory

    # n * n float64 are 4x the machine's memory: refused clearly, never near the limit
    # (an output just below what the machine can hold would really be allocated)
    n = 2 * int((machine_memory() / 8) ** 0.5) + 1
    side = xnp.asarray(np.ones(n))
    x = xnp.asarray(np.ones(2000))
    outer_sum = xnp.jit(lambda v: (v[:, None] * v[None, :]).sum())
    assert float(outer_sum(x)) == 2000.0 ** 2
    assert outer_sum.lower(side).as_text()  # staged and lowered without a MemoryError
    with pytest.raises(MemoryError, match=r"xnp\.jit: `<lambda>` needs .* more than"):
        xnp.jit(lambda v: v[:, None] * v[None, :])(side)
    with pytest.raises(MemoryError):
        side[:, None] * side[None, :]

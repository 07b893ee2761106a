"""``xnp.lax.threefry2x32`` and the JAX-style key API of ``xnp.random``.

Oracles: Random123's published known-answer vectors (independent of xnp and JAX),
the scalar reference of ``tests/lax/ops_prng.py``, the documented key algorithms
(JAX's partitionable Threefry) written out with that reference, and numbers
observed with JAX 0.10.2 in x64 mode (``split(PRNGKey(0))``, then ``normal`` of the
subkey).
Every path is checked eagerly, under jit and with the eager XLA backend.
"""

import re

import numpy as np
import pytest

import xnp
from tests.lax.ops_prng import threefry_reference, threefry_scalar
from xnp import lax
from xnp import random as xr

U32 = np.uint32

# Random123 kat_vectors, threefry2x32 with 20 rounds: (key, counter, expected)
KAT = [
    ((0x00000000, 0x00000000), (0x00000000, 0x00000000), (0x6B200159, 0x99BA4EFE)),
    ((0xFFFFFFFF, 0xFFFFFFFF), (0xFFFFFFFF, 0xFFFFFFFF), (0x1CB996FC, 0xBB002BE7)),
    ((0x13198A2E, 0x03707344), (0x243F6A88, 0x85A308D3), (0xC4923A9C, 0x483DF7A0)),
]

MODES = ["eager", "jit", "eager_xla"]


def run(mode, fn, *args):
    """``fn(*args)`` eagerly (NumPy backend), under jit, or with the eager XLA backend."""
    if mode == "jit":
        return xnp.jit(fn)(*args)
    if mode == "eager_xla":
        with xnp.config.override(eager_backend="xla"):
            return fn(*args)
    return fn(*args)


def as_np(tree):
    return [np.asarray(t) for t in tree] if isinstance(tree, (tuple, list)) else np.asarray(tree)


# --------------------------------------------------------------------------- threefry


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("key,ctr,expected", KAT)
def test_threefry2x32_known_answers(mode, key, ctr, expected):
    args = [U32(v) for v in key + ctr]
    out = as_np(run(mode, lax.threefry2x32, *args))
    assert [int(o) for o in out] == list(expected)
    assert all(o.dtype == np.uint32 and o.shape == () for o in out)


def test_scalar_reference_matches_known_answers():
    for key, ctr, expected in KAT:
        assert threefry_scalar(*key, *ctr) == expected


@pytest.mark.parametrize("mode", MODES)
def test_threefry2x32_vectorised_and_broadcast(mode):
    rng = np.random.default_rng(1)
    k0, k1 = (rng.integers(0, 2**32, dtype=np.uint64).astype(U32) for _ in range(2))
    x0 = rng.integers(0, 2**32, size=(3, 5), dtype=np.uint64).astype(U32)
    x1 = rng.integers(0, 2**32, size=(1, 5), dtype=np.uint64).astype(U32)
    out = as_np(run(mode, lax.threefry2x32, k0, k1, x0, x1))
    ref = threefry_reference(k0, k1, x0, x1)
    for o, r in zip(out, ref):
        np.testing.assert_array_equal(o, r)


def test_threefry2x32_vmap_matches_loop():
    rng = np.random.default_rng(2)
    keys = rng.integers(0, 2**32, size=(4, 2), dtype=np.uint64).astype(U32)
    ctr = rng.integers(0, 2**32, size=(2, 3), dtype=np.uint64).astype(U32)
    f = xnp.vmap(lambda k: lax.threefry2x32(k[0], k[1], ctr[0], ctr[1]))
    got = as_np(f(keys))
    for i in range(4):
        ref = threefry_reference(keys[i, 0], keys[i, 1], ctr[0], ctr[1])
        np.testing.assert_array_equal(got[0][i], ref[0])
        np.testing.assert_array_equal(got[1][i], ref[1])


def test_threefry2x32_lowers_to_plain_integer_ops():
    text = xnp.jit(lax.threefry2x32).lower(*[np.zeros(3, U32)] * 4).as_text()
    ops = set(re.findall(r"stablehlo\.(\w+)", text))
    assert ops == {"add", "xor", "shift_left", "shift_right_logical", "or", "constant",
                   "broadcast_in_dim"}, ops
    assert "custom_call" not in text


def test_threefry2x32_is_not_differentiable():
    assert lax.threefry2x32_p.differentiable is not True
    text = str(xnp.make_jaxpr(lax.threefry2x32)(*[np.zeros(3, U32)] * 4))
    assert "threefry2x32 a b c d" in text.replace("\n", " ")


# --------------------------------------------------------------------------- keys


@pytest.mark.parametrize("seed,expected", [
    (0, [0, 0]), (42, [0, 42]), (2**40 + 5, [256, 5]), (-1, [2**32 - 1, 2**32 - 1]),
    (2**64 - 1, [2**32 - 1, 2**32 - 1]), (np.int32(-1), [0, 2**32 - 1]),
    (np.uint8(7), [0, 7]),
])
def test_prngkey_words(seed, expected):
    # a Python int >= 2**63 is no jit argument (int64); it works as a static value
    modes = MODES if not (isinstance(seed, int) and seed >= 2**63) else ["eager", "eager_xla"]
    for mode in modes:
        k = run(mode, xr.PRNGKey, seed)
        assert k.dtype == np.uint32 and k.shape == (2,)
        assert np.asarray(k).tolist() == expected
    assert np.asarray(xr.key(seed)).tolist() == expected


@pytest.mark.parametrize("bad,exc", [(1.5, TypeError), (True, TypeError),
                                     (np.zeros(2, np.int64), TypeError), (2**64, OverflowError)])
def test_prngkey_rejects_bad_seeds(bad, exc):
    with pytest.raises(exc, match="xnp.random.PRNGKey"):
        xr.PRNGKey(bad)


def _expected_split(key, n):
    """JAX's partitionable split written with the scalar reference."""
    k0, k1 = (int(v) for v in np.asarray(key))
    return [list(threefry_scalar(k0, k1, i >> 32, i & 0xFFFFFFFF)) for i in range(n)]


@pytest.mark.parametrize("mode", MODES)
def test_split_values(mode):
    key = xr.PRNGKey(0)
    got = as_np(run(mode, lambda k: xr.split(k), key))
    # observed with JAX 0.10.2 (jax.random.split(jax.random.PRNGKey(0)), default settings)
    assert got.tolist() == [[1797259609, 2579123966], [928981903, 3453687069]]
    k = xr.PRNGKey(1234)
    got = as_np(run(mode, lambda k: xr.split(k, 5), k))
    assert got.dtype == np.uint32 and got.tolist() == _expected_split(k, 5)


def test_split_shapes():
    key = xr.PRNGKey(3)
    flat = np.asarray(xr.split(key, 6))
    assert np.asarray(xr.split(key, (2, 3))).tolist() == flat.reshape(2, 3, 2).tolist()
    assert xr.split(key, 0).shape == (0, 2)
    assert xr.split(key, ()).shape == (2,)


@pytest.mark.parametrize("mode", MODES)
def test_fold_in_values(mode):
    key = xr.PRNGKey(7)
    for data in (0, 1, 2**32 - 1):
        got = as_np(run(mode, lambda k: xr.fold_in(k, data), key))
        assert list(got) == list(threefry_scalar(0, 7, 0, data))
    traced = as_np(xnp.jit(xr.fold_in)(key, np.int64(5)))
    assert list(traced) == list(threefry_scalar(0, 7, 0, 5))


@pytest.mark.parametrize("mode", MODES)
def test_bits_algorithms(mode):
    key = xr.PRNGKey(11)
    o0, o1 = threefry_reference(U32(0), U32(11), np.zeros(4, U32), np.arange(4, dtype=U32))
    b64 = as_np(run(mode, lambda k: xr.bits(k, (4,)), key))
    assert b64.dtype == np.uint64
    np.testing.assert_array_equal(b64, (o0.astype(np.uint64) << 32) | o1)
    b32 = as_np(run(mode, lambda k: xr.bits(k, (2, 2), np.uint32), key))
    np.testing.assert_array_equal(b32, (o0 ^ o1).reshape(2, 2))
    b8 = as_np(run(mode, lambda k: xr.random_bits(k, 8, (4,)), key))
    np.testing.assert_array_equal(b8, (o0 ^ o1).astype(np.uint8))


def test_key_data_roundtrip_and_errors():
    keys = xr.split(xr.PRNGKey(0), 3)
    assert xr.key_data(keys) is keys
    assert xr.wrap_key_data(keys) is keys
    with pytest.raises(TypeError, match="key_data"):
        xr.key_data(np.zeros(3, np.float32))


@pytest.mark.parametrize("bad", [np.zeros(3, U32), np.zeros((2, 2), U32),
                                 np.zeros(2, np.int32), [0, 0]])
def test_samplers_reject_bad_keys(bad):
    with pytest.raises(TypeError, match=r"xnp\.random\.split"):
        xr.split(bad)
    with pytest.raises(TypeError, match=r"xnp\.random\.normal"):
        xr.distributions.normal(bad, (2,))


def test_batch_of_keys_error_mentions_vmap():
    with pytest.raises(TypeError, match="vmap"):
        xr.normal(xr.split(xr.PRNGKey(0), 4), (3,))


# --------------------------------------------------------------------------- JAX's numbers


def _split_then_normal(k):
    k, sub = xr.split(k)
    return k, xr.normal(sub, ())


def test_split_then_normal_matches_jax_x64():
    """Split, then a standard normal of the subkey, from ``PRNGKey(0)``: JAX 0.10.2 (x64,
    default settings) printed -1.400884102827668,
    0.44320975123016443, then -0.3808255627057959 twice (jitted)."""
    key = xr.PRNGKey(0)
    jdraw = xnp.jit(_split_then_normal)
    for e in [-1.400884102827668, 0.44320975123016443, -0.3808255627057959]:
        nxt, eager = _split_then_normal(key)
        _, jitted = jdraw(key)
        assert float(jitted) == e  # XLA's erf_inv, as in JAX: bit for bit
        np.testing.assert_allclose(float(eager), e, rtol=1e-14)  # SciPy's erf_inv eagerly
        key = nxt


def test_split_then_normal_matches_jax_x32():
    """The same draws with x64 disabled: JAX printed -2.4424558, -1.2574776, -1.3877681 (float32)."""
    with xnp.config.override(enable_x64=False):
        key = xr.PRNGKey(0)
        jdraw = xnp.jit(_split_then_normal)
        for e in ["-2.4424558", "-1.2574776", "-1.3877681"]:
            key, jitted = jdraw(key)
            assert jitted.dtype == np.float32 and str(np.float32(jitted)) == e


# --------------------------------------------------------------------------- transformations


def test_keys_reproducible_eager_and_jit():
    key = xr.PRNGKey(5)
    f = xnp.jit(lambda k: xr.bits(xr.fold_in(xr.split(k, 3)[1], 9), (7,)))
    a, b = np.asarray(f(key)), np.asarray(f(key))
    c = np.asarray(xr.bits(xr.fold_in(xr.split(key, 3)[1], 9), (7,)))
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(a, c)
    assert f.trace_count == 1


@pytest.mark.parametrize("sampler", [
    lambda k: xr.normal(k, (3,)), lambda k: xr.uniform(k, (2, 2), minval=-1.0, maxval=2.0),
    lambda k: xr.randint(k, (4,), 0, 100), lambda k: xr.permutation(k, 6),
    lambda k: xr.split(k, 2), lambda k: xr.bits(k, (3,), np.uint32),
])
def test_vmap_over_split_keys_matches_loop(sampler):
    keys = xr.split(xr.PRNGKey(8), 5)
    batched = np.asarray(xnp.vmap(sampler)(keys))
    looped = np.stack([np.asarray(sampler(k)) for k in keys])
    np.testing.assert_allclose(batched, looped, rtol=1e-14)
    jitted = np.asarray(xnp.jit(xnp.vmap(sampler))(keys))
    np.testing.assert_allclose(jitted, looped, rtol=1e-14)


def test_keys_inside_scan_match_python_loop():
    def step(key, _):
        key, sub = xr.split(key)
        return key, xr.normal(sub, (2,))

    key0 = xr.PRNGKey(21)
    final, draws = xnp.lax.scan(step, key0, None, length=4)
    key, ref = key0, []
    for _ in range(4):
        key, x = step(key, None)
        ref.append(np.asarray(x))
    np.testing.assert_allclose(np.asarray(draws), np.stack(ref), rtol=1e-14)
    np.testing.assert_array_equal(np.asarray(final), np.asarray(key))
    jfinal, jdraws = xnp.jit(lambda k: xnp.lax.scan(step, k, None, length=4))(key0)
    np.testing.assert_allclose(np.asarray(jdraws), np.stack(ref), rtol=1e-14)
    np.testing.assert_array_equal(np.asarray(jfinal), np.asarray(key))

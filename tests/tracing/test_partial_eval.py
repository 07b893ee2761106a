"""xnp.tracing.partial_eval helpers: argument names from signatures (cached per function)."""

import functools
import gc
import inspect
import weakref

import numpy as np

import xnp
from xnp.tracing import partial_eval as pe


def _uncached_names(fun, args, kwargs):
    """What ``signature_arg_names`` computes, from a fresh ``inspect.signature``."""
    sig = inspect.signature(fun)
    return pe.bound_arg_names(sig, sig.bind(*args, **kwargs))


def test_names_match_a_fresh_signature_on_repeated_calls():
    def f(p, q=1, *rest, k, **extra):
        return p

    for args, kwargs in [((1,), {"k": 2}), ((1, 2, 3, 4), {"k": 2, "z": 5}),
                         (((1, 2),), {"k": 0})]:
        want = _uncached_names(f, args, kwargs)
        assert pe.signature_arg_names(f, args, kwargs) == want
        assert pe.signature_arg_names(f, args, kwargs) == want  # from the cache


def test_unbindable_arguments_give_none():
    def f(a, b):
        return a

    assert pe.signature_arg_names(f, (1,), {}) is None
    assert pe.signature_arg_names(f, (1, 2, 3), {}) is None
    assert pe.signature_arg_names(f, (1, 2), {}) == ["a", "b"]


def test_changed_defaults_or_signature_are_seen():
    def f(a, b):
        return a

    assert pe.signature_arg_names(f, (1,), {}) is None
    f.__defaults__ = (0,)
    assert pe.signature_arg_names(f, (1,), {}) == ["a"]
    f.__signature__ = inspect.Signature(
        [inspect.Parameter("x", inspect.Parameter.POSITIONAL_OR_KEYWORD)])
    assert pe.signature_arg_names(f, (1,), {}) == ["x"]
    del f.__signature__
    assert pe.signature_arg_names(f, (1, 2), {}) == ["a", "b"]


def test_wrapped_partial_and_callable_objects():
    def base(left, right):
        return left

    @functools.wraps(base)
    def wrapper(*a, **k):
        return base(*a, **k)

    class Call:
        def __call__(self, u, v=0):
            return u

    assert pe.signature_arg_names(wrapper, (1, 2), {}) == ["left", "right"]
    assert pe.signature_arg_names(functools.partial(base, 1), (2,), {}) == ["right"]
    assert pe.signature_arg_names(Call(), (1,), {"v": 2}) == ["u", "v"]
    assert pe.signature_arg_names(len, ([],), {}) == _uncached_names(len, ([],), {})


def test_cache_does_not_keep_functions_alive():
    big = np.ones(1000)

    def make():
        def f(x):
            return x + big

        return f

    f = make()
    assert pe.signature_arg_names(f, (1,), {}) == ["x"]
    ref = weakref.ref(f)
    del f
    gc.collect()
    assert ref() is None


def test_jit_pytree_argument_names_in_errors_and_values():
    def step(params, scale):
        w, b = params
        return w * scale + b

    f = xnp.jit(step)
    w, b = np.arange(3.0), np.ones(3)
    for _ in range(3):  # later calls take the cached signature
        np.testing.assert_allclose(np.asarray(f((w, b), 2.0)), w * 2.0 + b)
    try:
        f((w, "not an array"), 2.0)
    except TypeError as e:
        assert "params[1]" in str(e), str(e)
    else:
        raise AssertionError("a string argument must raise TypeError")

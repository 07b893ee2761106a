"""NumPy-surface tests of ``xnp.fft`` against ``numpy.fft`` (eager, jit and ``eval_jaxpr``)
over sampled grids of shapes x dtypes x ``n``/``s`` x ``axis``/``axes`` x ``norm``: padding,
cropping, negative and repeated axes, more than three axes, length-1 axes, and NumPy's
errors (``n`` below 1, empty axes, bad ``norm``, out-of-range axes, complex input to
the real transforms). Also ``fftfreq``/``rfftfreq`` (incl. a traced ``d``) and
``fftshift``/``ifftshift``.
"""

import warnings

import ml_dtypes
import numpy as np
import pytest

import xnp
from tests.helpers import (axes_labels, check_vs_numpy, covering_grid, covering_sample, family,
                           grid, make_array)

DTYPES = [np.dtype(t) for t in (np.bool_, np.int32, np.float16, np.float32, np.float64,
                                np.complex64, np.complex128)]
NORMS = [None, "backward", "ortho", "forward"]
SHAPES_1D = [(), (0,), (1,), (2,), (5,), (8,), (3, 1), (2, 0, 4), (3, 6), (2, 3, 7)]
ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # `s` without `axes`, as NumPy
        yield


# sampled (all with --full-grid): every value of each axis, each transform with each dtype
# family and each n (padding, cropping, 0), each shape with each axis (out of range for
# the 0-d and 1-d ones), then random others; drawn from a seeded pool of 2000 of the
# 25200 cases (each of these labels is in it) to keep collection fast
@pytest.mark.parametrize("case", covering_sample(
    grid(n=2000, fname=ONE_D, shape=SHAPES_1D, dtype=DTYPES, length=[None, 1, 4, 7, 0],
         axis=[-1, 0, 1], norm=NORMS), n=75,
    labels=lambda c: axes_labels(c, "fname", "shape", "dtype", "length", "axis", "norm",
                                 ("fname", "length"), ("shape", "axis")) + [
        ("fname x dtype family", c.fname, family(c.dtype))]))
def test_one_dimensional_transforms_match_numpy(case):
    rng = np.random.default_rng(0)
    x = make_array(rng, case.shape, case.dtype)
    if (case.fname in ("irfft", "hfft") and case.length and x.ndim
            and -x.ndim <= case.axis < x.ndim and x.shape[case.axis] == 0):
        pytest.skip("NumPy reads uninitialised memory here; see test_irfft_of_empty_axis")

    def body(xp, a):
        return getattr(xp.fft, case.fname)(a, n=case.length, axis=case.axis, norm=case.norm)

    # NumPy rounds the 1/n (1/sqrt(n)) scale of float16 input to float16; xnp keeps float32
    f16 = case.dtype == np.float16
    check_vs_numpy(body, x, kind="reduction", rtol=1e-3 if f16 else None,
                   atol=1e-3 if f16 else None)


def _nd_axes(shape, which):
    nd = len(shape)
    return {"none": None, "last": (-1,), "first2": (0, 1)[:nd], "rev": tuple(range(nd))[::-1],
            "repeat": (0, -1, 0) if nd else (), "empty": ()}[which]


def _nd_s(shape, axes, which):
    if which == "none":
        return None
    axes = range(-min(2, len(shape)), 0) if axes is None else axes
    grow = {"pad": 2, "crop": -1, "minus1": None}[which]
    sizes = [shape[ax] if -len(shape) <= ax < len(shape) else 2 for ax in axes]
    return [-1 if grow is None else max(size + grow, 1) for size in sizes]


ND = ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"]
# complex to complex, real to complex, complex to real
ND_KIND = {"fftn": "c2c", "ifftn": "c2c", "fft2": "c2c", "ifft2": "c2c", "rfftn": "r2c",
           "rfft2": "r2c", "irfftn": "c2r", "irfft2": "c2r"}
SHAPES_ND = [(), (4,), (1, 1), (3, 4), (2, 0, 3), (2, 3, 4), (2, 1, 3, 5), (2, 2, 3, 2, 3)]


# sampled (all with --full-grid): every value of each axis, each axes form with each s form,
# and each kind of transform (c2c, r2c, c2r) with each axes form, s form, dtype, shape and
# norm, then random others; drawn from a seeded pool of 2000 of the 24576 cases (each of
# these labels is in it) to keep collection fast
@pytest.mark.parametrize("case", covering_sample(
    grid(n=2000, seed=1, fname=ND, shape=SHAPES_ND,
         dtype=[np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.complex64),
                np.dtype(np.int64)],
         axes=["none", "last", "first2", "rev", "repeat", "empty"],
         s=["none", "pad", "crop", "minus1"], norm=NORMS), n=60, seed=1,
    labels=lambda c: axes_labels(c, "fname", "shape", "dtype", "axes", "s", "norm",
                                 ("axes", "s")) + [
        (f"kind x {k}", ND_KIND[c.fname], v)
        for k, v in axes_labels(c, "axes", "s", "dtype", "shape", "norm")]))
def test_nd_transforms_match_numpy(case):
    rng = np.random.default_rng(1)
    x = make_array(rng, case.shape, case.dtype)
    axes = _nd_axes(case.shape, case.axes)
    if case.fname.endswith("2") and axes is None:
        axes = (-2, -1)
    s = _nd_s(case.shape, axes, case.s)

    def body(xp, a):
        return getattr(xp.fft, case.fname)(a, s=s, axes=axes, norm=case.norm)

    check_vs_numpy(body, x, kind="reduction")


@pytest.mark.parametrize("fname", ["fftn", "ifftn", "rfftn", "irfftn"])
def test_more_than_three_axes_in_one_call(fname):
    x = make_array(np.random.default_rng(2), (2, 3, 2, 4, 3), np.dtype(np.complex128))
    if fname == "rfftn":
        x = x.real.copy()
    check_vs_numpy(lambda xp, a: getattr(xp.fft, fname)(a, axes=(4, 0, 2, 1, 3),
                                                         norm="ortho"), x, kind="reduction")


@pytest.mark.parametrize("fname", ["irfft", "hfft"])
def test_irfft_of_empty_axis(fname):
    """An empty input axis with an explicit ``n`` is all zero padding, so the result is
    zeros (NumPy 2.4 returns uninitialised memory here; the zero-padded input gives
    NumPy's answer)."""
    x = np.zeros((2, 0), np.complex64)
    expected = getattr(np.fft, fname)(np.zeros((2, 3), np.complex64), n=5)
    for f in (getattr(xnp.fft, fname), xnp.jit(getattr(xnp.fft, fname), static_argnums=1)):
        out = f(x, 5)
        assert np.asarray(out).dtype == expected.dtype
        np.testing.assert_array_equal(np.asarray(out), expected)


def test_round_trips_recover_the_signal():
    x = make_array(np.random.default_rng(3), (3, 7), np.dtype(np.float64))
    f = xnp.jit(lambda a: (xnp.fft.irfft(xnp.fft.rfft(a), n=7), xnp.fft.ifft2(xnp.fft.fft2(a)),
                           xnp.fft.hfft(xnp.fft.ihfft(a), n=7)))
    for out in f(x):
        np.testing.assert_allclose(np.asarray(out), x, atol=1e-12)


@pytest.mark.parametrize("fname,kwargs,exc", [
    ("fft", dict(norm="bad"), ValueError),
    ("ifftn", dict(norm="unitary"), ValueError),
    ("fft", dict(n=0), ValueError),
    ("rfft", dict(n=-3), ValueError),
    ("irfft", dict(axis=2), IndexError),
    ("fft2", dict(s=(2, 3, 4), axes=(0, 1)), ValueError),
    ("fftn", dict(axes=(0, 5)), IndexError),
    ("fft", dict(n=2.0), TypeError),
])
def test_errors_match_numpy(fname, kwargs, exc):
    x = np.ones((3, 4))
    with pytest.raises(exc):
        getattr(np.fft, fname)(x, **kwargs)
    check_vs_numpy(lambda xp, a: getattr(xp.fft, fname)(a, **kwargs), x)


@pytest.mark.parametrize("fname,x,exc", [
    ("fft", np.zeros(0), ValueError),
    ("irfft", np.zeros(1, np.complex64), ValueError),
    ("rfft", np.ones(4, np.complex128), TypeError),
    ("ihfft", np.ones(4, np.complex64), TypeError),
    ("rfftn", np.ones((2, 3), np.complex64), TypeError),
    ("fft", np.float64(2.0), IndexError),
    ("fft2", np.ones(3), IndexError),
    ("rfftn", np.ones((2, 0)), ValueError),
])
def test_edge_inputs_raise_like_numpy(fname, x, exc):
    with pytest.raises(exc):
        getattr(np.fft, fname)(x)
    check_vs_numpy(lambda xp, a: getattr(xp.fft, fname)(a), np.asarray(x))


def test_out_is_not_supported():
    with pytest.raises(NotImplementedError, match=r"xnp\.fft\.fft: `out=.*` is not supported"):
        xnp.fft.fft(xnp.ones(4), out=xnp.zeros(4, xnp.complex128))


def test_traced_length_raises_concretization_error():
    with pytest.raises(xnp.errors.ConcretizationTypeError, match=r"xnp\.fft\.fft.*'n'"):
        xnp.jit(lambda a, n: xnp.fft.fft(a, n=n))(xnp.ones(4), 3)


def test_s_without_axes_warns_like_numpy():
    x = np.ones((2, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        with pytest.raises(DeprecationWarning):
            np.fft.fftn(x, s=(2, 2))
        with pytest.raises(DeprecationWarning, match="axes"):
            xnp.fft.fftn(x, s=(2, 2))


# sampled (all with --full-grid): each function with each length and each spacing (a
# Python float, a float32 scalar, a Python int), each length with each spacing
@pytest.mark.parametrize("case", covering_grid(
    fname=["fftfreq", "rfftfreq"], length=[1, 2, 5, 8], d=[1.0, 0.1, np.float32(2.0), 3],
    n=16, labels=lambda c: axes_labels(c, ("fname", "length"), ("fname", "d"), ("length", "d"))))
def test_sample_frequencies_match_numpy(case):
    check_vs_numpy(lambda xp: getattr(xp.fft, case.fname)(case.length, case.d))


@pytest.mark.parametrize("fname", ["fftfreq", "rfftfreq"])
def test_sample_frequencies_with_traced_spacing(fname):
    d = np.float64(0.25)
    out = xnp.jit(lambda dd: getattr(xnp.fft, fname)(6, dd))(xnp.asarray(d))
    np.testing.assert_allclose(np.asarray(out), getattr(np.fft, fname)(6, d), rtol=1e-15)


# sampled (all with --full-grid): every value of each axis, each function with each dtype
# and each dtype with x64 on and off, then random others
@pytest.mark.parametrize("case", covering_grid(
    fname=["fftfreq", "rfftfreq"], length=[1, 2, 5, 8, 99], d=[1.0, 0.3, 4.7],
    dtype=[np.float16, np.float32, np.float64, xnp.float32, ml_dtypes.bfloat16],
    x64=[True, False], n=20, seed=11,
    labels=lambda c: axes_labels(c, "fname", "length", "d", "dtype", "x64", ("fname", "dtype"),
                                 ("dtype", "x64"))))
def test_sample_frequencies_with_dtype(case):
    # the Array API's dtype= keyword: NumPy's float64 result rounded once to `dtype`
    want = getattr(np.fft, case.fname)(case.length, case.d).astype(np.dtype(case.dtype))
    f = getattr(xnp.fft, case.fname)
    with xnp.config.override(enable_x64=case.x64):
        for got in (f(case.length, case.d, dtype=case.dtype),
                    f(case.length, d=case.d, device="cpu", dtype=case.dtype),
                    xnp.jit(lambda: f(case.length, case.d, dtype=case.dtype))()):
            assert got.dtype == want.dtype and got.shape == want.shape
            if case.x64 or want.dtype != np.float64:
                np.testing.assert_array_equal(np.asarray(got), want)
            else:  # computed in float64 even with x64 off (a 64-bit dtype is honoured)
                np.testing.assert_allclose(np.asarray(got), want, rtol=1e-15)


@pytest.mark.parametrize("fname", ["fftfreq", "rfftfreq"])
def test_sample_frequency_signature_and_dtype_errors(fname):
    import inspect  # noqa: PLC0415

    params = inspect.signature(getattr(xnp.fft, fname)).parameters
    assert list(params) == ["n", "d", "device", "dtype"]
    assert params["dtype"].kind is inspect.Parameter.KEYWORD_ONLY
    with pytest.raises(ValueError, match=f"xnp.fft.{fname}: dtype must be a real floating"):
        getattr(xnp.fft, fname)(4, dtype=np.int32)
    with pytest.raises(ValueError, match="real floating"):
        getattr(xnp.fft, fname)(4, dtype=np.complex64)


@pytest.mark.parametrize("fname,n,exc", [("fftfreq", 0, ZeroDivisionError),
                                         ("rfftfreq", 3.0, ValueError),
                                         ("fftfreq", np.float64(2), ValueError)])
def test_sample_frequency_errors(fname, n, exc):
    with pytest.raises(exc):
        getattr(np.fft, fname)(n)
    with pytest.raises(exc):
        getattr(xnp.fft, fname)(n)


# sampled (all with --full-grid): each shape with each axes form (out of range for the 0-d
# ones), each function with each shape, axes form and dtype, then random others
@pytest.mark.parametrize("case", covering_grid(
    fname=["fftshift", "ifftshift"], shape=[(), (0,), (1,), (5,), (4, 3), (2, 3, 5)],
    axes=[None, 0, -1, (0, -1), ()], dtype=[np.dtype(np.int64), np.dtype(np.complex64)],
    n=40, labels=lambda c: axes_labels(c, ("shape", "axes"), ("fname", "shape"), ("fname", "axes"),
                                       ("fname", "dtype"), ("shape", "dtype"))))
def test_shifts_match_numpy(case):
    x = make_array(np.random.default_rng(4), case.shape, case.dtype)
    check_vs_numpy(lambda xp, a: getattr(xp.fft, case.fname)(a, axes=case.axes), x)

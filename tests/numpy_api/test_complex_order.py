"""``max``/``min``/``argmax``/``argmin``/``ptp`` and their nan-forms on complex input:
NumPy's lexicographic order (real parts, then imaginary parts), NaN in either part
propagating (the first such element) or ignored by the nan-forms (a slice of NaNs only
gives its first element, and ``nanargmax`` raises). Oracle: NumPy on the same values,
eagerly and under jit, with NumPy's warnings; derivatives against central differences."""

import warnings

import numpy as np
import pytest

import xnp
from tests.helpers import central_difference, check_vs_numpy, covering_grid

FUNCS = ["max", "min", "amax", "argmax", "argmin", "nanmax", "nanmin", "nanargmax",
         "nanargmin", "ptp"]


def _samples(dtype):
    rng = np.random.default_rng(5)
    # small integer parts: many ties of the real part, decided by the imaginary part
    x = (rng.integers(-2, 3, (4, 5)) + 1j * rng.integers(-2, 3, (4, 5))).astype(dtype)
    nans = x.copy()
    nans[1, 3] = complex(np.nan, 1.0)
    nans[2, 0] = complex(1.0, np.nan)
    nans[2, 4] = complex(np.nan, 0.0)
    nans[3] = complex(np.nan, 2.0)  # a slice of NaNs only
    nans[3, 2] = complex(5.0, np.nan)
    infs = x.copy()
    infs[0, 1] = complex(np.inf, -1.0)
    infs[1, 1] = complex(np.inf, 3.0)
    infs[2, 2] = complex(-np.inf, np.inf)
    infs[3, 3] = complex(-2.0, -np.inf)
    return {"ties": x, "nans": nans, "infs": infs}


def _call(m, name, v, axis, keepdims):
    kw = {} if name.startswith(("arg", "nanarg")) and not keepdims else {"keepdims": keepdims}
    return getattr(m, name)(v, axis=axis, **kw)


def _outcome(fn):
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        try:
            out = fn()
        except ValueError as e:
            out = e
    return out, [(w.category, str(w.message)) for w in got]


# sampled (all with --full-grid): every function with one of the two dtypes, each dtype
# with about half of the functions
@pytest.mark.parametrize("name,dtype", [
    (c.name, c.dtype) for c in covering_grid(name=FUNCS, dtype=[np.complex128, np.complex64],
                                             n=10, seed=3)])
def test_complex_order_matches_numpy(name, dtype):
    for label, x in _samples(dtype).items():
        for axis in (None, 0, 1, -1) + (((0, 1),) if not name.startswith(("arg", "nanarg"))
                                         else ()):
            for keepdims in (False, True):
                want, want_warnings = _outcome(lambda: _call(np, name, x, axis, keepdims))
                got, got_warnings = _outcome(lambda: _call(xnp, name, xnp.asarray(x), axis,
                                                           keepdims))
                msg = f"{name} {label} axis={axis} keepdims={keepdims}"
                if isinstance(want, ValueError):
                    assert isinstance(got, ValueError), msg
                    continue
                assert got_warnings == want_warnings, msg
                got = np.asarray(got)
                assert got.dtype == np.asarray(want).dtype, msg
                np.testing.assert_array_equal(got, want, err_msg=msg)
                if not keepdims and axis in (None, 1):  # (the other forms: reshapes)
                    jitted = xnp.jit(lambda v: _call(xnp, name, v, axis, keepdims))(x)
                    np.testing.assert_array_equal(np.asarray(jitted), want,
                                                  err_msg="jit " + msg)


def test_vmap_and_grad_through_the_selected_element():
    x = _samples(np.complex128)["ties"]
    got = xnp.vmap(lambda r: xnp.max(r))(xnp.asarray(x))
    np.testing.assert_array_equal(np.asarray(got), np.max(x, axis=1))
    got = xnp.vmap(xnp.argmin)(xnp.asarray(x))
    np.testing.assert_array_equal(np.asarray(got), np.argmin(x, axis=1))
    c = np.array([0.3 + 1j, 0.3 - 2j, -1.0 + 0.5j, 0.1 + 0.0j])  # a tie of real parts

    def loss(m, a):
        z = c * a
        return m.real(m.max(z) * (2.0 - 1.0j)) + m.imag(m.min(z))

    a = np.array([1.0, 1.1, 2.0, 0.5])  # away from ties: central differences
    g = xnp.grad(lambda v: loss(xnp, v))(xnp.asarray(a))
    want = np.array([central_difference(lambda v: loss(np, np.asarray(v)), a, e)
                     for e in np.eye(4)])
    np.testing.assert_allclose(np.asarray(g), want, rtol=1e-6, atol=1e-8)
    # at a tie of real parts (a[0] = a[1]) the imaginary parts decide: the derivative is
    # the selected element's alone, real(c[0] * (2 - 1j)) = 1.6
    g = xnp.grad(lambda v: loss(xnp, v))(xnp.asarray(np.array([1.0, 1.0, 2.0, 0.5])))
    np.testing.assert_allclose(np.asarray(g), [1.6, 0.0, 0.5, 0.0], rtol=1e-14)


_Z_VALUES = np.array([1 + 1j, 1 - 1j, 0j, complex(-0.0, 0.0), 2 + 0j, complex(np.nan, 0.0),
                      complex(0.0, np.nan), -1 + 5j])


@pytest.mark.parametrize("fname", ["max", "min"])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=str)
@pytest.mark.parametrize("initial", [1 + 1j, -10 + 0j, 0.5, complex(np.nan, 1.0), 3])
def test_initial_and_where_of_complex_extrema_are_numpys(fname, dtype, initial):
    """NumPy's loop from ``initial`` in lexicographic order: ties keep the running value,
    a NaN propagates; masked-out elements do not take part (their slices give
    ``initial``); shapes with empty axes and 0-d inputs too."""
    rng = np.random.default_rng(7)
    for shape, axis in (((3, 4), None), ((3, 4), 0), ((3, 4), -1), ((2, 3, 2), (0, 2)),
                        ((5,), 0), ((), None), ((2, 0, 3), 1)):
        x = _Z_VALUES[rng.integers(0, len(_Z_VALUES), shape)].astype(dtype)
        where = rng.random(shape) < 0.5
        # (under jit for one initial: a compilation per case; eagerly for all)
        jit = initial == 1 + 1j
        for keep in (False, True):
            check_vs_numpy(lambda xp, a: getattr(xp, fname)(
                a, axis=axis, initial=initial, keepdims=keep), x, jit=jit, jaxpr=False)
            check_vs_numpy(lambda xp, a, w: getattr(xp, fname)(
                a, axis=axis, initial=initial, keepdims=keep, where=w), x, where, jit=jit,
                jaxpr=False)

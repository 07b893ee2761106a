"""NumPy's ``ComplexWarning`` when a ufunc's ``dtype=`` or ``out=`` casts complex values to a
real or integer dtype (``casting='unsafe'``): once per complex operand as given, once for a
complex result cast into ``out``, none for bool, none when the call raises."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import xnp

_Z = np.array([1 + 2j, 3 - 1j])

_CASES = {
    "add out real": lambda m, z: m.add(z, z, out=m.zeros(2), casting="unsafe"),
    "add dtype real": lambda m, z: m.add(z, z, dtype=float, casting="unsafe"),
    "add real scalar dtype": lambda m, z: m.add(z, 1.0, dtype=float, casting="unsafe"),
    "add scalar first": lambda m, z: m.add(1.0, z, dtype=float, casting="unsafe"),
    "add complex list": lambda m, z: m.add([1j], 2, dtype=float, casting="unsafe"),
    "add complex scalar float32": lambda m, z: m.add(z, 1j, dtype=np.float32,
                                                     casting="unsafe"),
    "negative out int": lambda m, z: m.negative(z, out=m.zeros(2, int), casting="unsafe"),
    "add out bool": lambda m, z: m.add(z, z, out=m.zeros(2, bool), casting="unsafe"),
    "sqrt dtype real": lambda m, z: m.sqrt(z, dtype=float, casting="unsafe"),
    "maximum out real": lambda m, z: m.maximum(z, z, out=m.zeros(2), casting="unsafe"),
    "add where out real": lambda m, z: m.add(z, z, out=m.zeros(2), casting="unsafe",
                                             where=m.asarray([True, False])),
    "add out wrong shape": lambda m, z: m.add(z, z, out=m.zeros(3), casting="unsafe"),
    "add same_kind refused": lambda m, z: m.add(z, z, out=m.zeros(2)),
}


def _run(mod, name):
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        try:
            value = np.asarray(_CASES[name](mod, mod.asarray(_Z)))
        except (TypeError, ValueError) as e:
            value = type(e)
    return value, [(w.category, str(w.message), w.filename) for w in got]


@pytest.mark.parametrize("name", sorted(_CASES))
def test_complex_cast_warnings_match_numpy(name):
    want, want_warnings = _run(np, name)
    for _ in range(2):  # the first call, then a replay
        got, got_warnings = _run(xnp, name)
        if isinstance(want, type):  # NumPy's UFuncTypeError is a TypeError
            base = TypeError if issubclass(want, TypeError) else want
            assert isinstance(got, type) and issubclass(got, base), (got, want)
        else:
            np.testing.assert_array_equal(got, want)
        assert [w[:2] for w in got_warnings] == [w[:2] for w in want_warnings]
        assert all(f == __file__ for _, _, f in got_warnings), got_warnings


def test_complex_cast_warns_when_traced():
    f = xnp.jit(lambda z: xnp.add(z, z, dtype=float, casting="unsafe"))
    with pytest.warns(np.exceptions.ComplexWarning):
        got = f(xnp.asarray(_Z))
    with warnings.catch_warnings(record=True) as again:
        warnings.simplefilter("always")
        second = f(xnp.asarray(_Z))
    assert again == []  # a cached call: the warning was the trace's
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        want = np.add(_Z, _Z, dtype=float, casting="unsafe")
    np.testing.assert_array_equal(np.asarray(got), want)
    np.testing.assert_array_equal(np.asarray(second), want)

"""Calls NumPy has no ufunc loop for (``numpy._core._exceptions._UFuncNoLoopError`` /
``UFuncTypeError`` and the plain ``TypeError`` of a failed safe cast): xnp raises a
``TypeError`` too, eagerly and under jit, whose message names the function and the full
dtype names of the inputs, the same message on both paths."""

import numpy as np
import pytest

import xnp

CASES = [
    ("bitwise_and", (1.5, 2), ("float64", "int64")),
    ("bitwise_or", (np.array([1.5]), np.array([2], np.int32)), ("float64", "int32")),
    ("bitwise_xor", (np.array([1], np.uint8), np.array([1j], np.complex64)),
     ("uint8", "complex64")),
    ("left_shift", (np.array([1.0], np.float32), 2), ("float32", "int64")),
    ("gcd", (np.array([1.5]), 2), ("float64", "int64")),
    ("lcm", (np.array([3], np.int16), np.array([2.0], np.float16)), ("int16", "float16")),
    ("arctan2", (np.array([1j]), 1.0), ("complex128", "float64")),
    ("remainder", (np.array([1 + 1j]), np.float32(2)), ("complex128", "float32")),
    ("floor_divide", (np.array([1 + 1j], np.complex64), 2), ("complex64", "int64")),
    ("logaddexp", (np.array([1 + 1j]), 1), ("complex128", "int64")),
    ("hypot", (np.array([1j], np.complex64), np.array([1.0])), ("complex64", "float64")),
    ("invert", (np.array([1.5]),), ("float64",)),
    ("floor", (np.array([1 + 1j]),), ("complex128",)),
]


def _xnp_args(args):
    return [xnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]


@pytest.mark.parametrize("name,args,dtypes", CASES, ids=[c[0] for c in CASES])
def test_no_loop_raises_type_error_naming_function_and_dtypes(name, args, dtypes):
    with pytest.raises(TypeError):  # the oracle: NumPy has no loop for these inputs
        getattr(np, name)(*args)
    messages = []
    for f in (getattr(xnp, name), xnp.jit(getattr(xnp, name))):
        with pytest.raises(TypeError) as info:
            f(*_xnp_args(args))
        messages.append(str(info.value))
    assert messages[0] == messages[1]  # eagerly and under jit alike
    msg = messages[0]
    assert msg.startswith(f"xnp.{name}: "), msg
    if len(dtypes) == 2:
        assert f"({dtypes[0]}, {dtypes[1]})" in msg, msg
    else:
        assert dtypes[0] in msg, msg


@pytest.mark.parametrize("name,args", [("add", (np.array(["a"]), 1)),
                                       ("maximum", (np.array(["a"]), np.array(["b"])))])
def test_string_operands_raise_numpys_no_loop_error(name, args):
    # eagerly a string array is NumPy's (xnp.host_dispatch): NumPy's own error, which names
    # the ufunc and the dtypes; a jitted function cannot take one (XLA has no string type)
    with pytest.raises(TypeError) as want:
        getattr(np, name)(*args)
    with pytest.raises(TypeError) as got:
        getattr(xnp, name)(*args)
    assert type(got.value) is type(want.value) and str(got.value) == str(want.value)
    assert "<U1" in str(got.value) and name in str(got.value)
    with pytest.raises(TypeError) as traced:
        xnp.jit(getattr(xnp, name))(*args)
    assert name in str(traced.value) and "<U1" in str(traced.value)


_CAST_UFUNCS = ["add", "multiply", "power", "arctan2", "ldexp", "equal", "less", "logical_and",
                "bitwise_and", "sin", "square", "negative"]
_CAST_OPERANDS = [np.array([1.0, 2.0]), np.array([1.5], np.float32), np.array([3], np.int8),
                  np.array([3], np.uint8), np.array([1, 2]), np.array([True, False]),
                  np.array([1 + 2j]), 2, 2.5, True, 1j]


def _outcome(fn):
    """("ok", dtype, values) or ("TypeError", message)."""
    try:
        with np.errstate(all="ignore"):
            r = np.asarray(fn())
    except TypeError as e:  # NumPy raises UFuncTypeError, a TypeError
        return ("TypeError", str(e))
    return ("ok", r.dtype, r.tolist())


@pytest.mark.parametrize("casting", ["no", "equiv"])
@pytest.mark.parametrize("name", _CAST_UFUNCS)
def test_casting_no_and_equiv_refuse_the_inputs_numpys_loop_casts(name, casting):
    # without dtype= the inputs must already be in the loop's dtypes (NumPy checks a Python
    # bool as a bool array, a Python int/float/complex only under 'equiv')
    npu = getattr(np, name)
    pairs = ([(a,) for a in _CAST_OPERANDS if isinstance(a, np.ndarray)] if npu.nin == 1 else
             [(a, b) for a in _CAST_OPERANDS[:7] for b in _CAST_OPERANDS])
    for args in pairs:
        want = _outcome(lambda: npu(*args, casting=casting))
        if want[0] == "TypeError" and "Cannot cast" not in want[1] and "cannot cast" not in want[1]:
            continue  # no loop at all: the cases above
        f = getattr(xnp, name)
        eager = _outcome(lambda: f(*_xnp_args(args), casting=casting))
        jitted = _outcome(lambda: xnp.jit(lambda *a: f(*a, *args[len(a):], casting=casting))(
            *_xnp_args(args[:1])))
        repro = f"np.{name}{tuple(args)}, casting={casting!r}"
        assert eager[0] == jitted[0] == want[0], (repro, want, eager, jitted)
        if want[0] == "ok":
            assert eager[1] == jitted[1] == want[1], repro
            np.testing.assert_allclose(np.asarray(eager[2]), np.asarray(want[2]), rtol=1e-6)
            continue
        assert eager[1] == jitted[1], repro  # the same message eagerly and under jit
        assert eager[1].startswith(f"xnp.{name}: cannot cast "), (repro, eager[1])
        assert f"with casting rule {casting!r}" in eager[1] or "under the casting rule" in eager[1]


@pytest.mark.parametrize("casting", ["no", "equiv"])
def test_casting_no_with_dtype_or_out_of_another_dtype(casting):
    a = np.array([1.0, 2.0])
    calls = [lambda m, x: m.add(x, x, dtype=np.float32, casting=casting),
             lambda m, x: m.add(x, x, out=m.zeros(2, np.float32), casting=casting)]
    for call in calls:
        with pytest.raises(TypeError):
            call(np, a)
        for fn in (lambda x: call(xnp, x), xnp.jit(lambda x: call(xnp, x))):
            with pytest.raises(TypeError, match=r"^xnp\.add: cannot cast .*float64.* float32"):
                fn(xnp.asarray(a))
    got = xnp.add(xnp.asarray(a), xnp.asarray(a), dtype=np.float64, casting=casting)
    assert got.dtype == np.float64 and got.tolist() == [2.0, 4.0]


_REAL_ONLY = ["hypot", "arctan2", "floor_divide", "remainder", "fmod", "copysign",
              "nextafter", "heaviside", "logaddexp", "logaddexp2", "divmod", "bitwise_and",
              "left_shift", "gcd"]


@pytest.mark.parametrize("first", [True, False], ids=["array first", "float first"])
@pytest.mark.parametrize("name", _REAL_ONLY)
def test_no_loop_raises_before_a_python_float_is_converted(name, first):
    """A complex64 (float16) array beside a Python float beyond its range: NumPy finds no
    loop and raises TypeError without converting the float (no "overflow encountered in
    cast" warning, no FloatingPointError under errstate 'raise')."""
    import warnings

    for a, v in ((np.array([1 + 1j], np.complex64), 1e300),
                 (np.array([1.5], np.float16), 1e300 if name in ("bitwise_and", "left_shift",
                                                                 "gcd") else None)):
        if v is None:
            continue
        args = (a, v) if first else (v, a)
        with pytest.raises(TypeError):  # the oracle: NumPy has no loop
            getattr(np, name)(*args)
        for errstate in ("warn", "raise"):
            with np.errstate(all=errstate), warnings.catch_warnings():
                warnings.simplefilter("error")
                with pytest.raises(TypeError):
                    getattr(xnp, name)(*_xnp_args(args))

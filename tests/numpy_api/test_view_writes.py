"""Views made by flip/rot90, the split family, atleast_*d, and NumPy's read-only views
(broadcast_to, diagonal, diag, linalg.diagonal, the imaginary part of a real array): writes through a view reach its base,
and writes into a read-only view raise, eagerly and under jit/vmap/grad alike.
Oracle: the same code run on NumPy (finite differences for the derivatives)."""

import warnings

import numpy as np
import pytest

import xnp
from tests.helpers import central_difference

VIEWS = {
    "flip": lambda m, a: m.flip(a),
    "flip_axis1": lambda m, a: m.flip(a, 1),
    "fliplr": lambda m, a: m.fliplr(a),
    "flipud": lambda m, a: m.flipud(a),
    "rot90": lambda m, a: m.rot90(a),
    "rot90_k3": lambda m, a: m.rot90(a, 3),
    "flip_of_transpose": lambda m, a: m.flip(a.T, 0),
    "split": lambda m, a: m.split(a, 3, axis=1)[1],
    "array_split": lambda m, a: m.array_split(a, 2, axis=1)[1],
    "hsplit": lambda m, a: m.hsplit(a, [1])[1],
    "vsplit": lambda m, a: m.vsplit(a, 2)[1],
    "atleast_3d": lambda m, a: m.atleast_3d(a),
    "atleast_2d_of_row": lambda m, a: m.atleast_2d(a[1]),
    "atleast_1d_of_element": lambda m, a: m.atleast_1d(a[1, 2]),
}

X = np.arange(6.0).reshape(2, 3) / 4.0


def _write_through(m, make, x):
    y = x * 1.0
    v = make(m, y)
    v[(0,) * v.ndim] = 10.0 * v[(-1,) * v.ndim]
    return y


TRANSFORMS = {
    "eager": lambda f: f,
    "jit": xnp.jit,
    "vmap": lambda f: (lambda a: xnp.vmap(f)(a[None])[0]),
}


@pytest.mark.parametrize("how", list(TRANSFORMS))
@pytest.mark.parametrize("name", list(VIEWS))
def test_write_through_view_reaches_base(name, how):
    make = VIEWS[name]
    expected = _write_through(np, make, X)
    got = TRANSFORMS[how](lambda a: _write_through(xnp, make, a))(xnp.asarray(X))
    np.testing.assert_array_equal(np.asarray(got), expected)


@pytest.mark.parametrize("name", ["flip", "rot90", "split", "atleast_3d"])
def test_grad_through_view_writes(name):
    make = VIEWS[name]

    def f(a):
        return (_write_through(xnp, make, a) ** 2).sum()

    def f_np(a):
        return float((_write_through(np, make, a) ** 2).sum())

    g = xnp.grad(f)(xnp.asarray(X))
    fd = np.array([central_difference(lambda a: f_np(np.asarray(a)), X, e.reshape(X.shape))
                   for e in np.eye(X.size)]).reshape(X.shape)
    np.testing.assert_allclose(np.asarray(g), fd, rtol=1e-6, atol=1e-8)


def test_flip_is_still_one_rev_under_jit():
    text = str(xnp.make_jaxpr(lambda a: xnp.flip(a, 0))(X))
    assert "rev[dimensions=(0,)]" in text and text.count(" = ") == 1


READ_ONLY = {
    "broadcast_to": lambda m, a: m.broadcast_to(a, (4, 2, 3)),
    "broadcast_to_same_shape": lambda m, a: m.broadcast_to(a, a.shape),
    "diagonal": lambda m, a: m.diagonal(a),
    "diagonal_offset_axes": lambda m, a: m.diagonal(a[None] * 1.0, 1, 2, 1),
    "diag": lambda m, a: m.diag(a, -1),
    "linalg_diagonal": lambda m, a: m.linalg.diagonal(a, offset=1),
}


@pytest.mark.parametrize("how", ["eager", "jit", "vmap", "grad"])
@pytest.mark.parametrize("name", list(READ_ONLY))
def test_read_only_views_refuse_writes(name, how):
    make = READ_ONLY[name]
    view = make(np, X.copy())
    with pytest.raises(ValueError, match="read-only"):
        view[(0,) * view.ndim] = 1.0

    def f(a):
        v = make(xnp, a * 1.0)
        v[(0,) * v.ndim] = 1.0
        return a.sum()

    run = {"eager": f, "jit": xnp.jit(f), "vmap": lambda a: xnp.vmap(f)(a[None]),
           "grad": xnp.grad(f)}[how]
    with pytest.raises(ValueError, match="read-only"):
        run(xnp.asarray(X))


@pytest.mark.parametrize("how", list(TRANSFORMS))
@pytest.mark.parametrize("name", list(READ_ONLY))
def test_read_only_views_see_later_base_writes(name, how):
    make = READ_ONLY[name]

    def f(m, a):
        y = a * 1.0
        v = make(m, y)
        y[...] = -y
        return v * 1.0

    expected = f(np, X)
    got = TRANSFORMS[how](lambda a: f(xnp, a))(xnp.asarray(X))
    np.testing.assert_array_equal(np.asarray(got), expected)


def test_broadcast_arrays_eager_views_match_numpy():
    a_np, b_np = np.arange(3.0), np.ones((2, 3))
    a, b = xnp.asarray(a_np.copy()), xnp.asarray(b_np)
    xs_np = np.broadcast_arrays(a_np, b_np)
    xs = xnp.broadcast_arrays(a, b)
    for got, want in zip(xs, xs_np):
        np.testing.assert_array_equal(np.asarray(got), want)
    with warnings.catch_warnings(record=True) as w_np:
        warnings.simplefilter("always")
        xs_np[0][0, 0] = 7.0  # NumPy warns and writes the shared element
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        xs[0][0, 0] = 7.0
    assert [type(x.message) for x in w] == [type(x.message) for x in w_np]
    np.testing.assert_array_equal(np.asarray(a), a_np)


def test_broadcast_arrays_under_jit():
    def f(a, b):
        x, y = xnp.broadcast_arrays(a, b)
        return x + y

    np.testing.assert_array_equal(np.asarray(xnp.jit(f)(np.arange(3.0), np.ones((2, 3)))),
                                  np.arange(3.0) + np.ones((2, 3)))

    def g(a, b):
        x, _ = xnp.broadcast_arrays(a, b)
        x[0, 0] = 1.0
        return x

    with pytest.raises(ValueError, match="broadcast_arrays"):
        xnp.jit(g)(np.arange(3.0), np.ones((2, 3)))


@pytest.mark.parametrize("dt", ["float64", "float32", "int8", "bool"])
def test_imag_of_a_real_array_is_read_only_zeros(dt):
    x_np = np.arange(4).astype(dt)
    x = xnp.asarray(x_np)
    for want, got in [(x_np.imag, x.imag), (np.imag(x_np), xnp.imag(x))]:
        assert got.dtype == want.dtype and got.tolist() == want.tolist()
        assert got.flags.writeable is want.flags.writeable is False
        assert xnp.shares_memory(got, x) is np.shares_memory(want, x_np) is False
        with pytest.raises(ValueError, match="read-only"):
            got[0] = 1
    jitted = xnp.jit(lambda a: (a.imag, xnp.imag(a)))(x)
    for got in jitted:
        assert got.dtype == x_np.imag.dtype and got.tolist() == x_np.imag.tolist()

    def write(a):
        part = a.imag
        part[0] = 1
        return part

    with pytest.raises(ValueError, match="read-only"):
        xnp.jit(write)(x)
    complex_part = xnp.asarray(x_np + 2j).imag  # a complex array's part stays writable
    assert complex_part.flags.writeable is (x_np + 2j).imag.flags.writeable is True


_IMAG_WRITES = {
    "setitem_constant": lambda a: a.imag.__setitem__(0, 1.0),
    "setitem_traced": lambda a: a.imag.__setitem__(0, a[1]),
    "function_slice": lambda a: xnp.imag(a).__setitem__(slice(1, None), a[:-1]),
    "in_place_constant": lambda a: a.imag.__iadd__(1.0),
    "in_place_traced": lambda a: a.imag.__imul__(a),
}


@pytest.mark.parametrize("write", list(_IMAG_WRITES))
@pytest.mark.parametrize("transform", ["eager", "jit", "vmap", "grad"])
def test_imag_of_a_real_array_is_read_only_under_transformations(write, transform):
    def f(a):
        b = a * 2.0  # made inside the function, as well as the argument itself
        _IMAG_WRITES[write](b)
        _IMAG_WRITES[write](a)
        return (a + b).sum()

    try:
        _IMAG_WRITES[write](np.arange(3.0))
    except ValueError as e:  # NumPy's words: "assignment destination is read-only" for
        want = str(e)  # an item assignment, "output array is read-only" for an in-place
    assert "read-only" in want  # operator, which writes a ufunc's output
    run = {"eager": f, "jit": xnp.jit(f), "vmap": xnp.vmap(f), "grad": xnp.grad(f)}[transform]
    arg = xnp.ones((2, 3)) if transform == "vmap" else xnp.ones(3)
    with pytest.raises(ValueError) as info:
        run(arg)
    assert str(info.value) == want
    # reading the part stays differentiable and batchable
    g = xnp.grad(lambda a: (a.imag + a * a).sum())(xnp.arange(3.0))
    np.testing.assert_allclose(np.asarray(g), 2 * np.arange(3.0))
    v = xnp.vmap(lambda a: a.imag + a)(xnp.ones((2, 3)))
    np.testing.assert_array_equal(np.asarray(v), np.ones((2, 3)))


@pytest.mark.parametrize("make", [
    lambda m, a: m.broadcast_to(a, (2,) + a.shape),
    lambda m, a: m.diagonal(a),
    lambda m, a: m.diag(a),
])
def test_read_only_views_of_a_jit_output_see_later_writes(make):
    """``broadcast_to``/``diagonal``/``diag`` of a jit output (whose host memory is shared
    with the runtime until written) are views of the array, as NumPy's: a later write
    into the array shows through them."""
    base = np.arange(9.0).reshape(3, 3)
    y = xnp.jit(lambda t: t * 2.0)(xnp.asarray(base))
    ref = base * 2.0
    view, ref_view = make(xnp, y), make(np, ref)
    y[1, 1] = -7.0
    ref[1, 1] = -7.0
    np.testing.assert_array_equal(np.asarray(view), ref_view)
    assert not np.asarray(view).flags.writeable


# writes through the parts of a complex array: x.real, x.imag, np.real/np.imag, and views of
# those (a reshape is a view of a contiguous part: its strides are twice the part's itemsize)
def _augmented_parts(m, z):
    z.real += z.imag * 2.0  # the store of an augmented assignment is the property's setter
    z.imag *= -0.5


COMPLEX_PART_WRITES = {
    "real_assigned": lambda m, z: setattr(z, "real", z.imag * 3.0 + 1.0),
    "imag_assigned": lambda m, z: setattr(z, "imag", 2.5),
    "augmented_parts": _augmented_parts,
    "real_item": lambda m, z: m.real(z).__setitem__(1, 100.0),
    "imag_slice": lambda m, z: z.imag.__setitem__(slice(0, 2), -7.0),
    "imag_inplace_add": lambda m, z: z.imag.__setitem__((1, 2), z.imag[1, 2] + 1.5),
    "real_of_row_reshaped": lambda m, z: z[1].real.reshape(3, 1).__setitem__((2, 0), 55.0),
    "imag_transposed": lambda m, z: z.imag.T.__setitem__((1, 0), z.real[0, 1] * 3.0),
}


def _complex_writes(m, name, a):
    z = a * (1.0 + 1.0j) if m is np else m.multiply(a, 1.0 + 1.0j)
    z = z.reshape(2, 3)
    COMPLEX_PART_WRITES[name](m, z)
    return z


@pytest.mark.parametrize("how", list(TRANSFORMS))
@pytest.mark.parametrize("name", list(COMPLEX_PART_WRITES))
def test_writes_through_complex_parts_reach_the_array(name, how):
    a = np.arange(6.0) / 4.0 - 0.5
    expected = _complex_writes(np, name, a)
    got = TRANSFORMS[how](lambda v: _complex_writes(xnp, name, v))(xnp.asarray(a))
    np.testing.assert_array_equal(np.asarray(got), expected)


@pytest.mark.parametrize("name", ["real_item", "imag_inplace_add", "imag_transposed",
                                  "real_assigned", "augmented_parts"])
def test_grad_through_complex_part_writes(name):
    a = np.arange(6.0) / 4.0 - 0.4  # no zero modulus (|z| has a kink there)

    def loss(m, v):
        z = _complex_writes(m, name, v)
        return (m.abs(z) ** 2 * np.arange(1.0, 7.0).reshape(2, 3)).sum()

    got = xnp.grad(lambda v: loss(xnp, v))(xnp.asarray(a))
    want = np.array([central_difference(lambda v: loss(np, np.asarray(v)), a, e)
                     for e in np.eye(a.size)])
    # the written constants make the loss about 2e4: the difference quotient's rounding
    # error is about eps * 2e4 / h = 4e-6
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6, atol=5e-5)


def test_setting_the_imaginary_part_of_a_real_array_raises_as_numpy():
    for make in (lambda m: m.ones(3), lambda m: m.arange(3)):
        a = make(np)
        a.real = 5
        b = make(xnp)
        b.real = 5
        np.testing.assert_array_equal(np.asarray(b), a)
        for arr in (make(np), make(xnp)):
            with pytest.raises(TypeError, match="array does not have imaginary part to set"):
                arr.imag = 1.0


def test_transpose_and_parts_of_a_buffer_rebound_under_grad():
    # y is rebound by its first traced write; its transpose and real part, made after it,
    # are views of the traced value (writes through them reach y)
    def f(m, a):
        y = m.zeros((3, 4))
        y[0, 0] = a
        y.T[1, 0] = 2 * a
        y.real[2, 2] = 3 * a
        z = m.zeros(2, dtype=np.complex128)
        z[0] = a
        z.imag[1] = a * a
        return (y * y).sum() + (z.real + z.imag).sum()

    want = central_difference(lambda v: f(np, float(np.asarray(v))), np.float64(1.5),
                              np.float64(1.0))
    for g in (xnp.grad(lambda a: f(xnp, a)), xnp.jit(xnp.grad(lambda a: f(xnp, a)))):
        np.testing.assert_allclose(float(g(1.5)), want, rtol=1e-7)
    assert float(xnp.jit(lambda a: f(xnp, a))(1.5)) == f(np, 1.5)

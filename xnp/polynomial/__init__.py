"""``numpy.polynomial`` for xnp: the convenience classes (``Polynomial``, ``Chebyshev``,
``Legendre``, ``Laguerre``, ``Hermite``, ``HermiteE``) and the modules ``polynomial``,
``chebyshev``, ``legendre``, ``laguerre``, ``hermite``, ``hermite_e`` and ``polyutils``.

What depends on the points ``x`` is written with xnp operations and traces under
``jit``/``grad``/``vmap``: evaluation (``p(x)``, ``polyval``, ``chebval2d``,
``leggrid3d``, ...), the Vandermonde matrices (``polyvander``, ...), the weight functions,
``polyvalfromroots`` and ``polyutils.mapdomain``; it returns xnp arrays. What works on
the coefficients (arithmetic, ``fit``, ``roots``, ``deriv``, ``integ``, conversions,
Gauss quadrature points) is NumPy's own implementation on concrete values, with NumPy's
results returned as xnp arrays; a traced argument there raises ``TypeError`` naming the
function. The classes are subclasses of NumPy's (``isinstance(p, numpy.polynomial.
Polynomial)`` holds), keep their coefficients as NumPy does and print as NumPy's.
"""

from __future__ import annotations

import functools
import sys
import types

import numpy
import numpy.polynomial as _np_poly
from numpy.polynomial._polybase import ABCPolyBase

from xnp.numpy_api import creation
from xnp.numpy_api._scalars import scalar_function
from xnp.polynomial import _bases
from xnp.tracing.core import Tracer

__all__ = ["Polynomial", "Chebyshev", "Legendre", "Laguerre", "Hermite", "HermiteE",
           "set_default_printstyle", "polynomial", "chebyshev", "legendre", "laguerre",
           "hermite", "hermite_e", "polyutils"]

set_default_printstyle = _np_poly.set_default_printstyle


def _to_xnp(value):
    if isinstance(value, numpy.ndarray):
        return creation.asarray(value)
    if isinstance(value, (tuple, list)):
        return type(value)(_to_xnp(v) for v in value)
    return value


def _refuse_traced(qualname: str, args, kwargs) -> None:
    named = [(f"argument {i}", a) for i, a in enumerate(args)] + list(kwargs.items())
    for label, a in named:
        items = a if isinstance(a, (tuple, list)) else (a,)
        if any(isinstance(v, Tracer) for v in items):
            raise TypeError(
                f"xnp.polynomial.{qualname}: {label} is traced (inside jit, grad or vmap), "
                "but this function runs NumPy's implementation on concrete coefficients. "
                "Call it outside the traced function; the evaluation functions (*val, "
                "*grid, *vander, the classes' __call__) trace.")


def _host(f, qualname: str):
    """NumPy's ``f`` on concrete values, its arrays returned as xnp arrays."""

    @functools.wraps(f)
    def call(*args, **kwargs):
        _refuse_traced(qualname, args, kwargs)
        return _to_xnp(f(*args, **kwargs))

    call.__module__ = "xnp.polynomial." + qualname.rpartition(".")[0]
    call.__qualname__ = qualname.rpartition(".")[2]  # where pickle looks it up (an alias too)
    call.__doc__ = (f"NumPy's ``numpy.polynomial.{qualname}`` on concrete values, returning "
                    f"xnp arrays.\n\n{f.__doc__ or ''}")
    return call


def _named(f, module: str, name: str, doc: str):
    f.__name__ = f.__qualname__ = name
    f.__module__ = f"xnp.polynomial.{module}"
    f.__doc__ = doc
    return f


def _traced_functions(module: str, basis) -> dict:
    """The functions of ``x`` of one basis module, under NumPy's names and signatures."""
    p = basis.prefix
    ref = f"Follows ``numpy.polynomial.{module}.{{}}``; traces under jit/grad/vmap."

    def val(x, c, tensor=True):
        return _bases.evaluate(basis, f"{p}val", x, c, tensor)

    def val2d(x, y, c):
        return _bases.evaluate_nd(basis, f"{p}val2d", (x, y), c, grid=False)

    def val3d(x, y, z, c):
        return _bases.evaluate_nd(basis, f"{p}val3d", (x, y, z), c, grid=False)

    def grid2d(x, y, c):
        return _bases.evaluate_nd(basis, f"{p}grid2d", (x, y), c, grid=True)

    def grid3d(x, y, z, c):
        return _bases.evaluate_nd(basis, f"{p}grid3d", (x, y, z), c, grid=True)

    def vander(x, deg):
        return _bases.vander(basis, f"{p}vander", x, deg)

    def vander2d(x, y, deg):
        return _bases.vander_nd(basis, f"{p}vander2d", (x, y), deg)

    def vander3d(x, y, z, deg):
        return _bases.vander_nd(basis, f"{p}vander3d", (x, y, z), deg)

    out = {
        f"{p}val": _named(val, module, f"{p}val", (
            "Evaluate the series ``sum_k c[k] phi_k(x)`` at ``x``.\n\n``c`` holds the "
            "coefficients along its first axis (integer and boolean coefficients are "
            "evaluated in float64); with ``tensor=True`` the result has shape "
            "``c.shape[1:] + x.shape``, otherwise the trailing axes of ``c`` broadcast "
            "with ``x``. Raises ValueError for an empty ``c``. " + ref.format(f"{p}val"))),
        f"{p}val2d": _named(val2d, module, f"{p}val2d", (
            "Evaluate the 2-d series ``sum c[i, j] phi_i(x) phi_j(y)`` at points (x, y) of "
            "one shape (ValueError otherwise). " + ref.format(f"{p}val2d"))),
        f"{p}val3d": _named(val3d, module, f"{p}val3d", (
            "Evaluate the 3-d series at points (x, y, z) of one shape (ValueError "
            "otherwise). " + ref.format(f"{p}val3d"))),
        f"{p}grid2d": _named(grid2d, module, f"{p}grid2d", (
            "Evaluate the 2-d series on the Cartesian product of x and y: shape "
            "``c.shape[2:] + x.shape + y.shape``. " + ref.format(f"{p}grid2d"))),
        f"{p}grid3d": _named(grid3d, module, f"{p}grid3d", (
            "Evaluate the 3-d series on the Cartesian product of x, y and z. "
            + ref.format(f"{p}grid3d"))),
        f"{p}vander": _named(vander, module, f"{p}vander", (
            "The pseudo-Vandermonde matrix of degree ``deg``: ``V[..., k] = phi_k(x)``, "
            "shape ``x.shape + (deg + 1,)`` (x at least 1-d, in floating point). Raises "
            "TypeError/ValueError for a non-integer or negative ``deg``. "
            + ref.format(f"{p}vander"))),
        f"{p}vander2d": _named(vander2d, module, f"{p}vander2d", (
            "The 2-d pseudo-Vandermonde matrix for degrees ``deg = [x_deg, y_deg]``: shape "
            "``x.shape + ((x_deg + 1) * (y_deg + 1),)``. " + ref.format(f"{p}vander2d"))),
        f"{p}vander3d": _named(vander3d, module, f"{p}vander3d", (
            "The 3-d pseudo-Vandermonde matrix for degrees ``deg = [x_deg, y_deg, z_deg]``. "
            + ref.format(f"{p}vander3d"))),
    }
    if basis.weight is not None:
        def weight(x):
            return basis.weight(creation.asarray(x))

        out[f"{p}weight"] = _named(weight, module, f"{p}weight", (
            "The weight function of the basis at ``x`` (elementwise). "
            + ref.format(f"{p}weight")))
    if module == "polynomial":
        def polyvalfromroots(x, r, tensor=True):
            return _bases.valfromroots(x, r, tensor)

        out["polyvalfromroots"] = _named(polyvalfromroots, module, "polyvalfromroots", (
            "Evaluate ``prod_k (x - r[k])`` (roots along the first axis of ``r``; "
            "``tensor`` as in ``polyval``; ValueError when ``tensor=False`` and "
            "``x.ndim >= r.ndim``). " + ref.format("polyvalfromroots")))
    return out


def _points_of(arg):
    return creation.asarray(arg) if isinstance(arg, (list, tuple, numpy.ndarray)) else arg


def _make_class(np_cls, val):
    """A subclass of NumPy's convenience class whose evaluation traces and whose
    array results are xnp arrays."""

    def __init__(self, coef, domain=None, window=None, symbol="x"):
        _refuse_traced(f"{np_cls.__name__}", (coef, domain, window), {})
        np_cls.__init__(self, coef, domain, window, symbol)

    def __call__(self, arg):
        off, scl = _np_poly.polyutils.mapparms(self.domain, self.window)
        return val(off + scl * _points_of(arg), self.coef)

    def linspace(self, n=100, domain=None):
        x, y = np_cls.linspace(self, n, domain)
        return creation.asarray(x), y

    def roots(self):
        return creation.asarray(np_cls.roots(self))

    ns = {"__init__": __init__, "__call__": __call__, "linspace": linspace, "roots": roots,
          "_val": staticmethod(val), "__module__": "xnp.polynomial",
          "__doc__": (f"``numpy.polynomial.{np_cls.__name__}`` whose evaluation "
                      "``p(x)`` traces under jit/grad/vmap and returns xnp arrays; "
                      "``roots()`` and ``linspace()`` return xnp arrays. Coefficient "
                      "arithmetic, ``fit``, ``deriv``, ``integ`` and conversions are "
                      "NumPy's, on concrete coefficients.\n\n" + (np_cls.__doc__ or ""))}
    return type(np_cls.__name__, (np_cls,), ns)


def _make_module(module: str, basis) -> types.ModuleType:
    np_mod = getattr(_np_poly, module)
    mod = types.ModuleType(f"xnp.polynomial.{module}",
                           f"``numpy.polynomial.{module}`` for xnp (see ``xnp.polynomial``).")
    traced = _traced_functions(module, basis)
    for name in dir(np_mod):
        if name.startswith("_"):
            continue
        value = getattr(np_mod, name)
        if name in traced:  # with NumPy's scalar rule: a scalar point gives NumPy's scalar
            value = _named(scalar_function(traced[name]), module, name, traced[name].__doc__)
        elif isinstance(value, type) and issubclass(value, ABCPolyBase) and \
                value is not ABCPolyBase:
            value = _make_class(value, traced[f"{basis.prefix}val"])
        elif isinstance(value, numpy.ndarray):
            value = creation.asarray(value)
        elif callable(value) and not isinstance(value, (type, types.ModuleType)):
            value = _host(value, f"{module}.{name}")
        setattr(mod, name, value)
    mod.pu = polyutils
    return mod


def _make_polyutils() -> types.ModuleType:
    np_mod = _np_poly.polyutils
    mod = types.ModuleType("xnp.polynomial.polyutils",
                           "``numpy.polynomial.polyutils`` for xnp: ``mapdomain`` traces; "
                           "the rest is NumPy's on concrete values, returning xnp arrays.")
    for name in ("as_series", "format_float", "getdomain", "mapparms", "trimcoef", "trimseq"):
        setattr(mod, name, _host(getattr(np_mod, name), f"polyutils.{name}"))

    def mapdomain(x, old, new):
        _refuse_traced("polyutils.mapdomain", (old, new), {})
        off, scl = np_mod.mapparms(old, new)
        return creation.asarray(off + scl * _points_of(x))

    mod.mapdomain = _named(mapdomain, "polyutils", "mapdomain", (
        "Map ``x`` linearly from the interval ``old`` to ``new`` (2-element sequences, "
        "concrete): ``off + scl * x``. Traces in ``x``. Follows "
        "``numpy.polynomial.polyutils.mapdomain``."))
    mod.np = numpy
    return mod


polyutils = _make_polyutils()
sys.modules[polyutils.__name__] = polyutils
for _module, _basis in _bases.BASES.items():
    _mod = _make_module(_module, _basis)
    sys.modules[_mod.__name__] = _mod
    globals()[_module] = _mod
Polynomial = polynomial.Polynomial  # noqa: F821  (made by the loop above)
Chebyshev = chebyshev.Chebyshev  # noqa: F821
Legendre = legendre.Legendre  # noqa: F821
Laguerre = laguerre.Laguerre  # noqa: F821
Hermite = hermite.Hermite  # noqa: F821
HermiteE = hermite_e.HermiteE  # noqa: F821

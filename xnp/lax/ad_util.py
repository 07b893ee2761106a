"""``stop_gradient``: the identity whose derivative is zero."""

from __future__ import annotations

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.lax import _strides as view_rules
from xnp.tracing import Array, core
from xnp.tracing.ad import Zero, tangent_aval

__all__ = ["stop_gradient", "stop_gradient_p"]


def _stop_gradient_jvp(primals, tangents):
    (x,) = primals
    return stop_gradient_p.bind(x), Zero(tangent_aval(core.aval_of(x)))


stop_gradient_p = kit.primitive(
    "stop_gradient", view=view_rules.same,
    shape=lambda x: x.shape,
    dtype=lambda x: x.dtype,
    jvp=_stop_gradient_jvp,
    batch=R.unary_batch,
)


def stop_gradient(x: Array) -> Array:
    """``x`` unchanged, but with a zero derivative under ``xnp.grad``/``jvp``/``vjp``.

    Shape and dtype: those of ``x`` (any dtype). Under ``vmap`` it maps elementwise.
    Reference: ``jax.lax.stop_gradient``.
    """
    return stop_gradient_p.bind(x)

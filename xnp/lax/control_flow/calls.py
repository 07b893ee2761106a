"""The jvp rule of the nested-``jit`` primitive (``xnp.tracing.jit.jit_p``), built from
the same linearization as ``cond``/``scan``: the known part (primal outputs and
residuals) is one jit call on the enclosing trace and the tangent part is a second,
linear jit call, so under ``grad`` the primal computation stays concrete and nested
control flow splits itself. (Its transpose and batching rules sit with the primitive.)"""

from __future__ import annotations

from xnp.lax.control_flow import common
from xnp.tracing import ad
from xnp.tracing.ad import Zero
from xnp.tracing.jaxpr import ClosedJaxpr
from xnp.tracing.jit import jit_p

__all__ = []


def _jit_jvp(primals, tangents, *, jaxpr: ClosedJaxpr, name: str):
    in_avals = jaxpr.in_avals
    out_avals = jaxpr.out_avals
    nonzeros = [type(t) is not Zero and common.differentiable(a)
                for t, a in zip(tangents, in_avals)]
    if not any(nonzeros):
        outs = jit_p.bind(*primals, jaxpr=jaxpr, name=name)
        return outs, [Zero(ad.tangent_aval(a)) for a in out_avals]
    n_out = len(out_avals)
    lin = common.linearize_jaxpr(jaxpr, nonzeros, [False] * n_out)
    kouts = jit_p.bind(*lin.known_consts, *primals, jaxpr=lin.known, name=name)
    p_out, computed = kouts[:n_out], kouts[n_out:]
    t_out = []
    if any(lin.out_nz):
        residuals = lin.residuals(list(primals), computed)
        nz_t = [t for t, nz in zip(tangents, nonzeros) if nz]
        t_out = jit_p.bind(*residuals, *nz_t, jaxpr=lin.lin, name=name)
    it = iter(t_out)
    return p_out, [next(it) if nz else Zero(ad.tangent_aval(a))
                   for nz, a in zip(lin.out_nz, out_avals)]


jit_p.jvp = _jit_jvp

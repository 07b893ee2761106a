"""Control flow: ``cond``/``switch`` (``cond_p``), ``while_loop``/``fori_loop``
(``while_p``; ``fori_loop`` with static bounds is a ``scan``), ``scan``/``map``
(``scan_p``). (``lax.associative_scan`` lives in :mod:`xnp.lax.cumulative`.)

Bodies are traced abstractly into closed jaxprs (also eagerly), their constants are
passed as operands, and each primitive's jvp, transpose and batching rules are built
from jaxpr-level helpers (:mod:`xnp.lax.control_flow.common`). Their eager rules (``impl``:
the body jaxprs evaluated with ``eval_jaxpr`` on the eager backend in use) are part of each
declaration too; lowerings are in ``xnp/backends/xla/lowering/control_flow.py``.
"""

from xnp.lax.control_flow.cond import cond, cond_p, switch
from xnp.lax.control_flow.scan import map, scan, scan_p  # noqa: A004
from xnp.lax.control_flow.while_loop import fori_loop, while_loop, while_p

__all__ = ["cond", "cond_p", "switch", "while_loop", "fori_loop", "while_p", "scan", "map",
           "scan_p"]

"""The op table: every primitive listed once (in its family's ``ops_<family>.py``).

Each family module exports ``RECORDS``, a list of :class:`tests.helpers.OpRecord`.
"""

import importlib

from tests.helpers import OpRecord

FAMILIES = ["elementwise", "shape_ops", "slicing", "reductions", "products", "special", "windowed",
            "cumulative", "sorting", "decompositions", "fft", "convolution", "prng", "bits"]


def all_records() -> list[OpRecord]:
    records = []
    for fam in FAMILIES:
        try:
            mod = importlib.import_module(f"tests.lax.ops_{fam}")
        except ModuleNotFoundError as e:
            if e.name != f"tests.lax.ops_{fam}":
                raise
            continue
        records.extend(mod.RECORDS)
    return records

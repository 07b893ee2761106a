"""Backends: a backend is a table primitive -> implementation plus buffer handling.

``numpy`` runs eager operations on the CPU; ``xla`` lowers jaxprs to StableHLO
and runs them through jaxlib's PJRT runtime (the jit backend).
"""

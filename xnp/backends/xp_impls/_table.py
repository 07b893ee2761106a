"""The shared table of ``xp`` implementations (filled by the family modules)."""

XP_IMPLS: dict = {}
# primitive -> reason, for primitives an xp backend cannot run
UNSUPPORTED: dict = {}

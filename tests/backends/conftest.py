"""Fixtures of the backend tests."""

import pytest

import xnp
from xnp.backends.xla import compile_cache


@pytest.fixture
def fresh_compile_cache():
    """Empty in-memory executable cache, zeroed counters and no disk cache, before and
    after the test."""
    with xnp.config.override(compilation_cache_dir=None):
        compile_cache.clear()
        compile_cache.reset_stats()
        yield
    compile_cache.clear()
    compile_cache.reset_stats()

import numpy as np
import pytest

import xnp
from tests import helpers
from xnp.numpy_api import _replay
from xnp.tracing import partial_eval


def pytest_addoption(parser):
    parser.addoption("--full-grid", action="store_true", default=False,
                     help="run every case of the sampled test grids")


def pytest_configure(config):
    helpers.FULL_GRID[0] = config.getoption("--full-grid")
    partial_eval.enable_typecheck(True)  # every staged jaxpr is type-checked in tests
    _replay.check_replays(True)  # every eager replay is compared with its full path


@pytest.fixture
def rng():
    return np.random.default_rng(0)


@pytest.fixture
def no_check():
    """The eager dispatch cache's check mode off for the test (check mode runs the full
    path again after each replay: its frames, effects and warnings twice)."""
    was = _replay._CHECK[0]
    _replay.check_replays(False)
    yield
    _replay.check_replays(was)


@pytest.fixture(autouse=True)
def _process_state_is_restored():
    """Every test leaves the process as it found it: no transformation scope or rebound
    array counted, the test's thread back on the base trace, the eager dispatch cache on
    and not skipping (a leak here changes what later tests on the same worker exercise)."""
    yield
    from xnp.tracing import core  # noqa: PLC0415

    state = {"scopes": core._SCOPES_ON[0], "rebound": core._REBOUND_ON[0],
             "base trace": core._STATE.trace is core._BASE_TRACE,
             "cache on": _replay._ON[0]}
    assert state == {"scopes": 0, "rebound": 0, "base trace": True, "cache on": True}, state

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

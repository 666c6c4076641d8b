"""Shared fixtures of the Python package's tests (run by tools/run-python-tests, which installs the
package into tools/.venv with `pip install .` first)."""

import numpy as np
import pytest

import graphgc


@pytest.fixture
def graph():
    return graphgc.Graph()


@pytest.fixture
def rng():
    return np.random.default_rng(20261201)

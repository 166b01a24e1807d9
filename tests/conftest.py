"""pytest configuration for the rulelang suite."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "simulation: random play of a bundled rules file (deselect with "
        "-m 'not simulation')")

"""What the suite needs from the machine, and what happens when it is missing.

A test whose tool is missing (Chromium, GNU gettext, a network namespace, ...)
is skipped with one clear line on a developer's machine; under ``CI=true`` the
same absence is a failure, so CI never passes by checking nothing.
"""

import os

import pytest


def in_ci() -> bool:
    return os.environ.get("CI") == "true"


def missing(reason: str):
    """Skip the test with ``reason``; under CI=true, fail it instead."""
    if in_ci():
        pytest.fail(f"{reason}; CI needs it.")
    pytest.skip(reason)

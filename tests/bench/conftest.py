"""What the load tests on PostgreSQL share."""

import os

import pytest


@pytest.fixture
def postgres_url():
    """The suite's PostgreSQL (``DATABASE_URL``); the test is skipped on the SQLite leg."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        pytest.skip("about PostgreSQL: runs on the PostgreSQL leg of make test")
    return url

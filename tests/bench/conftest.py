"""What the load tests share."""

import os

import pytest
from django.db import connection

from bench import load
from tests import template_db


@pytest.fixture
def postgres_url():
    """The suite's PostgreSQL (``DATABASE_URL``); the test is skipped on the SQLite leg."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        pytest.skip("about PostgreSQL: runs on the PostgreSQL leg of make test")
    return url


@pytest.fixture
def sqlite_template(migrated_laptop):
    """The environment that starts ``bench/load.py``'s SQLite database from the migrated
    laptop instead of migrating it again (``bench.load.SQLITE_TEMPLATE``)."""
    return {load.SQLITE_TEMPLATE: str(migrated_laptop)}


@pytest.fixture
def postgres_template(postgres_url, django_db_setup, django_db_blocker):
    """The environment that starts a load run's PostgreSQL database from the suite's
    template (``tests.template_db``) instead of migrating it again, where there is one
    (``bench.load.POSTGRES_TEMPLATE``)."""
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        name = template_db.postgres_template()
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        found = cursor.fetchone() is not None
    return {load.POSTGRES_TEMPLATE: name} if found else {}

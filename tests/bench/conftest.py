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
    name = template_db.postgres_template()
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        found = template_db.postgres_database_exists(cursor, name)
    return {load.POSTGRES_TEMPLATE: name} if found else {}

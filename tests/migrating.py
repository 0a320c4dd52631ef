"""Moving the test database through its migrations, for the tests of a data migration.

A test migrates back only to the migration before the one it tests (Django unapplies
what depends on it, nothing more) and forward only to that one; it leaves the database
there. ``newest_migrations_afterwards`` (a module's autouse fixture: assign it in the
module) brings every app back to its newest migration once, after the module's last
test, for the tests of the other modules.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.exceptions import InvalidMigrationPlan
from django.db.migrations.executor import MigrationExecutor

from tests import template_db

ROOT = Path(__file__).resolve().parents[1]


def laptop_migrate(data):
    """``manage.py migrate`` as a club laptop runs it: a child process with the laptop's
    default settings on the data folder ``data`` (none of the suite's own DJANGO_ or
    DATABASE_URL settings); its ``CompletedProcess``, output as text."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.development", KLAVERJAS_DATA_DIR=str(data))
    return subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def migrate(targets):
    """Migrate the named apps to ``targets`` and return the historical models of what
    the database then holds: those apps at ``targets``, every other app at what is
    applied (its newest migration, unless one of ``targets`` needed it unapplied)."""
    executor = MigrationExecutor(connection)
    try:
        state = executor.migrate(targets)
    except InvalidMigrationPlan:  # some apps to go back, others forward: by way of the newest
        migrate_to_newest()
        state = MigrationExecutor(connection).migrate(targets)
    return state.apps


def migrate_to_newest():
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.fixture(scope="module", autouse=True)
def newest_migrations_afterwards(django_db_setup, django_db_blocker):
    """Every app at its newest migration once the module's tests are done: the test
    database copied again from its template (``tests.template_db``), or, without one,
    migrated forward."""
    yield
    with django_db_blocker.unblock():
        if not template_db.restore(connection):
            migrate_to_newest()

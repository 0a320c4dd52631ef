"""Moving the test database through its migrations, for the tests of a data migration.

A test migrates back only to the migration before the one it tests (Django unapplies
what depends on it, nothing more) and forward only to that one; it leaves the database
there. ``newest_migrations_afterwards`` (a module's autouse fixture: assign it in the
module) brings every app back to its newest migration once, after the module's last
test, for the tests of the other modules.
"""

import pytest
from django.db import connection
from django.db.migrations.exceptions import InvalidMigrationPlan
from django.db.migrations.executor import MigrationExecutor


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
    """Every app at its newest migration once the module's tests are done."""
    yield
    with django_db_blocker.unblock():
        migrate_to_newest()

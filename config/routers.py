"""Which database a query goes to: the primary (``default``), or for a public page's
reads the replica (``replica``, from ``DJANGO_DATABASE_REPLICA_URL``).

A read goes to the replica only while a page marked with
:func:`common.replica.replica_reads` answers an anonymous GET or HEAD without a
session, the replica is configured, and no transaction is open on the primary (a read
inside one must see its writes). Every write goes to the primary, also of an object
read from the replica. Without a replica, everything is the primary.
"""

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

from common.replica import reads_from_replica

REPLICA = "replica"


class ReplicaRouter:
    def db_for_read(self, model, **hints):
        if (
            reads_from_replica()
            and REPLICA in settings.DATABASES
            and not connections[DEFAULT_DB_ALIAS].in_atomic_block
        ):
            return REPLICA
        return DEFAULT_DB_ALIAS

    def db_for_write(self, model, **hints):
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1, obj2, **hints):
        # One database and its copy: an object read from either relates to any other.
        return {obj1._state.db, obj2._state.db} <= {DEFAULT_DB_ALIAS, REPLICA} or None

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        # The replica follows the primary's schema by replication; it is never migrated.
        return False if db == REPLICA else None

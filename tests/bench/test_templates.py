"""The load runs' start from a migrated database (``bench.load.SQLITE_TEMPLATE``,
``POSTGRES_TEMPLATE``) when what the environment names is wrong or gone."""

import psycopg
import pytest

from bench import load


def test_a_missing_sqlite_template_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv(load.SQLITE_TEMPLATE, str(tmp_path / "nothing.sqlite3"))
    with pytest.raises(SystemExit, match="there is no SQLite file at"):
        load.prepare_database("sqlite", "", tmp_path)
    assert not (tmp_path / "data").exists()


def test_a_postgres_template_that_is_no_database_name_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv(load.POSTGRES_TEMPLATE, 'x"; DROP DATABASE test; --')
    with pytest.raises(SystemExit, match="letters, digits and _ only"):
        load.prepare_database("postgres", "postgres://unused", tmp_path)


@pytest.mark.database
def test_a_postgres_template_gone_meanwhile_makes_an_empty_database(
    tmp_path, monkeypatch, postgres_url, capsys
):
    """Another checkout dropped it, say: the run gets a new empty database (which its
    migrate then fills) instead of failing."""
    monkeypatch.setenv(load.POSTGRES_TEMPLATE, "test_template_gone_meanwhile")
    url, drop = load.prepare_database("postgres", postgres_url, tmp_path, prefix="klaverjas_t")
    try:
        assert "not copied" in capsys.readouterr().out
        with psycopg.connect(url) as connection:
            tables = connection.execute(
                "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
            ).fetchone()[0]
        assert tables == 0
    finally:
        drop()
    with psycopg.connect(postgres_url) as connection:
        name = url.rsplit("/", 1)[1]
        gone = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        assert gone.fetchone() is None

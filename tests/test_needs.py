import pytest

from tests.needs import missing


def test_a_missing_tool_skips_the_test_on_a_developers_machine(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no gettext"):
        missing("no gettext")


def test_a_missing_tool_fails_the_test_under_ci(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="no gettext; CI needs it"):
        missing("no gettext")

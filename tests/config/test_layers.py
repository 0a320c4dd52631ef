"""The layers in ``pyproject.toml`` hold, and ``lint-imports`` (so ``make lint``) fails on
an import that breaks one: a copy of the project with one such import added is refused."""

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("clubs", "common", "config", "leagues", "scoring", "tournaments")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def copy_project(destination):
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package,
            destination / package,
            ignore=shutil.ignore_patterns("__pycache__", "*.html", "*.js", "*.css", "*.png"),
        )
    shutil.copy(ROOT / "pyproject.toml", destination / "pyproject.toml")


def contract_names():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return [contract["name"] for contract in config["tool"]["importlinter"]["contracts"]]


def broken_contracts(output):
    """The names of the contracts the report calls broken (it wraps long names)."""
    text = " ".join(output.split())
    return [name for name in contract_names() if f"{name} BROKEN" in text]


def lint(directory):
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=directory,
        env={"PYTHONPATH": str(directory), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_project_keeps_every_contract_with_no_upward_exception():
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
    assert broken_contracts(result.stdout) == []
    text = (ROOT / "pyproject.toml").read_text()
    ignored = text[text.index("[tool.importlinter]") :]
    # The only ignored imports are the rules core's own (it sits inside scoring but is the
    # lowest layer): no line lets a lower layer import a higher one.
    lines = [line.strip() for line in ignored.splitlines() if line.strip().startswith('"')]
    exceptions = [line for line in lines if " -> " in line]
    assert exceptions == ['"** -> scoring.rules",', '"** -> scoring.rules.**",']


@pytest.mark.parametrize(
    "module, line, contract",
    [
        ("tournaments/upward.py", "import leagues.models\n", "The layers"),
        ("clubs/upward.py", "from scoring import services\n", "The layers"),
        ("scoring/rules/upward.py", "import django.db\n", "The rules core"),
        ("scoring/results/ranking.py", "import django.utils.timezone\n", "The pure modules"),
        ("scoring/trickcheck/views.py", "import clubs.permissions\n", "The trick checker"),
        ("scoring/services.py", "from .results import views\n", "Views are leaves"),
    ],
)
def test_an_import_that_breaks_a_contract_fails_the_lint(tmp_path, module, line, contract):
    copy_project(tmp_path)
    path = tmp_path / module
    path.write_text((path.read_text() if path.exists() else "") + line)
    result = lint(tmp_path)
    assert result.returncode != 0
    [broken] = broken_contracts(result.stdout)
    assert broken.startswith(contract), result.stdout

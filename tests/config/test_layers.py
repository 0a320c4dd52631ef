"""The layers in ``pyproject.toml`` hold, and ``lint-imports`` (so ``make lint``) fails on
an import that breaks one: a copy of the project with one such import added is refused."""

import ast
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
        ("scoring/trickcheck/views.py", "from scoring import selectors\n", "The trick checker"),
        ("scoring/trickcheck/views.py", "from ..models import Game\n", "The trick checker"),
        ("scoring/selectors.py", "from . import services\n", "Selectors import no services"),
        ("leagues/selectors.py", "from tournaments import services\n", "Selectors import no"),
        ("scoring/results/standings.py", "from . import services\n", "Selectors import no"),
        ("scoring/services.py", "from .results import views\n", "Views are leaves"),
        # A module beside a view in its package (import-linter would skip the package).
        ("scoring/exports/reports.py", "from . import views\n", "Views are leaves"),
        ("scoring/views.py", "from .results import views as results\n", "Views are leaves"),
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


def test_the_trick_checker_is_refused_a_scoring_model_by_way_of_another_module(tmp_path):
    """No ``allow_indirect_imports``: a helper of the checker that uses a model is the
    checker using it."""
    copy_project(tmp_path)
    (tmp_path / "scoring/trickcheck/helper.py").write_text("from scoring.models import Game\n")
    views = tmp_path / "scoring/trickcheck/views.py"
    views.write_text(views.read_text() + "from . import helper\n")
    result = lint(tmp_path)
    assert result.returncode != 0
    [broken] = broken_contracts(result.stdout)
    assert broken.startswith("The trick checker"), result.stdout


def project_modules():
    """Every module of the project's packages, by dotted name, and the packages among them."""
    modules, packages = set(), set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
                packages.add(".".join(parts))
            modules.add(".".join(parts))
    return modules, packages


def contract(start):
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    [found] = [
        c for c in config["tool"]["importlinter"]["contracts"] if c["name"].startswith(start)
    ]
    return found


def within(module, names):
    return any(module == name or module.startswith(name + ".") for name in names)


def is_view(module):
    return "views" in module.rsplit(".", 1)[-1]


def is_url_module(module):
    return "urls" in module.rsplit(".", 1)[-1]


def test_views_are_leaves_names_every_module_but_the_url_modules():
    """A module written tomorrow is a source of the contract the day it is written (the
    list fails this test until it is named), and every view module is forbidden."""
    views_contract = contract("Views are leaves")
    sources, forbidden = views_contract["source_modules"], views_contract["forbidden_modules"]
    modules, packages = project_modules()
    views = {m for m in modules if is_view(m)}
    assert set(forbidden) == views
    urls = {m for m in modules if is_url_module(m)}
    holding_a_view = {p for p in packages if any(v.startswith(p + ".") for v in views | urls)}
    # No source is a package that holds a view (import-linter would skip that pair) or a
    # url module (which imports views).
    assert not [s for s in sources if s in holding_a_view]
    expected = {
        m
        for m in modules
        if m not in urls and m not in holding_a_view and m != "scoring.trickcheck.club_views"
    }
    assert {m for m in expected if not within(m, sources)} == set()
    # Those packages' own __init__ (not listed) import nothing of the project, so no view.
    for package in holding_a_view:
        tree = ast.parse((ROOT / package.replace(".", "/") / "__init__.py").read_text())
        imported = [
            name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for name in (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else ["." * node.level + (node.module or "")]
            )
        ]
        assert [n for n in imported if n.startswith(".") or n.split(".")[0] in PACKAGES] == []


def test_the_trick_checker_is_forbidden_every_module_of_scoring_but_the_rules_core():
    checker = contract("The trick checker")
    assert checker["source_modules"] == ["scoring.trickcheck.views"]
    assert not checker.get("allow_indirect_imports", False)
    modules, _packages = project_modules()
    allowed = {"scoring", "scoring.trickcheck", "scoring.trickcheck.views"}
    scoring = {m for m in modules if within(m, ["scoring"]) and not within(m, ["scoring.rules"])}
    forbidden = checker["forbidden_modules"]
    assert {m for m in scoring - allowed if not within(m, forbidden)} == set()
    assert {"clubs", "config", "leagues", "tournaments"} <= set(forbidden)

"""The rules core is plain Python: nothing in it imports Django."""

import pathlib
import re
import subprocess
import sys

import scoring.rules

PACKAGE = pathlib.Path(scoring.rules.__file__).parent
DJANGO_IMPORT = re.compile(r"^\s*(import\s+django\b|from\s+django\b)", re.MULTILINE)


def test_no_module_of_the_rules_core_imports_django():
    sources = sorted(PACKAGE.rglob("*.py"))
    assert sources, "the package has no source files"
    offenders = [p.name for p in sources if DJANGO_IMPORT.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_importing_the_rules_core_does_not_load_django():
    code = (
        "import sys, scoring.rules, scoring.rules.simulate, bench.rules; "
        "print('django' in sys.modules)"
    )
    root = PACKAGE.parent.parent
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


def test_public_names_are_exported_and_exist():
    for name in scoring.rules.__all__:
        assert hasattr(scoring.rules, name), name
    for name in (
        "get_ruleset",
        "RULESETS",
        "ruleset_from",
        "InvalidRuleset",
        "score_hand",
        "InvalidHand",
        "score_game",
        "trick_winner",
        "trick_points",
        "trick_roem",
        "trick_roem_detail",
        "legal_cards",
        "simulate_deal",
        "Card",
        "Team",
    ):
        assert name in scoring.rules.__all__, name

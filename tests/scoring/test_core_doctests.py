"""The rules core's docstring examples run with the suite (both legs of `make test`).

Only the pure-Python modules of scoring.rules are collected, so no Django-side
module is imported as a doctest.
"""

import doctest
import importlib
import pkgutil

import pytest

import scoring.rules

CORE_MODULES = sorted(
    ["scoring.rules"]
    + [f"scoring.rules.{info.name}" for info in pkgutil.iter_modules(scoring.rules.__path__)]
)


def test_the_core_has_docstring_examples_to_run():
    examples = sum(
        len(test.examples)
        for name in CORE_MODULES
        for test in doctest.DocTestFinder().find(importlib.import_module(name))
    )
    assert examples > 0


@pytest.mark.parametrize("name", CORE_MODULES)
def test_every_docstring_example_in_the_core_module_passes(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} fail"

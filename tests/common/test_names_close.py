"""common.text.names_close: names a person would take for each other."""

import pytest

from common.text import names_close


@pytest.mark.parametrize(
    ("first", "second", "close", "without_typos"),
    [
        ("Renee", "Renée", True, True),  # an accent
        ("René-e", "renee", True, True),  # punctuation and case
        ("Janssen", "Jansen", True, False),  # one letter left out
        ("Janssen", "Jnassen", True, False),  # two letters swapped
        ("Speler 721", "Speler 722", True, False),  # one letter typed wrong
        ("Anna", "Anne", False, False),  # fewer than 5 letters: no typos
        ("Janssen", "Jansen-Bos", False, False),
    ],
)
def test_names_close_with_and_without_typos(first, second, close, without_typos):
    assert names_close(first, second) is close
    assert names_close(first, second, typos=False) is without_typos

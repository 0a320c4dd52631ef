"""What an evening's result follows in plain words, so every player can check by hand.

Used by the results pages and by the files (``scoring.exports.reports``); no view
here. The sentences that depend only on the competition live in ``tournaments.words``.
"""

from django.utils.translation import gettext as _

from tournaments.words import describe_prizes, describe_scores


def describe_evening(competition, result=None):
    """What the evening result follows, in plain words: prizes and the scores, and
    (given the ``result``) each substitute game that replaced a player's own game."""
    words = describe_prizes(competition) + describe_scores(competition)
    for (_evening, key), swaps in sorted((result.struck if result else {}).items()):
        for struck, played in swaps:
            words.append(
                _(
                    "%(name)s: the game as substitute in round %(played)s replaces "
                    "their own game of round %(struck)s (wegstrepen)."
                )
                % {"name": result.names.get(key, ""), "played": played, "struck": struck}
            )
    return words

"""A side ranking (puntenkampioen, most marsen) is a ranking definition of its own:
its kind fixes the basis, the club sets its best N and minimum attendance. The model
refuses a bad definition (so the admin cannot save one), and the plain words state
each definition. The season played with them is in tests/scoring/results/test_club_rules.py."""

import datetime
import json
from html.parser import HTMLParser

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from tests import factories
from tests.tournaments.test_competition_rules import admin_change_errors
from tournaments.forms import SIDE_FIELDS
from tournaments.models import Competition
from tournaments.ranking_rules import Basis, Side, SideRanking
from tournaments.words import describe_side_ranking

pytestmark = pytest.mark.django_db


def season(club, side_rankings):
    return Competition(
        club=club,
        name="Wintercompetitie",
        start_date=datetime.date(2026, 9, 1),
        end_date=datetime.date(2027, 5, 31),
        side_rankings=side_rankings,
    )


def test_clean_stores_each_definition_in_full_and_in_the_order_shown(club):
    competition = season(club, [{"kind": "marsen", "min_attendance": 3}, {"kind": "points"}])
    competition.full_clean()
    assert competition.side_rankings == [
        {"kind": "points", "best_of": None, "min_attendance": 0},
        {"kind": "marsen", "best_of": None, "min_attendance": 3},
    ]
    marsen = competition.side_ranking_definitions()[1]
    assert marsen == SideRanking(kind=Side.MARSEN, best_of=None, min_attendance=3)
    assert marsen.basis is Basis.MARSEN
    assert competition.side_ranking_definitions()[0].basis is Basis.TOTAL


@pytest.mark.parametrize(
    "side_rankings, code",
    [
        (["points"], "unknown"),  # the old format: keys, not definitions
        ({"kind": "points"}, "unknown"),
        ([{"kind": "roem"}], "unknown"),
        ([{"kind": "points", "basis": "average"}], "unknown"),  # the kind fixes the basis
        ([{"kind": "points"}, {"kind": "points", "best_of": 6}], "ranking_twice"),
        ([{"kind": "points", "best_of": 0}], "side_best_of"),
        ([{"kind": "points", "best_of": "6"}], "side_best_of"),
        ([{"kind": "points", "best_of": True}], "side_best_of"),
        ([{"kind": "marsen", "min_attendance": -1}], "side_min_attendance"),
        ([{"kind": "marsen", "min_attendance": None}], "side_min_attendance"),
        ([{"kind": "marsen", "min_attendance": 2.5}], "side_min_attendance"),
    ],
)
def test_clean_refuses_a_bad_side_ranking(club, side_rankings, code):
    with pytest.raises(ValidationError) as caught:
        season(club, side_rankings).full_clean()
    assert [error.code for error in caught.value.error_dict["side_rankings"]] == [code]


def test_the_admin_refuses_a_bad_side_ranking_and_saves_nothing(client, club):
    good = [{"kind": "points", "best_of": 6, "min_attendance": 4}]
    competition = factories.competition(club, side_rankings=good)
    change = reverse("admin:tournaments_competition_change", args=[competition.pk])
    bad = json.dumps([{"kind": "points", "best_of": 0, "min_attendance": 4}])
    errors = admin_change_errors(client, change, side_rankings=bad)
    assert list(errors) == ["side_rankings"]
    competition.refresh_from_db()
    assert competition.side_rankings == good
    other = json.dumps([{"kind": "marsen", "min_attendance": 2}])
    assert admin_change_errors(client, change, side_rankings=other) is None
    competition.refresh_from_db()
    assert competition.side_rankings == [{"kind": "marsen", "best_of": None, "min_attendance": 2}]


@pytest.mark.parametrize(
    "side, sentence",
    [
        (
            SideRanking(kind=Side.POINTS),
            "Also ranked: the puntenkampioen: most total points "
            "(all counting evenings, no minimum).",
        ),
        (
            SideRanking(kind=Side.POINTS, best_of=6, min_attendance=4),
            "Also ranked: the puntenkampioen: most total points (each player's best 6 "
            "evenings; ranked from 4 evenings played, others below the line).",
        ),
        (
            SideRanking(kind=Side.MARSEN, best_of=1),
            "Also ranked: the most marsen (each player's best evening; no minimum).",
        ),
        (
            SideRanking(kind=Side.MARSEN, min_attendance=1),
            "Also ranked: the most marsen (all counting evenings; ranked from 1 evening "
            "played, others below the line).",
        ),
    ],
)
def test_the_words_state_each_side_rankings_own_definition(side, sentence):
    with translation.override("en"):
        assert describe_side_ranking(side) == sentence


def test_the_competition_page_states_the_scores_prizes_and_rankings(client, club):
    competition = factories.competition(
        club,
        sitout_score=1600,
        absence_policy="fixed",
        absence_score=4000,
        absence_unit="evening",
        prize_rule="first_n",
        prize_places=3,
        best_of=6,
        min_attendance=4,
        side_rankings=[{"kind": "points", "best_of": None, "min_attendance": 0}],
    )
    client.force_login(factories.role(club, "member"))
    page = client.get(competition.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").text
    for sentence in (
        "Sitting out a round scores 1600.",
        "Players who called in get 4000 for the evening.",
        "The first 3 places of an evening win a prize.",
        "The poedelprijs goes to the lowest score of those who played the whole evening",
        "Only each player&#x27;s best 6 evenings count.",
        "Players need 4 evenings to be ranked",
        "Also ranked: the puntenkampioen: most total points (all counting evenings",
        "Players left over sit out, by turns over the season.",
    ):
        assert sentence in page
    # The draw's sentences are stated once, not once for the rules and once for the scores.
    assert page.count("Players left over sit out") == 1


def test_side_rankings_stored_as_bare_kinds_still_read_as_every_evening_no_minimum(client, club):
    """A club archive made before side rankings had their own best N and minimum
    brings ``["points", "marsen"]`` in as it was (the archive import saves rows as
    they are): the pages read them as every counting evening, no minimum."""
    competition = factories.competition(club)
    Competition.objects.filter(pk=competition.pk).update(side_rankings=["points", "marsen"])
    competition.refresh_from_db()
    assert competition.side_ranking_definitions() == [
        SideRanking(kind=Side.POINTS),
        SideRanking(kind=Side.MARSEN),
    ]
    for name in ("results:standings", "tournaments:competition-detail"):
        url = reverse(name, kwargs={"club": club.slug, "pk": competition.pk})
        assert client.get(url).status_code == 200


class _SideWrappers(HTMLParser):
    """Each ``data-side-ranking`` wrapper of a page: its kind, whether it is hidden,
    and the names of the inputs and the ``for`` of the labels inside it."""

    def __init__(self):
        super().__init__()
        self.wrappers, self._open, self._depth = [], None, 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "div":
            if self._open is not None:
                self._depth += 1
            elif "data-side-ranking" in attrs:
                self._open = {
                    "kind": attrs["data-side-ranking"],
                    "hidden": "hidden" in attrs,
                    "inputs": [],
                    "labels": [],
                }
                self.wrappers.append(self._open)
        elif self._open is not None and tag == "input":
            self._open["inputs"].append((attrs.get("name"), attrs.get("id")))
        elif self._open is not None and tag == "label":
            self._open["labels"].append(attrs.get("for"))

    def handle_endtag(self, tag):
        if tag == "div" and self._open is not None:
            if self._depth:
                self._depth -= 1
            else:
                self._open = None


@pytest.mark.parametrize("page_name", ["competition-create", "competition-edit"])
def test_the_form_marks_each_side_rankings_numbers_with_their_kind(client, club, page_name):
    """static/js/side-rankings.js shows a kind's numbers only while it is ticked: it
    finds them by the wrapper's data-side-ranking. Without JavaScript they show."""
    competition = factories.competition(
        club, side_rankings=[{"kind": "points", "best_of": 6, "min_attendance": 4}]
    )
    client.force_login(factories.role(club, "director"))
    kwargs = {"club": club.slug}
    if page_name == "competition-edit":
        kwargs["pk"] = competition.pk
    page = client.get(reverse(f"tournaments:{page_name}", kwargs=kwargs)).text
    reader = _SideWrappers()
    reader.feed(page)
    assert [wrapper["kind"] for wrapper in reader.wrappers] == [
        kind for kind in Competition.SideRanking.values for _ in ("best_of", "min_attendance")
    ]
    for wrapper, name in zip(reader.wrappers, SIDE_FIELDS, strict=True):
        assert wrapper["inputs"] == [(name, f"id_{name}")]
        assert wrapper["labels"] == [f"id_{name}"]
        assert not wrapper["hidden"]
    for kind in Competition.SideRanking.values:
        assert f'type="checkbox" name="side_rankings" value="{kind}"' in page
    assert "js/side-rankings.js" in page

"""Declared roem (match-1500, seed 003) through the site: the table and the director
enter what each team declared ("50+20+stuk"), the core applies "only the single
highest run counts, a tie to the playing team", and the hand keeps both."""

import re
import uuid

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from scoring import services
from scoring.models import AuditEntry, Game, Hand
from scoring.services import HandInput
from tests import factories
from tests.scoring.test_offline import Phone
from tests.scoring.test_table_entry import entry_url, hand_data

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _site_language_after():
    """Requests made in English leave English active in this thread; the tests after
    these expect the site's language."""
    from django.conf import settings
    from django.utils import translation

    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def match(club, director):
    return factories.drawn_round(club, director, players=4, ruleset_preset="match-1500")


@pytest.fixture
def rotterdam(club, director):
    return factories.drawn_round(club, director, players=4, ruleset_preset="rotterdam")


def declared(playing, points_a, a="", b="", pit=""):
    """A hand in this module's notation: what wij (``a``) and zij (``b``) declared."""
    return factories.hand_input(playing, points_a, declared_a=a, declared_b=b, pit=pit)


# --- The service -------------------------------------------------------------------------


def test_a_hand_stores_what_was_declared_and_the_roem_that_counts(match):
    hand = services.hand_record(game=match.game, data=declared("A", 100, "20", "50"), keeper="A")
    hand.refresh_from_db()
    assert (hand.declared_a, hand.declared_b) == ("20", "50")
    assert (hand.roem_a, hand.roem_b) == (0, 50)
    assert (hand.score_a, hand.score_b) == (100, 112)
    game = Game.objects.get(pk=match.game.pk)
    assert (game.total_a, game.total_b) == (100, 112)
    assert (game.roem_a, game.roem_b) == (0, 50)


def test_equal_runs_go_to_the_playing_team_which_keeps_its_50_when_nat(match):
    hand = services.hand_record(game=match.game, data=declared("B", 100, "50", "50"), keeper="A")
    assert (hand.score_a, hand.score_b) == (162, 50)
    assert hand.nat
    assert (hand.roem_a, hand.roem_b) == (0, 50)


def test_against_a_pit_only_the_pit_teams_declarations_count(match):
    """The example of docs/rules.md, "When roem counts": A pits, A declared 20, B
    declared 50: B took no trick, so it has no run to compare, and A banks 162 + 100
    + 20."""
    data = declared("A", 162, "20", "50", "A")
    hand = services.hand_record(game=match.game, data=data, keeper="A")
    hand.refresh_from_db()
    assert (hand.declared_a, hand.declared_b) == ("20", "50")
    assert (hand.roem_a, hand.roem_b) == (20, 0)
    assert (hand.score_a, hand.score_b) == (282, 0)


def test_declarations_are_stored_in_the_written_form(match):
    hand = services.hand_record(
        game=match.game, data=declared("A", 100, " S + 20,50 ", ""), keeper="A"
    )
    assert hand.declared_a == "50+20+stuk"
    assert hand.roem_a == 90
    audit = AuditEntry.objects.get(game=match.game)
    assert audit.after["declared_a"] == "50+20+stuk"


@pytest.mark.parametrize(
    ("a", "b", "field", "text"),
    [
        ("30", "", "declared_a", "50+20+stuk"),
        ("", "stuk+x", "declared_b", "50+20+stuk"),
        ("stuk", "stuk", "declared_a", "one trump king and queen"),
        ("20+20+20+20+20", "", "declared_a", "at most two runs"),
    ],
)
def test_declarations_no_hand_holds_are_refused_on_their_field(match, a, b, field, text):
    with translation.override("en"):
        with pytest.raises(ValidationError) as info:
            services.hand_record(game=match.game, data=declared("A", 100, a, b), keeper="A")
        assert field in info.value.message_dict
        assert text in " ".join(info.value.message_dict[field])
    assert not Hand.objects.filter(game=match.game).exists()


def test_totals_under_declared_roem_are_the_roem_that_counts(match):
    hand = services.hand_record(
        game=match.game,
        data=HandInput(playing="A", points_a=100, points_b=62, roem_a=0, roem_b=50),
        keeper="A",
    )
    assert (hand.declared_a, hand.declared_b, hand.score_b) == ("", "", 112)
    assert not hand.has_declarations


def test_in_trick_competitions_ignore_declarations(rotterdam):
    data = HandInput(
        playing="A", points_a=100, points_b=62, roem_a=20, roem_b=0, declared_a="50", declared_b=""
    )
    hand = services.hand_record(game=rotterdam.game, data=data, keeper="A")
    assert (hand.roem_a, hand.declared_a, hand.score_a) == (20, "", 120)


# --- The table's page -------------------------------------------------------------------


def test_the_entry_page_asks_for_declarations_with_run_and_stuk_buttons(client, match):
    page = client.get(entry_url(match.table)).content.decode()
    assert 'name="declared_a"' in page and 'name="declared_b"' in page
    assert 'name="roem_a"' not in page
    assert 'data-declare="50"' in page and 'data-declare="stuk"' in page
    assert "vierkaart (50)" in page  # Dutch, the default language


def test_the_entry_page_of_an_in_trick_competition_has_no_declarations(client, rotterdam):
    page = client.get(entry_url(rotterdam.table)).content.decode()
    assert 'name="roem_a"' in page
    assert "declared_a" not in page and "data-declare" not in page


def test_the_form_posts_declarations_and_the_sheet_shows_declared_and_counted(client, match):
    client.cookies["django_language"] = "en"
    data = hand_data(declared_a="20+stuk", declared_b="50")
    response = client.post(entry_url(match.table, "table-hand"), data)
    assert response.status_code == 302
    hand = Hand.objects.get(game=match.game)
    assert (hand.declared_a, hand.declared_b, hand.roem_a, hand.roem_b) == ("20+stuk", "50", 20, 50)
    assert (hand.score_a, hand.score_b) == (120, 112)
    page = client.get(entry_url(match.table)).content.decode()
    row = re.search(r'<tr id="hand-1">.*?</tr>', page, re.S).group(0)
    assert "+20" in row and "(20+stuk)" in row
    assert "+50" in row and "(50)" in row
    assert "what the team declared" in page


def test_the_form_shows_a_refused_declaration_on_its_field(client, match):
    client.cookies["django_language"] = "en"
    response = client.post(entry_url(match.table, "table-hand"), hand_data(declared_a="30"))
    assert response.status_code == 422
    field = response.context["hand_form"]["declared_a"]
    assert field.errors and "50+20+stuk" in field.errors[0]
    assert not Hand.objects.exists()


def test_the_preview_says_what_counts(client, match):
    client.cookies["django_language"] = "en"
    params = {"playing": "A", "points_a": "100", "declared_a": "20", "declared_b": "50"}
    answer = client.get(entry_url(match.table, "table-preview"), params).json()
    assert answer["ok"] is True
    assert (answer["a"], answer["b"]) == (100, 112)
    assert answer["roem"] == [0, 50]
    assert "roem that counts: wij 0, zij 50" in answer["text"]
    assert not Hand.objects.exists()


def test_the_preview_names_the_declaration_it_cannot_read(client, match):
    client.cookies["django_language"] = "en"
    params = {"playing": "A", "points_a": "100", "declared_a": "drie"}
    answer = client.get(entry_url(match.table, "table-preview"), params).json()
    assert answer["ok"] is False
    assert "50+20+stuk" in answer["errors"]["declared_a"][0]["message"]


def test_the_json_endpoint_takes_declarations(match):
    phone = Phone(match.table)
    body = {
        "client_id": str(uuid.uuid4()),
        "number": 1,
        "keeper": "A",
        "playing": "B",
        "points_a": 100,
        "points_b": 62,
        "declared_a": "50",
        "declared_b": "50+stuk",
        "pit": "",
        "trump": "",
    }
    response = phone.send(body)
    assert response.status_code == 201, response.content
    hand = response.json()["hand"]
    assert (hand["declared_a"], hand["declared_b"]) == ("50", "50+stuk")
    assert (hand["roem_a"], hand["roem_b"]) == (0, 70)
    assert (hand["score_a"], hand["score_b"]) == (162, 70)
    assert "declared 50–50+stuk" in hand["text"]


def test_the_json_endpoint_refuses_a_bad_declaration_on_its_field(match):
    phone = Phone(match.table)
    body = {
        "client_id": str(uuid.uuid4()),
        "number": 1,
        "keeper": "A",
        "playing": "A",
        "points_a": 100,
        "declared_a": "stuk",
        "declared_b": "stuk",
    }
    response = phone.send(body)
    assert response.status_code == 422
    assert "declared_a" in response.json()["errors"]
    assert not Hand.objects.exists()


# --- The director's grid ------------------------------------------------------------------


def _sheet_post(rows, *, version=0, reason=""):
    data = {"rows": str(len(rows) + 1), "version": str(version), "reason": reason}
    for number, row in enumerate(rows, start=1):
        for name, value in row.items():
            data[f"h{number}-{name}"] = str(value)
    return data


def _sheet_url(club, table):
    return reverse("scoring:game-sheet", kwargs={"club": club.slug, "pk": table.pk})


def test_the_grid_has_a_declarations_field_per_team(client, club, director, match):
    client.force_login(director)
    page = client.get(_sheet_url(club, match.table)).content.decode()
    assert 'name="h1-declared_a"' in page and 'name="h1-declared_b"' in page


def test_the_grid_of_an_in_trick_competition_has_no_declarations(client, club, director, rotterdam):
    client.force_login(director)
    page = client.get(_sheet_url(club, rotterdam.table)).content.decode()
    assert "declared_a" not in page
    assert 'name="h1-roem_a"' in page


def test_the_grid_enters_declarations_and_shows_them_again(client, club, director, match):
    client.force_login(director)
    rows = [
        {"playing": "A", "points_a": 100, "declared_a": "20", "declared_b": "50"},
        {"playing": "B", "points_a": 100, "declared_a": "50", "declared_b": "50"},
    ]
    response = client.post(_sheet_url(club, match.table), _sheet_post(rows))
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get(pk=match.game.pk)
    assert (game.total_a, game.total_b) == (262, 162)
    hands = list(game.hands.order_by("number"))
    assert [(h.declared_a, h.declared_b) for h in hands] == [("20", "50"), ("50", "50")]
    page = client.get(_sheet_url(club, match.table)).content.decode()
    field = re.search(r'<input[^>]*name="h2-declared_b"[^>]*>', page).group(0)
    assert 'value="50"' in field
    # The counted roem is derived: a declared-roem grid has no roem-total columns.
    assert 'name="h1-roem_b"' not in page and 'name="h1-roem_a"' not in page


def test_the_grid_names_the_row_and_field_of_a_bad_declaration(client, club, director, match):
    client.force_login(director)
    client.cookies["django_language"] = "en"
    rows = [
        {"playing": "A", "points_a": 100, "declared_a": "20"},
        {"playing": "A", "points_a": 100, "declared_a": "stuk+stuk"},
    ]
    response = client.post(_sheet_url(club, match.table), _sheet_post(rows))
    assert response.status_code == 422
    assert "Hand 2" in response.content.decode()
    assert response.context["sheet"].forms[1].errors
    assert not Hand.objects.exists()


# --- A whole match to 1500, entered as declared -------------------------------------------

# (playing, card points A, declared A, declared B, pit) -> (banked A, banked B), by
# seed 003's rule, counted by hand: no trick, no roem first (against a pit only the pit
# team's declarations count), then runs only for the single highest run's team (a
# tie to the playing team), stuk always, nat: 0 card points, each keeps its roem.
MATCH = [
    (("A", 100, "20", "50", ""), (100, 112)),  # B's run of four beats A's run of three
    (("B", 100, "50", "50", ""), (162, 50)),  # a tie goes to B, who plays and is nat
    (("A", 120, "50+stuk", "20", ""), (190, 42)),  # A's run and stuk; B's run lost
    (("B", 30, "", "100+20", ""), (30, 252)),
    (("A", 162, "50", "100", "A"), (312, 0)),  # pit: B took no trick, no run to compare
    (("A", 70, "20+20", "stuk", ""), (40, 182)),  # A nat: keeps its two runs
    (("B", 60, "100", "50+50", ""), (160, 102)),  # single highest: A's run of five
    (("A", 140, "50+20", "", ""), (210, 22)),
    (("B", 0, "", "100+50+stuk", "B"), (0, 432)),
    (("A", 90, "stuk", "20", ""), (110, 92)),  # stuk is no run: B's run of three counts
]


def test_a_whole_match_1500_entered_as_declared_comes_out_by_the_seeds_rule(match):
    game = match.game
    for (playing, points_a, a, b, pit), banked in MATCH:
        hand = services.hand_record(game=game, data=declared(playing, points_a, a, b, pit))
        assert (hand.score_a, hand.score_b) == banked, hand.number
    game.refresh_from_db()
    assert game.hands_entered == len(MATCH)
    expected_a = sum(a for _, (a, _b) in MATCH)
    expected_b = sum(b for _, (_a, b) in MATCH)
    assert (game.total_a, game.total_b) == (expected_a, expected_b) == (1314, 1286)
    assert game.status == Game.Status.OPEN  # nobody has 1500 yet
    # The hand that takes B past 1500 ends the match.
    services.hand_record(game=game, data=declared("B", 40, "", "100+100", ""))
    game.refresh_from_db()
    assert (game.total_a, game.total_b) == (1354, 1608)
    assert game.status == Game.Status.COMPLETE and game.winner == "B"


# --- The hand log: export and import ------------------------------------------------------


def _match_rows(columns_only_roem=False):
    """The whole match above as hand-log rows, declarations in their own columns."""
    rows = []
    for number, ((playing, points_a, a, b, pit), _banked) in enumerate(MATCH, start=1):
        rows.append(
            {
                "date": "2026-10-06",
                "round": 1,
                "table": 1,
                "hand": number,
                "north": "Anna",
                "south": "Bert",
                "east": "Cor",
                "west": "Dirk",
                "playing": playing,
                "points_a": points_a,
                "points_b": 162 - points_a,
                "declared_a": a,
                "declared_b": b,
                "pit": pit,
            }
        )
    return rows


def _csv(rows, columns):
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([row.get(column, "") for column in columns])
    return buffer.getvalue().encode()


IMPORT_COLUMNS = (
    "date", "round", "table", "hand", "north", "south", "east", "west",
    "playing", "points_a", "points_b", "declared_a", "declared_b", "pit",
)  # fmt: skip


def _import(competition, data, filename="hands.csv"):
    from scoring.exports import importers

    return importers.results_import_apply(
        club=competition.club,
        competition=competition,
        data=data,
        filename=filename,
        create_members=True,
    )


def test_a_hand_log_with_declaration_columns_imports_by_the_seeds_rule(club):
    from scoring.exports import importers

    competition = factories.competition(club, ruleset_preset="match-1500")
    rows = _match_rows()
    # Cells as a club writes them: Dutch word case, spaces, a lone number.
    rows[2]["declared_a"] = "50 + Stuk"
    data = _csv(rows, IMPORT_COLUMNS)
    found = importers.results_import_preview(
        club=club, competition=competition, data=data, filename="hands.csv", create_members=True
    )
    assert found.ok, [str(p) for p in found.problems]
    _import(competition, data)
    game = Game.objects.get(table__round__evening__competition=competition)
    assert (game.total_a, game.total_b) == (1314, 1286)
    hands = list(game.hands.order_by("number"))
    assert [(h.score_a, h.score_b) for h in hands] == [banked for _, banked in MATCH]
    assert hands[2].declared_a == "50+stuk"
    assert (hands[0].roem_a, hands[0].roem_b) == (0, 50)


def test_a_bad_declaration_in_the_hand_log_names_its_row_and_column(club):
    from scoring.exports import importers

    competition = factories.competition(club, ruleset_preset="match-1500")
    rows = _match_rows()
    rows[3]["declared_b"] = "100+30"
    rows[5]["declared_a"] = "stuk"  # B declared stuk too in that hand
    data = _csv(rows, IMPORT_COLUMNS)
    with pytest.raises(importers.ImportRejected) as info:
        _import(competition, data)
    problems = {(p.row, p.column) for p in info.value.problems}
    assert problems == {(5, "declared_b"), (7, "declared_a")}
    assert not Hand.objects.exists()


def test_a_roem_column_beside_declarations_is_checked_against_the_roem_that_counts(club):
    from scoring.exports import importers

    competition = factories.competition(club, ruleset_preset="match-1500")
    rows = _match_rows()
    rows[0].update(roem_a=20, roem_b=50)  # A's run of three does not count
    data = _csv(rows, (*IMPORT_COLUMNS, "roem_a", "roem_b"))
    with pytest.raises(importers.ImportRejected) as info:
        _import(competition, data)
    [problem] = info.value.problems
    assert (problem.row, problem.column) == (2, "roem_a")


def test_declarations_in_an_in_trick_competition_are_refused(club):
    from scoring.exports import importers

    competition = factories.competition(club)
    rows = _match_rows()[:1]
    data = _csv(rows, IMPORT_COLUMNS)
    with pytest.raises(importers.ImportRejected) as info:
        _import(competition, data)
    assert info.value.problems[0].column == "declared_a"


def test_the_hand_log_of_a_declared_match_exports_and_imports_with_identical_totals(club, match):
    from scoring.exports import csv as csv_export
    from scoring.exports import handlog, importers, xlsx

    for (playing, points_a, a, b, pit), _banked in MATCH:
        services.hand_record(game=match.game, data=declared(playing, points_a, a, b, pit))
    competition = match.evening.competition
    for writer, filename in (
        (csv_export.hand_log_csv, "log.csv"),
        (xlsx.hand_log_xlsx, "log.xlsx"),
    ):
        data = writer(handlog.hand_log_rows(competition))
        copy = importers.results_import_apply(
            club=factories.club(name=f"Hersteld {filename}"),
            new_competition={"name": "Kopie", "ruleset_preset": "match-1500"},
            data=data,
            filename=filename,
            create_members=True,
        ).competition
        restored = Game.objects.get(table__round__evening__competition=copy)
        assert (restored.total_a, restored.total_b) == (1314, 1286)
        original = list(match.game.hands.order_by("number"))
        again = list(restored.hands.order_by("number"))
        assert [services.hand_snapshot(h) for h in again] == [
            services.hand_snapshot(h) for h in original
        ]
        # And the copy exports the same declarations again.
        assert (
            csv_export.hand_log_csv(handlog.hand_log_rows(copy)).split(b"\r\n")[1:]
            == (csv_export.hand_log_csv(handlog.hand_log_rows(competition)).split(b"\r\n")[1:])
        )


# --- The printed score sheet --------------------------------------------------------------


def test_the_pdf_score_sheet_shows_what_was_declared_and_what_counted(match):
    from django.utils import translation

    from scoring.exports import pdf, reports, table_entry_path
    from tests.scoring.exports.conftest import pdf_pages

    for (playing, points_a, a, b, pit), _banked in MATCH[:3]:
        services.hand_record(game=match.game, data=declared(playing, points_a, a, b, pit))
    with translation.override("en"):
        sheets = reports.round_sheets(
            round_=match.table.round, entry_url=table_entry_path, filled=True
        )
        [text] = pdf_pages(pdf.scoresheets_pdf(sheets))
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    # Hand 1: wij declared a run of three that did not count, zij a run of four that did.
    assert "0 (20)" in lines and "50 (50)" in lines
    # Hand 3: wij's run and stuk both count (the cell may wrap).
    assert "120 70 (50+stuk) 42 0 (20)" in " ".join(lines)
    assert "what the team declared" in text
    [row] = sheets.sheets[0].rows[:1]
    assert row.declared == ("20", "50") and row.roem == (0, 50)


def test_the_pdf_score_sheet_of_an_in_trick_game_has_no_declarations(rotterdam):
    from django.utils import translation

    from scoring.exports import pdf, reports, table_entry_path
    from tests.scoring.exports.conftest import pdf_pages

    services.hand_record(
        game=rotterdam.game,
        data=HandInput(playing="A", points_a=100, points_b=62, roem_a=20),
    )
    with translation.override("en"):
        sheets = reports.round_sheets(
            round_=rotterdam.table.round, entry_url=table_entry_path, filled=True
        )
        [text] = pdf_pages(pdf.scoresheets_pdf(sheets))
    assert "declared" not in text and "(" not in text.split("Total")[0].split("Dealer")[-1]


def test_the_trick_checkers_link_prefills_the_declarations(client, match):
    query = "playing=B&points_a=79&points_b=83&declared_a=stuk&declared_b=100%2B50%2B20&hand=1"
    form = client.get(f"{entry_url(match.table)}?{query}").context["hand_form"]
    assert (form.initial["declared_a"], form.initial["declared_b"]) == ("stuk", "100+50+20")


def test_an_in_trick_entry_page_ignores_declarations_in_the_link(client, rotterdam):
    query = "playing=B&points_a=79&declared_a=stuk&roem_a=20"
    form = client.get(f"{entry_url(rotterdam.table)}?{query}").context["hand_form"]
    assert "declared_a" not in form.initial and form.initial["roem_a"] == "20"

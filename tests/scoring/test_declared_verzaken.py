"""Declared roem (match-1500) and verzaken together, and verzaken in the roefel of a
match-500 game: the service, the phone's JSON, the entry page, the preview, the grid,
the hand log export and import, the PDF score sheet and the trick checker's link."""

import re
import uuid

import pytest
from django.core.exceptions import ValidationError

from common.csvfile import dialect
from scoring import rules, services
from scoring.exports import csv as csv_export
from scoring.exports import handlog, importers, pdf, reports, table_entry_path, xlsx
from scoring.models import Game, Hand
from scoring.services import HandInput
from tests import factories
from tests.scoring.exports.conftest import pdf_pages
from tests.scoring.test_declared_roem import declared
from tests.scoring.test_director_pages import sheet_url
from tests.scoring.test_offline import Phone
from tests.scoring.test_table_entry import entry_url, hand_data

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(settings):
    """The source strings: pages follow the browser, services the active language."""
    from django.utils import translation

    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def match(club, director):
    return factories.drawn_round(club, director, players=4, ruleset_preset="match-1500")


@pytest.fixture
def match_500(club, director):
    return factories.drawn_round(club, director, players=4, ruleset_preset="match-500")


def verzaakt(team, playing, a="", b=""):
    """A hand in ``declared``'s notation that ``team`` reneged."""
    return factories.hand_input(playing, verzaakt=team, declared_a=a, declared_b=b)


# --- The service ---------------------------------------------------------------------------


def test_a_declared_verzaken_hand_stores_the_declarations_and_gives_all_that_counts_away(match):
    # A plays and reneges; B's run of four beats A's run of three, B's stuk counts.
    hand = services.hand_record(game=match.game, data=verzaakt("A", "A", "20", "50+stuk"))
    hand.refresh_from_db()
    assert (hand.verzaakt, hand.declared_a, hand.declared_b) == ("A", "20", "50+stuk")
    assert (hand.points_a, hand.points_b, hand.roem_a, hand.roem_b) == (0, 162, 0, 70)
    assert (hand.score_a, hand.score_b, hand.nat) == (0, 162 + 70 + 100, False)
    game = Game.objects.get(pk=match.game.pk)
    assert (game.total_a, game.total_b) == (0, 332)
    assert (game.verzaken_a, game.verzaken_b, game.nat_a, game.roem_b) == (1, 0, 0, 70)


def test_the_game_banks_the_offenders_counted_roem_for_the_other_team(match):
    # B reneges: A's run of five and B's stuk count, and wij bank all of it.
    services.hand_record(game=match.game, data=verzaakt("B", "A", "100", "20+stuk"))
    game = Game.objects.get(pk=match.game.pk)
    assert (game.total_a, game.total_b, game.roem_a, game.roem_b) == (382, 0, 120, 0)
    assert (game.verzaken_a, game.verzaken_b) == (0, 1)


def test_a_declared_verzaken_hand_refuses_two_stuks_on_the_declarations_field(match):
    with pytest.raises(ValidationError) as info:
        services.hand_record(game=match.game, data=verzaakt("B", "A", "stuk", "stuk"))
    assert "declared_a" in info.value.message_dict
    assert not Hand.objects.exists()


# --- The phone: the entry page and its JSON --------------------------------------------------


def test_the_entry_page_of_a_declared_match_has_declarations_and_the_verzaakt_choice(client, match):
    page = client.get(entry_url(match.table)).text
    assert 'data-declare="50"' in page and 'data-declare="stuk"' in page
    assert 'name="declared_a"' in page and 'name="roem_a"' not in page
    for value in ("", "A", "B"):
        assert f'name="verzaakt" value="{value}"' in page
    assert "Enter what each team declared; the card points are left empty." in page


def test_the_json_endpoint_takes_a_declared_verzaken_hand_without_card_points(match):
    phone = Phone(match.table)
    body = {
        "client_id": str(uuid.uuid4()),
        "number": 1,
        "keeper": "A",
        "playing": "B",
        "points_a": None,
        "points_b": None,
        "declared_a": "50",
        "declared_b": "50+stuk",
        "pit": "",
        "trump": "",
        "verzaakt": "B",
    }
    response = phone.send(body)
    assert response.status_code == 201, response.content
    hand = response.json()["hand"]
    # Equal runs go to B, who plays; B reneged, so its run and stuk go to wij.
    assert (hand["verzaakt"], hand["declared_a"], hand["declared_b"]) == ("B", "50", "50+stuk")
    assert (hand["points_a"], hand["points_b"], hand["roem_a"], hand["roem_b"]) == (162, 0, 0, 70)
    assert (hand["score_a"], hand["score_b"], hand["nat"]) == (332, 0, False)
    assert hand["text"] == "zij played, card points 162–0, declared 50–50+stuk, zij verzaakt"
    stored = Hand.objects.get()
    assert (stored.verzaakt, stored.declared_b, stored.score_a) == ("B", "50+stuk", 332)


def test_the_json_endpoint_refuses_a_bad_declaration_of_a_verzaken_hand_on_its_field(match):
    phone = Phone(match.table)
    body = {
        "client_id": str(uuid.uuid4()),
        "number": 1,
        "keeper": "A",
        "playing": "A",
        "declared_a": "",
        "declared_b": "20+x",
        "verzaakt": "A",
    }
    response = phone.send(body)
    assert response.status_code == 422, response.content
    assert "declared_b" in response.json()["errors"]
    assert not Hand.objects.exists()


def test_the_form_posts_a_declared_verzaken_hand_and_the_sheet_shows_v_and_declared(client, match):
    data = hand_data(
        match.game, playing="A", points_a="", verzaakt="B", declared_a="100", declared_b="20+stuk"
    )
    response = client.post(entry_url(match.table, "table-hand"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    hand = Hand.objects.get()
    # A's run of five beats B's run of three; B's stuk counts; all of it to wij.
    assert (hand.roem_a, hand.roem_b, hand.score_a, hand.score_b) == (100, 20, 382, 0)
    page = client.get(entry_url(match.table)).text
    row = re.search(r'<tr id="hand-1">.*?</tr>', page, re.S).group(0)
    wij, zij = re.findall(r"<td class=\"num (?:wij|zij).*?</td>", row, re.S)
    assert "<strong>382</strong>" in wij and "+120" in wij and "(100)" in wij
    assert 'class="verzaakt"' in zij and "(20+stuk)" in zij and 'class="verzaakt"' not in wij
    assert "that team reneged" in page and "what the team declared" in page


def test_the_preview_of_a_declared_verzaken_hand_says_who_and_what_counts(client, match):
    query = {"playing": "A", "verzaakt": "A", "declared_a": "stuk", "declared_b": "50"}
    answer = client.get(entry_url(match.table, "table-preview"), query).json()
    assert answer["ok"], answer
    assert (answer["a"], answer["b"], answer["verzaakt"], answer["roem"]) == (0, 332, "A", [20, 50])
    assert answer["text"] == (
        "wij verzaakt: wij bank 0, zij bank 332 · roem that counts: wij 20, zij 50"
    )
    assert not Hand.objects.exists()


def test_the_trick_checkers_verzaken_link_prefills_the_declarations(client, match):
    query = {
        "verzaakt": "A",
        "playing": "B",
        "declared_a": "50",
        "declared_b": "50+stuk",
        "trump": "H",
        "hand": "1",
    }
    response = client.get(entry_url(match.table), query)
    form = response.context["hand_form"]
    assert form.initial["verzaakt"] == "A"
    assert (form.initial["declared_a"], form.initial["declared_b"]) == ("50", "50+stuk")
    assert '<input type="radio" name="verzaakt" value="A" id="id_verzaakt_1" checked>' in (
        response.text
    )


# --- The director's grid ----------------------------------------------------------------------


def grid(rows, *, total_rows=3):
    data = {"rows": str(total_rows), "version": "0", "reason": "", "confirm": ""}
    names = (
        "playing", "points_a", "points_b", "roem_a", "roem_b",
        "declared_a", "declared_b", "pit", "verzaakt",
    )  # fmt: skip
    for number in range(1, total_rows + 1):
        row = rows[number - 1] if number <= len(rows) else {}
        for name in names:
            data[f"h{number}-{name}"] = str(row.get(name, ""))
    return data


def test_the_grid_records_a_declared_verzaken_row_and_shows_it_again(client, director, match):
    client.force_login(director)
    rows = [
        {"playing": "A", "points_a": "100", "declared_a": "20", "declared_b": "50"},
        {"playing": "B", "verzaakt": "A", "declared_a": "stuk", "declared_b": "100"},
    ]
    response = client.post(sheet_url(match.table), grid(rows))
    assert response.status_code == 302, response.content.decode()[:2000]
    second = Hand.objects.get(number=2)
    assert (second.verzaakt, second.declared_a, second.declared_b) == ("A", "stuk", "100")
    assert (second.roem_a, second.roem_b, second.score_a, second.score_b) == (20, 100, 0, 382)
    game = Game.objects.get(pk=match.game.pk)
    assert (game.total_a, game.total_b, game.verzaken_a) == (100, 112 + 382, 1)
    page = client.get(sheet_url(match.table))
    initial = page.context["sheet"].forms[1].initial
    assert (initial["verzaakt"], initial["declared_a"], initial["declared_b"]) == (
        "A",
        "stuk",
        "100",
    )


def test_the_grid_names_the_row_of_a_bad_declared_verzaken_row(client, director, match):
    client.force_login(director)
    rows = [{"playing": "A", "verzaakt": "B", "declared_a": "stuk", "declared_b": "stuk"}]
    response = client.post(sheet_url(match.table), grid(rows))
    assert response.status_code == 422
    assert "declared_a" in response.context["sheet"].forms[0].errors
    assert not Hand.objects.exists()


# --- The hand log and the score sheet --------------------------------------------------------

#: A match to 1500 in progress: played hands and verzaken hands, all declared.
HANDS = [
    declared("A", 100, "20", "50"),
    verzaakt("B", "B", "50", "50+stuk"),
    declared("A", 120, "50+stuk", "20"),
    verzaakt("A", "A", "100", ""),
    declared("B", 30, "", "100+20"),
]


def test_a_declared_match_with_verzaken_round_trips_through_the_hand_log(club, match):
    for data in HANDS:
        services.hand_record(game=match.game, data=data)
    competition = match.season
    original = list(match.game.hands.order_by("number"))
    data = csv_export.hand_log_csv(handlog.hand_log_rows(competition))
    header, *lines = data.decode("utf-8-sig").splitlines()
    separator = dialect().delimiter  # the site's one CSV dialect, by the active language
    columns = header.split(separator)
    verzaakt, declared_b = (str(handlog.TITLES[key]) for key in ("verzaakt", "declared_b"))
    assert {verzaakt, declared_b} <= set(columns)
    cells = [line.split(separator) for line in lines]
    wij, zij = (str(team.column) for team in rules.Team)
    assert [row[columns.index(verzaakt)] for row in cells] == ["", zij, "", wij, ""]
    assert [row[columns.index(declared_b)] for row in cells] == [
        "50",
        "50+stuk",
        "20",
        "",
        "100+20",
    ]
    for writer, filename in (
        (csv_export.hand_log_csv, "log.csv"),
        (xlsx.hand_log_xlsx, "log.xlsx"),
    ):
        copy = importers.results_import_apply(
            club=factories.club(name=f"Hersteld {filename}"),
            new_competition={"name": "Kopie", "ruleset_preset": "match-1500"},
            data=writer(handlog.hand_log_rows(competition)),
            filename=filename,
            create_members=True,
        ).competition
        restored = Game.objects.get(table__round__evening__competition=copy)
        again = list(restored.hands.order_by("number"))
        assert [services.hand_snapshot(h) for h in again] == [
            services.hand_snapshot(h) for h in original
        ]
        stored = Game.objects.get(pk=match.game.pk)
        fields = ("total_a", "total_b", "verzaken_a", "verzaken_b", "nat_a", "nat_b")
        assert [getattr(restored, f) for f in fields] == [getattr(stored, f) for f in fields]
        assert (restored.verzaken_a, restored.verzaken_b) == (1, 1)
        assert (
            csv_export.hand_log_csv(handlog.hand_log_rows(copy)).split(b"\r\n")[1:]
            == (data.split(b"\r\n")[1:])
        )


def test_the_pdf_score_sheet_marks_a_declared_verzaken_hand_with_v_and_the_declarations(match):
    services.hand_record(game=match.game, data=declared("A", 100, "20", "50"))
    services.hand_record(game=match.game, data=verzaakt("B", "A", "100", "20+stuk"))
    sheets = reports.round_sheets(round_=match.round, entry_url=table_entry_path, filled=True)
    second = sheets.sheets[0].rows[1]
    assert (second.mark, second.declared) == (("", "V"), ("100", "20+stuk"))
    # Wij write 162 and 100 + 20 + the 100 penalty as roem; zij 0 and a V.
    assert (second.points, second.roem) == ((162, 0), (220, 0))
    [text] = pdf_pages(pdf.scoresheets_pdf(sheets))
    joined = " ".join(line.strip() for line in text.splitlines() if line.strip())
    assert "162 220 (100) 0 0 (20+stuk) V" in joined


# --- Verzaken in the roefel (match-500) -------------------------------------------------------


def test_a_verzaken_in_the_roefel_is_played_by_the_forehands_team_with_clubs(match_500):
    hand = services.hand_record(
        game=match_500.game,
        data=HandInput(playing="B", points_a=0, points_b=162, roem_b=20, verzaakt="A"),
    )
    assert (hand.number, hand.playing, hand.trump, hand.verzaakt) == (1, "B", "C", "A")
    assert (hand.score_a, hand.score_b) == (0, 162 + 20 + 100)


def test_a_verzaken_in_the_roefel_by_the_wrong_team_is_refused(match_500):
    with pytest.raises(ValidationError) as info:
        services.hand_record(
            game=match_500.game,
            data=HandInput(playing="A", points_a=162, points_b=0, verzaakt="B"),
        )
    assert "roefel" in " ".join(info.value.message_dict["playing"])
    assert not Hand.objects.exists()


def test_the_grid_says_what_to_enter_for_a_verzaken_hand_as_the_phone_does(
    client, director, match, match_500
):
    client.force_login(director)
    declared = client.get(sheet_url(match.table)).text
    assert "Enter what each team declared; the card points are left empty." in declared
    assert "Enter the roem of the hand" not in declared
    totals = client.get(sheet_url(match_500.table)).text
    # The grid reads a row as the score sheet writes it: the penalty in the roem column.
    assert "in the other team&#x27;s roem column the penalty of 100 plus all roem" in totals
    assert "Enter what each team declared" not in totals
    phone = client.get(entry_url(match_500.table)).text
    assert "Enter the roem of the hand; the card points are left empty." in phone

"""A whole club evening in the browser, as the wedstrijdleider and a table see it.

The wedstrijdleider logs in, creates a season and an evening through the pages,
checks in 13 players, draws round 1 (one sits out) and hands out the table
links. Table 1's scorer opens the link on a phone and enters a whole boompje
by keyboard and taps (a nat, a pit, roem by the buttons); a player of the
other team confirms. The wedstrijdleider enters table 2 from its paper sheet
(the grid page), table 3 comes in through the services (as its phone would
send it). The evening overview shows every table complete; the wedstrijdleider
checks the live evening result, closes the evening and finds the season
standings: every player's total is the one ``scoring.rules.score_hand``
gives for the hands entered (plus the sit-out score). The standings download
as .xlsx and PDF, and both files read back with the same numbers.
"""

import re

import pytest

from scoring import services
from scoring.rules import get_ruleset, score_hand
from scoring.selectors import game_confirmers
from scoring.services import HandInput
from tests import factories
from tests.browser.conftest import login
from tournaments.models import Competition, Seat, Table

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = 13

#: Table 1's boompje as the phone enters it: (playing, card points wij, roem wij,
#: roem zij, pit). Hand 2 and 15 are nat, hand 5 is 81-81 (nat), hand 3 a pit.
PHONE_HANDS = [
    ("A", 100, 20, 0, ""),
    ("B", 90, 0, 0, ""),  # zij played and has 72: nat
    ("A", 162, 50, 0, "A"),  # wij took every trick: pit
    ("B", 40, 0, 20, ""),  # zij's stuk
    ("A", 81, 0, 0, ""),  # 81-81: not more than half, nat
    ("A", 120, 0, 20, ""),
    ("B", 30, 0, 0, ""),
    ("A", 110, 0, 0, ""),
    ("B", 70, 20, 0, ""),  # zij 92 against 90: made
    ("A", 100, 0, 0, ""),
    ("B", 60, 0, 0, ""),
    ("A", 95, 100, 0, ""),  # four of a kind
    ("B", 50, 0, 0, ""),
    ("A", 130, 0, 0, ""),
    ("B", 82, 0, 0, ""),  # zij 80 against 82: nat
    ("A", 101, 0, 0, ""),
]
#: The paper sheets of tables 2 and 3: (playing, card points wij, roem wij, roem zij, pit).
SHEETS = [
    [("A" if n % 2 else "B", 60 + 5 * n, 20 if n % 5 == 0 else 0, 0, "") for n in range(16)],
    [("B" if n % 3 else "A", 140 - 6 * n, 0, 50 if n == 7 else 0, "") for n in range(16)],
]


def totals(hands):
    """The game's totals by the rules core, from the hands as entered."""
    ruleset = get_ruleset("rotterdam")
    a = b = 0
    for playing, points_a, roem_a, roem_b, pit in hands:
        result = score_hand(
            ruleset,
            playing=playing,
            points=(points_a, 162 - points_a),
            roem=(roem_a, roem_b),
            pit=pit or None,
        )
        a, b = a + result.scores[0], b + result.scores[1]
    return a, b


def expected_points(round_id, games, sitout_score):
    """{player name: evening points}: the team's game total, or the sit-out score."""
    points = {}
    for seat in Seat.objects.filter(round_id=round_id).select_related("member", "table"):
        if seat.table_id is None:
            points[seat.member.name] = sitout_score
        else:
            a, b = games[seat.table.number]
            points[seat.member.name] = a if seat.position in "NS" else b
    return points


def table_points(page, selector):
    """{player name: points} from a results table on the page (the "Punten" column)."""
    return page.eval_on_selector(
        selector,
        """table => {
            const heads = [...table.querySelectorAll("thead th")].map(th => th.innerText.trim());
            const name = heads.findIndex(h => /Speler/.test(h));
            const points = heads.findIndex(h => /Punten/.test(h));
            const rows = {};
            for (const tr of table.querySelectorAll("tbody tr")) {
                // A name links to the player's page; a prize badge may follow it.
                const cells = [...tr.querySelectorAll("td")].map(
                    td => (td.querySelector("a") || td).innerText.trim());
                if (cells.length > points) rows[cells[name]] = cells[points];
            }
            return rows;
        }""",
    )


def number(text):
    return int(re.sub(r"[^\d-]", "", text))


def test_a_club_evening_from_season_to_standings(page, phone, live_server, shot, tmp_path):
    # Every hand is a possible one, and the game ends after 16 (no tie).
    phone_totals = totals(PHONE_HANDS)
    assert phone_totals[0] != phone_totals[1]
    assert all(totals(sheet)[0] != totals(sheet)[1] for sheet in SHEETS)

    club = factories.club(name="KC De Boom", slug="de-boom")
    factories.role(club, "director", factories.user("leider"))
    for n in range(1, PLAYERS + 1):
        factories.member(club, f"Speler {n:02d}")

    # --- The wedstrijdleider: season, evening, attendance, draw --------------------------
    login(page, live_server, "leider")
    page.goto(f"{live_server.url}/clubs/de-boom/")
    page.click("text=Nieuwe competitie")
    page.fill("#id_name", "Wintercompetitie 2026-2027")
    page.fill("#id_start_date", "2026-09-01")
    page.fill("#id_end_date", "2027-05-31")
    page.fill("#id_rounds_per_evening", "1")
    shot(page, "season-form")
    page.click("form.stacked button[type=submit]")
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == "Wintercompetitie 2026-2027"
    season = Competition.objects.get(club=club)

    page.click("text=Nieuwe avond")
    page.fill("#id_date", "2026-10-06")
    page.click("form.stacked button[type=submit]")
    page.wait_for_load_state()
    shot(page, "evening-created")

    page.click("a.button:has-text('Aanwezigheid')")
    # A tap before the page's script runs is a plain post (and reloads): wait for it first.
    page.wait_for_url("**/attendance/")
    page.wait_for_load_state("load")
    page.evaluate("window.noReload = true")  # marking present must not reload the page
    for n in range(1, PLAYERS + 1):
        row = f"#attendance li:has-text('Speler {n:02d}')"
        page.click(f"{row} button.mark-present")
        page.wait_for_selector(f"{row} .badge.status-present")
    assert page.locator("#present-count").inner_text() == str(PLAYERS)
    assert page.evaluate("window.noReload") is True
    shot(page, "attendance")

    evening = season.evenings.get()
    page.click(f"a[href='/clubs/de-boom/evenings/{evening.pk}/']")
    page.wait_for_load_state()
    # 13 present: the one left over sits out (the club's default). Every member is
    # present, so nobody could fill in at tables of three: the page does not offer
    # them and says why.
    assert page.locator("[name=odd_mode]").input_value() == "sitout"
    assert page.locator("select[name=odd_mode]").count() == 0
    assert page.locator("#draw-note").is_visible()
    page.click("button:has-text('Ronde 1 loten')")
    page.wait_for_load_state()
    shot(page, "round-1-drawn")
    assert page.locator("section.plan-table").count() == 3
    sitting_out = page.locator("h2:has-text('Uitloters') + p").inner_text()
    assert re.fullmatch(r"Speler \d\d", sitting_out), sitting_out
    tables = {t.number: t for t in Table.objects.filter(round__evening=evening)}
    round_id = tables[1].round_id
    link = page.locator(f"a[href='/t/{tables[1].token}/']").first
    entry_url = live_server.url + link.get_attribute("href")

    # --- Table 1's phone: a boompje by keyboard and taps ------------------------------------
    phone.goto(entry_url)
    shot(phone, "phone-table-link")
    for number_, (playing, points_a, roem_a, roem_b, pit) in enumerate(PHONE_HANDS, start=1):
        form = phone.locator("#hand-form")
        assert f"Spel {number_} opslaan" in form.locator("button.save").inner_text()
        if number_ == 1:
            form.locator("fieldset.keeper label.segment").first.tap()
        form.locator("fieldset.playing label.segment").nth(0 if playing == "A" else 1).tap()
        if pit:
            form.locator("details.more-fields summary").tap()  # pit is folded away
            form.locator("fieldset.pit-choice label.segment").nth(1 if pit == "A" else 2).tap()
            assert form.locator("#id_points_a").input_value() == "162"
        elif number_ % 2:
            form.locator("#id_points_a").tap()
            form.locator("#id_points_a").press_sequentially(str(points_a))
        else:
            # The other way round: zij's card points typed, wij's follow.
            form.locator("#id_points_b").tap()
            form.locator("#id_points_b").press_sequentially(str(162 - points_a))
            assert form.locator("#id_points_a").input_value() == str(points_a)
        for field, roem in (("id_roem_a", roem_a), ("id_roem_b", roem_b)):
            buttons = form.locator(f".roem-buttons[data-for={field}]")
            for add in {20: ["20"], 50: ["50"], 100: ["100"]}.get(roem, []):
                buttons.locator(f"button[data-add='{add}']").first.tap()
            assert form.locator(f"#{field}").input_value() in ("", str(roem))
        if number_ == 3:
            expect_text(phone, "#preview", "312")
            shot(phone, "phone-pit-preview")
        if number_ == 2:
            expect_text(phone, "#preview", "NAT")
            shot(phone, "phone-nat-preview")
        # Saved in place: the hand comes on the sheet without a page load.
        if number_ % 3:
            form.locator("button.save").tap()
        else:
            form.locator("#id_roem_a").press("Enter")
        phone.wait_for_selector(f"#score-sheet #hand-{number_}", state="attached")
        problems = phone.locator(".alert:visible")
        assert problems.count() == 0, problems.all_inner_texts()
    shot(phone, "phone-16-hands")

    # The other team confirms on the same phone.
    confirm = phone.locator("#confirm-form")
    shown = confirm.locator(".totals").inner_text()
    assert [number(x) for x in re.findall(r"\d[\d.]*", shown)] == list(phone_totals)
    zij = [s.player_name for s in Seat.objects.filter(table=tables[1], position__in="EW")]
    assert sorted(confirm.locator("label.segment").all_inner_texts()) == sorted(zij)
    confirm.locator("label.segment").first.tap()
    with phone.expect_navigation():
        confirm.locator("button[type=submit]").tap()
    assert "Bevestigd" in phone.locator("#hand-status").inner_text()
    shot(phone, "phone-confirmed")

    # --- The other tables: table 2 from its paper sheet (the grid page), table 3 as
    # its own phone would (the services the pages call) ----------------------------------
    page.goto(f"{live_server.url}/clubs/de-boom/tables/{tables[2].pk}/sheet/")
    for row, (playing, points_a, roem_a, roem_b, _pit) in enumerate(SHEETS[0], start=1):
        page.select_option(f"select[name=h{row}-playing]", playing)
        page.fill(f"input[name=h{row}-points_a]", str(points_a))
        if roem_a:
            page.fill(f"input[name=h{row}-roem_a]", str(roem_a))
        if roem_b:
            page.fill(f"input[name=h{row}-roem_b]", str(roem_b))
    assert page.locator("input[name=confirm]").is_checked()
    shot(page, "sheet-table-2")
    with page.expect_navigation():
        page.click("button:has-text('Tellijst opslaan')")
    assert "/scores/" in page.url, page.locator(".alert, .errorlist").all_inner_texts()
    game = tables[3].game
    for playing, points_a, roem_a, roem_b, pit in SHEETS[1]:
        data = HandInput(playing, points_a, 162 - points_a, roem_a, roem_b, pit)
        game = services.hand_record(game=game, data=data, keeper="A").game
    services.game_confirm(game=game, name=game_confirmers(game)[0])

    # --- The overview: every table complete -------------------------------------------------
    page.goto(f"{live_server.url}/clubs/de-boom/evenings/{evening.pk}/scores/")
    for table in tables.values():
        assert page.locator(f"#table-{table.pk}.status-confirmed").count() == 1
    assert page.locator("p.all-done").count() == 1
    shot(page, "overview-all-confirmed")

    games = {1: phone_totals, 2: totals(SHEETS[0]), 3: totals(SHEETS[1])}
    expected = expected_points(round_id, games, season.sitout_score)
    expected_text = {name: str(points) for name, points in expected.items()}

    # --- Live: the evening result ------------------------------------------------------------
    page.goto(f"{live_server.url}/clubs/de-boom/evenings/{evening.pk}/result/")
    shot(page, "evening-result-live")
    live = table_points(page, "table")
    assert {k: number(v) for k, v in live.items()} == expected, live

    # --- Close the evening: the standings count it --------------------------------------------
    page.goto(f"{live_server.url}/clubs/de-boom/evenings/{evening.pk}/")
    questions = []
    page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.accept()))
    with page.expect_navigation():
        page.click("button:has-text('Avond afsluiten')")
    assert len(questions) == 1  # closing asks first
    shot(page, "evening-closed")
    page.goto(f"{live_server.url}/clubs/de-boom/competitions/{season.pk}/standings/")
    shot(page, "standings")
    standings = table_points(page, "table.standings")
    assert {k: number(v) for k, v in standings.items()} == expected, standings

    # --- The downloads read back ---------------------------------------------------------------
    assert page.locator(".export-links a").count() == 3  # PDF, Excel, CSV
    xlsx = download(page, ".export-links a:has-text('Excel')", tmp_path)
    shot(page, "standings-after-excel")
    pdf = open_pdf(page, ".export-links a:has-text('PDF')", tmp_path)
    check_xlsx(xlsx, expected_text)
    check_pdf(pdf, expected)


def expect_text(page, selector, text):
    page.wait_for_function(
        "([s, t]) => (document.querySelector(s)?.textContent || '').includes(t)",
        arg=[selector, text],
        timeout=5_000,
    )


def download(page, selector, folder):
    with page.expect_download() as info:
        page.click(selector)
    path = folder / info.value.suggested_filename
    info.value.save_as(path)
    return path


def open_pdf(page, selector, folder):
    """The "Print (PDF)" link opens the PDF in the browser's viewer (inline, to print;
    no download event): its bytes fetched again with the browser's cookies."""
    with page.expect_response(lambda r: r.url.split("?")[0].endswith(".pdf")) as info:
        page.click(selector)
    response = info.value
    assert response.status == 200
    assert response.headers["content-type"] == "application/pdf"
    again = page.context.request.get(response.url)
    assert again.status == 200
    path = folder / "standings.pdf"
    path.write_bytes(again.body())
    return path


def check_xlsx(path, expected):
    from openpyxl import load_workbook

    sheet = load_workbook(path, read_only=True).active
    rows = [
        [("" if c is None else str(c)) for c in row] for row in sheet.iter_rows(values_only=True)
    ]
    found = {}
    for row in rows:
        for name, points in expected.items():
            if name in row:
                found[name] = points in row
    assert found == dict.fromkeys(expected, True), rows[:20]


def check_pdf(path, expected):
    from pypdf import PdfReader

    lines = [
        line.strip() for page in PdfReader(path).pages for line in page.extract_text().splitlines()
    ]
    # One cell a line, row by row: the points follow the name.
    found = {lines[i]: lines[i + 1].replace(".", "") for i in range(len(lines) - 1)}
    assert {name: found.get(name) for name in expected} == {
        name: str(points) for name, points in expected.items()
    }, lines[:40]

"""The evening result and its TV board on a phone (issue 25): every player's total
(the points column) in view at 390 and 320 px wide, without sideways scrolling."""

import pytest

from scoring import services
from tests import factories
from tests.scoring.test_table_entry import names_of
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db(transaction=True)

PHONES = [{"width": 390, "height": 844}, {"width": 320, "height": 640}]


@pytest.fixture
def result_url(live_server, drawn_evening):
    """Three rounds of 12 players with long names, all confirmed, the evening closed:
    the widest result (a column per round, a winner's and a poedelprijs badge)."""
    club = factories.club(name="De Boom", slug="de-boom")
    director = factories.role(club, "director", factories.user("leider"))
    play = drawn_evening(club, director, players=12)
    for n, member in enumerate(club.members.order_by("pk")):
        member.name = f"Wilhelmina van der Schaaf-Oosterhout {n + 1}"
        member.save()
    for number in range(1, 4):
        if number > 1:
            tournament_services.round_draw(evening=play.evening, by=director, seed=number)
        for table in play.evening.rounds.get(number=number).tables.all():
            game = factories.hands(table.game, 16, points_a=60 + 10 * table.number, keeper="A")
            services.game_confirm(game=game, name=names_of(table).b[0])
    tournament_services.evening_set_status(evening=play.evening, status="finished", by=director)
    return f"{live_server.url}/clubs/de-boom/evenings/{play.evening.pk}/result/"


def totals(page):
    """Where the points column's cells are, and how wide the page is."""
    return page.evaluate(
        """() => {
          const table = document.querySelector('table.evening-result');
          const heads = [...table.tHead.rows[0].cells];
          const column = heads.findIndex(c => c.textContent.trim().startsWith('Punten'));
          const cells = [...table.tBodies[0].rows].map(r => r.cells[column]);
          return {
            column,
            scroll: document.documentElement.scrollWidth,
            inner: window.innerWidth,
            cells: cells.map(c => {
              const box = c.getBoundingClientRect();
              return {left: box.left, right: box.right, width: box.width,
                      text: c.textContent.trim()};
            }),
            note: getComputedStyle(document.querySelector('.narrow-note')).display,
            cut: heads.filter(c => c.offsetWidth > 0
                                   && c.getBoundingClientRect().right > window.innerWidth)
                      .map(c => c.textContent.trim()),
          };
        }"""
    )


@pytest.mark.parametrize("screen", PHONES, ids=lambda s: f"{s['width']}x{s['height']}")
@pytest.mark.parametrize("board", [False, True], ids=["result", "board"])
def test_every_players_total_is_in_view_on_a_phone(browser, result_url, screen, board, shot):
    context = browser.new_context(
        locale="nl-NL", viewport=screen, is_mobile=True, has_touch=True, device_scale_factor=2
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        page.goto(result_url + ("?board=1" if board else ""))
        if board:
            page.wait_for_selector("[data-board-ready]", state="attached")
        shot(page, "result")
        seen = totals(page)
        assert seen["column"] >= 0, seen
        assert seen["scroll"] <= seen["inner"], seen
        assert len(seen["cells"]) == 12
        for cell in seen["cells"]:  # every row shown (no paging on a phone), inside the width
            assert cell["width"] > 0 and cell["text"].isdigit(), cell
            assert cell["left"] >= 0 and cell["right"] <= seen["inner"], cell
        assert seen["note"] == "block"
        assert not seen["cut"], seen  # no column half in view (the table does not scroll)
    finally:
        context.close()


def test_on_a_tv_the_board_keeps_every_column_and_the_badges_are_readable(browser, result_url):
    context = browser.new_context(locale="nl-NL", viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    try:
        page.goto(result_url + "?board=1")
        page.wait_for_selector("[data-board-ready]", state="attached")
        sizes = page.evaluate(
            """() => {
              const table = document.querySelector('table.evening-result');
              const badge = table.querySelector('.badge.prize');
              return {
                hidden: [...table.tHead.rows[0].cells].filter(c => c.offsetWidth === 0).length,
                badge: parseFloat(getComputedStyle(badge).fontSize),
                row: parseFloat(getComputedStyle(badge.closest('td')).fontSize),
                note: getComputedStyle(document.querySelector('.narrow-note')).display,
              };
            }"""
        )
        assert sizes["hidden"] == 0 and sizes["note"] == "none", sizes
        assert sizes["badge"] >= 16 and sizes["badge"] >= 0.75 * sizes["row"], sizes
    finally:
        context.close()

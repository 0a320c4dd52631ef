"""The TV board (an evening's result with ?board=1) on a 1280x720 and a 1920x1080 screen."""

import pytest

from scoring import services
from tests import factories
from tests.scoring.test_table_entry import names_of

pytestmark = pytest.mark.django_db(transaction=True)

SCREENS = [{"width": 1280, "height": 720}, {"width": 1920, "height": 1080}]


def confirm(table):
    game = factories.hands(table.game, 16, keeper="A")
    services.game_confirm(game=game, name=names_of(table).b[0])


@pytest.fixture
def board(live_server, drawn_evening):
    """An evening of 40 players: nine tables confirmed, the tenth still open."""
    club = factories.club(name="De Boom", slug="de-boom")
    director = factories.role(club, "director", factories.user("leider"))
    play = drawn_evening(club, director, players=40)
    for table in play.tables[:9]:
        confirm(table)
    url = f"{live_server.url}/clubs/de-boom/evenings/{play.evening.pk}/result/?board=1"
    return play, url


def state(page):
    return page.evaluate(
        """() => {
          const table = document.querySelector('.table-wrap table');
          const shown = [...table.tBodies[0].rows].filter(r => !r.hidden);
          const heads = [...table.tHead.rows[0].cells].map(c => c.getBoundingClientRect());
          return {
            overflow: document.documentElement.scrollWidth - window.innerWidth,
            rows: table.tBodies[0].rows.length,
            shown: shown.map(r => r.cells[1].textContent.trim()),
            lowest: Math.max(...shown.map(r => r.getBoundingClientRect().bottom)),
            headsVisible: heads.every(r => r.width > 0 && r.left >= 0
                                          && r.right <= window.innerWidth && r.top >= 0),
            label: (document.querySelector('.board-page') || {}).textContent || '',
            live: (document.querySelector('.live') || {}).textContent || '',
            meta: !!document.querySelector('meta[http-equiv=refresh]'),
          };
        }"""
    )


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s['width']}x{s['height']}")
def test_the_board_fits_the_screen_and_pages_by_itself(browser, board, screen, shot):
    play, url = board
    context = browser.new_context(locale="nl-NL", viewport=screen)
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        page.goto(url)
        page.wait_for_selector("[data-board-ready]", state="attached")
        first = state(page)
        shot(page, "board-first-page")
        assert not first["meta"]
        assert first["overflow"] <= 0, first
        assert first["headsVisible"], first
        assert first["rows"] == 40
        assert 0 < len(first["shown"]) < 40 and first["lowest"] <= screen["height"], first
        assert first["label"].startswith("Pagina 1 van "), first
        # The next page comes by itself, with other players, still on screen.
        page.wait_for_function(
            "() => document.querySelector('.board-page').textContent.startsWith('Pagina 2 ')"
        )
        second = state(page)
        shot(page, "board-second-page")
        assert second["shown"] and not set(second["shown"]) & set(first["shown"])
        assert second["lowest"] <= screen["height"] and second["overflow"] <= 0
    finally:
        context.close()


def test_the_board_refreshes_its_data_in_place(browser, board):
    play, url = board
    context = browser.new_context(locale="nl-NL", viewport=SCREENS[0])
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        page.goto(url)
        page.wait_for_selector("[data-board-ready]", state="attached")
        assert "9 van 10" in state(page)["live"]
        page.evaluate("() => { window.stillTheSamePage = true; }")
        confirm(play.tables[9])
        page.wait_for_function(
            "() => document.querySelector('.live') === null"
            " || document.querySelector('.live').textContent.includes('10 van 10')",
            timeout=30_000,
        )
        assert page.evaluate("() => window.stillTheSamePage") is True  # no reload
        assert state(page)["rows"] == 40
    finally:
        context.close()

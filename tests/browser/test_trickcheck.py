"""The trick checker in the browser: the seed documents' worked examples, reneges
under both play rules, a whole hand scored, the copy into a table's score entry,
the roem calculator, no request per card and the page offline."""

import re
from urllib.parse import parse_qs, urlsplit

import pytest

from scoring.rules import describe_roem, simulate_deal
from tests import factories
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db(transaction=True)

SEATS = "NESW"


def open_checker(page, live_server, query=""):
    page.goto(f"{live_server.url}/trickcheck/{query}")
    page.wait_for_selector("#tc-grid button")


def setup(page, *, trump, leader, playing=None, rules=None):
    if rules:
        page.select_option("#tc-rules", rules)
    page.click(f"#tc-trump [data-trump={trump}]")
    page.click(f'#tc-leader [data-leader="{SEATS.index(leader)}"]')
    if playing:
        page.click(f"#tc-playing [data-playing={playing}]")


def switch_rules(page, name):
    """Change the rule set with the hand entered: the setup folds away after the first card."""
    if page.get_attribute("#tc-setup", "open") is None:
        page.click("#tc-setup-summary")
    page.select_option("#tc-rules", name)


def tap(page, cards):
    for code in cards.split():
        page.click(f"#tc-grid [data-card='{code}']")


def trick(page, number):
    return page.locator(f'.tc-trick[data-trick="{number}"]')


def verdicts(page, number):
    """{seat letter: verdict} of a trick's cards."""
    plays = trick(page, number).locator(".tc-play[data-seat]")
    return {
        plays.nth(i).get_attribute("data-seat"): plays.nth(i).get_attribute("data-verdict")
        for i in range(plays.count())
    }


def winner(page, number):
    return trick(page, number).locator("[data-winner]").get_attribute("data-winner")


def points(page, number):
    return int(trick(page, number).locator("[data-points]").get_attribute("data-points"))


def roem(page, number):
    return int(trick(page, number).locator("[data-roem]").get_attribute("data-roem"))


# --- Seed 003: "Examples — How Tricks Play Out", trump hearts, West leads -------------
# The seed tells each trick from "your" seat; here South is "you", North the partner,
# and the cards go clockwise from West: West, North, East, South. Where the seed names
# only some cards (examples 2 and 4) the others are small cards that follow suit.

SEED_003 = [
    # Example 1: follow suit; South's A♠ wins 25 (A 11 + 10 10 + K 4).
    ("example-1-follow-suit", "TS 7S KS AS", "S", 25),
    # Example 2: void in ♦, South trumps with 8♥ and beats the A♦ (A♦ 11 + K♦ 4).
    ("example-2-trumping-in", "AD 7D KD 8H", "S", 15),
    # Example 3: East trumps with 8♥, South must overtrump and plays J♥ (4 + 20).
    ("example-3-must-overtrump", "KD 7D 8H JH", "S", 24),
    # Example 4: North's A♣ wins; South discards 7♠ (Q 3 + A 11).
    ("example-4-partner-winning", "QC AC 9C 7S", "N", 14),
]


@pytest.mark.parametrize(
    ("name", "cards", "won_by", "worth"), SEED_003, ids=[s[0] for s in SEED_003]
)
def test_seed_003_trick_examples(page, live_server, shot, name, cards, won_by, worth):
    open_checker(page, live_server)
    setup(page, trump="H", leader="W")
    tap(page, cards)
    assert winner(page, 1) == won_by
    assert points(page, 1) == worth
    assert roem(page, 1) == 0
    # One trick shows no renege, but the hand is young: the verdicts stay open.
    assert set(verdicts(page, 1).values()) == {"open"}
    # The winner leads the next trick.
    assert page.get_attribute("#tc-prompt", "data-next") == won_by
    shot(page, name)


def test_seed_003_example_4_is_a_renege_under_rotterdam_only(page, live_server, shot):
    """Example 4's "partner is winning" exception is the Amsterdam rule. Under Rotterdam,
    South, void in ♣, had to trump: South's 9♥ in trick 2 proves South held a trump."""
    open_checker(page, live_server)
    setup(page, trump="H", leader="W", rules="rotterdam")
    tap(page, "QC AC 9C 7S")
    tap(page, "8C TC 9H")  # North leads; South trumps clubs with 9♥
    # The tap on 9♥ says so at once, where the thumb is.
    assert page.is_visible("#tc-alert")
    assert "9♥" in page.inner_text("#tc-alert")
    tap(page, "JC")
    assert verdicts(page, 1)["S"] == "renege"
    line = trick(page, 1).locator(".tc-line.renege")
    assert line.get_attribute("data-renege") == "S"
    assert line.get_attribute("data-rule") == "must_trump"
    text = line.inner_text()
    assert "Rotterdam" in text and "9♥" in text and "2" in text
    assert winner(page, 2) == "S"
    shot(page, "rotterdam-renege")

    switch_rules(page, "amsterdam")
    assert verdicts(page, 1)["S"] == "open"
    assert trick(page, 1).locator(".tc-line.renege").count() == 0
    shot(page, "amsterdam-no-renege")


def test_undertrump_is_a_renege_under_amsterdam_only(page, live_server, shot):
    """Seed 003's example 3 with South undertrumping: 7♥ under East's 8♥. Amsterdam
    (seeds 002, 004): no undertrump while holding another card, and South's 7♠ in
    trick 2 shows South held one. Rotterdam: an undertrump is forced when you cannot
    overtrump, and South showed no higher trump."""
    open_checker(page, live_server)
    setup(page, trump="H", leader="W", rules="amsterdam")
    tap(page, "KD 7D 8H 7H")
    assert winner(page, 1) == "E"
    tap(page, "AS 7S 8S 9S")  # East leads, South follows with 7♠
    assert verdicts(page, 1)["S"] == "renege"
    line = trick(page, 1).locator(".tc-line.renege")
    assert line.get_attribute("data-rule") == "opponent_no_undertrump"
    assert "Amsterdam" in line.inner_text() and "7♠" in line.inner_text()
    shot(page, "amsterdam-renege")

    switch_rules(page, "rotterdam")
    assert verdicts(page, 1)["S"] == "open"
    shot(page, "rotterdam-no-renege")


def test_amsterdam_undertrumping_the_partner_while_holding_a_higher_trump(page, live_server, shot):
    """Issue 15: clubs trumps, North trumps West's A♦ with 8♣ and South, void in ♦,
    plays 7♣ under it. South's K♣ in trick 2 shows South held a higher trump, so the
    undertrump is a renege under Amsterdam too (Board Game Arena calls it illegal)."""
    open_checker(page, live_server)
    setup(page, trump="C", leader="W", rules="amsterdam")
    tap(page, "AD 8C KD 7C")
    assert winner(page, 1) == "N"
    assert verdicts(page, 1)["S"] == "open"
    tap(page, "9S TS KC JS")  # North leads; South shows the K♣
    assert verdicts(page, 1)["S"] == "renege"
    line = trick(page, 1).locator(".tc-line.renege")
    assert line.get_attribute("data-rule") == "partner_trump_no_undertrump"
    text = line.inner_text()
    assert "Amsterdam" in text and "higher trump" in text and "K♣" in text
    shot(page, "amsterdam-partner-undertrump")


def test_failing_to_follow_suit_shown_by_a_later_card(page, live_server, shot):
    """The renege every club knows: East shows void in ♦ and later plays a ♦."""
    open_checker(page, live_server)
    setup(page, trump="S", leader="N")
    tap(page, "AD 7C 7D 8D")  # East plays a club on the A♦
    tap(page, "TD 9D QD KD")  # North leads again (A♦ won); East plays the 9♦
    assert verdicts(page, 1)["E"] == "renege"
    line = trick(page, 1).locator(".tc-line.renege")
    assert line.get_attribute("data-rule") == "follow_suit"
    assert "9♦" in line.inner_text()
    shot(page, "follow-suit-renege")


# --- Seeds 000 and 002: roem in the trick goes to the team that wins it ----------------


def test_roem_in_a_trick_goes_to_the_winner_with_its_reason(page, live_server, shot):
    """Seed 000: "If your queen completes a run with two enemy cards and they win the
    trick, the 20 roem is theirs." Trump clubs; West's K♥ takes J♥-Q♥-K♥."""
    open_checker(page, live_server)
    setup(page, trump="C", leader="W")
    tap(page, "KH QH JH 7S")
    assert winner(page, 1) == "W"
    assert roem(page, 1) == 20
    text = trick(page, 1).locator(".tc-line.roem").inner_text()
    assert "run of three ♥ J-Q-K" in text
    shot(page, "roem-to-the-winner")


@pytest.mark.parametrize(
    ("trump", "cards", "value", "reason"),
    [
        # Seed 000: runs use the natural order, so trump 9-10-J is a run.
        ("H", "9H TH JH 7C", 20, "run of three ♥ 9-10-J"),
        # Seed 002: run of three including trump K and Q is 40, of four 70.
        ("H", "KH QH JH 7S", 40, "run of three ♥ J-Q-K + stuk"),
        ("H", "KH QH JH TH", 70, "run of four ♥ 10-J-Q-K + stuk"),
        ("S", "7D 8D 9D TD", 50, "run of four ♦ 7-8-9-10"),
        ("D", "JC JD JH JS", 200, "four jacks"),
        ("D", "AC AD AH AS", 100, "four aces"),
        ("D", "KS QS 7H 8C", 0, ""),  # K + Q of a plain suit: no stuk
        ("H", "9C 9D 9H 9S", 0, ""),  # four nines score nothing
        ("C", "QC KC 7D 8D", 20, "stuk"),
    ],
)
def test_roem_calculator(page, live_server, shot, trump, cards, value, reason):
    open_checker(page, live_server)
    page.click("#tc-tab-roem")
    page.click(f"#tc-roem-trump [data-roem-trump={trump}]")
    for code in cards.split():
        page.click(f"#tc-roem-grid [data-card='{code}']")
    result = page.locator("#tc-roem-result")
    assert result.get_attribute("data-roem") == str(value)
    if reason:
        assert reason in result.inner_text()
    shot(page, "roem-calculator")


# --- A whole hand -------------------------------------------------------------------


def enter_deal(page, deal, rules=None):
    setup(
        page,
        trump=str(deal.trump),
        leader=SEATS[deal.tricks[0].leader],
        playing=str(deal.playing),
        rules=rules,
    )
    for t in deal.tricks:
        tap(page, " ".join(map(str, t.cards)))


def summary_cell(page, row, team):
    return page.locator(f'#tc-summary tr[data-row="{row}"] td[data-team="{team}"]').inner_text()


@pytest.mark.parametrize(
    ("rules", "seed"),
    [
        ("rotterdam", 150),  # wij go nat 79 + 20 against 83 + 20; the last trick decides it
        ("rotterdam", 28),  # zij take every trick: pit
        ("amsterdam", 0),  # wij make it with a run of four
        ("match-1500", 4),  # declared roem: zij's run and wij's stuk, counted from the cards
    ],
)
def test_whole_hand_agrees_with_the_core(page, live_server, shot, rules, seed):
    deal = simulate_deal(rules, seed=seed)
    result = deal.score()
    open_checker(page, live_server)
    enter_deal(page, deal, rules=rules)
    for number, t in enumerate(deal.tricks, 1):
        assert winner(page, number) == SEATS[t.winner]
        assert points(page, number) == t.points
    assert page.locator(".tc-play.legal").count() == 32
    assert page.locator(".tc-play.renege").count() == 0
    for team, index in (("A", 0), ("B", 1)):
        assert summary_cell(page, "points", team) == str(deal.points[index])
        assert summary_cell(page, "roem", team) == str(deal.roem[index])
        assert summary_cell(page, "banked", team) == str(result.scores[index])
    outcome = page.locator("[data-outcome]")
    assert outcome.get_attribute("data-outcome") == result.outcome.value
    if result.nat:
        assert "NAT" in outcome.inner_text()
        assert page.get_attribute(".tc-last", "data-decides") == "yes"
    if deal.pit:
        assert summary_cell(page, "pit", str(deal.pit)) == "+100"
    if deal.declarations.a or deal.declarations.b:
        text = page.inner_text("#tc-summary")
        for items in deal.declarations:
            assert describe_roem(items) in text
    assert page.locator("#tc-copy").count() == 0  # no table: nothing to copy into
    shot(page, f"hand-{rules}-{seed}")


def table_in_play(club):
    director = factories.role(club, "director")
    season = factories.competition(club)
    players = factories.members(club, 4)
    evening = factories.evening(season, present=players)
    round_ = tournament_services.round_draw(evening=evening, by=director, seed=1)
    return round_.tables.get()


def test_copy_into_the_tables_score_entry(page, live_server, shot):
    club = factories.club(slug="klaverblad")
    table = table_in_play(club)
    deal = simulate_deal("rotterdam", seed=150)  # North deals: East leads, as hand 1
    page.goto(f"{live_server.url}/trickcheck/?table={table.token}")
    page.wait_for_selector("#tc-grid button")
    assert "Rotterdam" in page.inner_text("#tc-rules-label")
    # The table's first hand: North deals, so East leads (chosen already).
    assert page.get_attribute('#tc-leader [data-leader="1"]', "aria-pressed") == "true"
    enter_deal(page, deal)
    copy = page.locator("#tc-copy")
    href = copy.get_attribute("href")
    parts = urlsplit(href)
    assert parts.path == f"/t/{table.token}/"
    query = {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
    assert query == {
        "playing": "A",
        "points_a": "79",
        "points_b": "83",
        "roem_a": "20",
        "roem_b": "20",
        "pit": "",
        "trump": "C",
        "hand": "1",
    }
    shot(page, "copy-button")
    copy.click()
    page.wait_for_load_state()
    assert urlsplit(page.url).path == f"/t/{table.token}/"
    assert page.locator("#hand-form").count() == 1
    shot(page, "entry-page")


def test_club_page_links_to_the_checker_with_the_clubs_rules(page, live_server, shot):
    club = factories.club(name="KC Amstel", slug="amstel", ruleset_preset="amsterdam")
    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    page.click(f'a[href="/trickcheck/clubs/{club.slug}/"]')
    page.wait_for_selector("#tc-grid button")
    assert "Amsterdam" in page.inner_text("#tc-rules-label")
    assert "Amsterdam" in page.inner_text("#tc-play-rule")
    shot(page, "club-checker")


# --- Offline, phone -----------------------------------------------------------------


def test_no_request_per_card_and_works_offline_once_loaded(page, live_server, shot):
    open_checker(page, live_server)
    page.wait_for_selector("#trickcheck[data-offline]")
    assert page.get_attribute("#trickcheck", "data-offline") == "ready"
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    setup(page, trump="H", leader="W", playing="A")
    tap(page, "TS 7S KS AS AD 7D KD 8H")
    page.click("#tc-tab-roem")
    page.click("#tc-roem-grid [data-card='JH']")
    page.click("#tc-tab-hand")
    assert requests == []

    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("#tc-grid button")
    assert winner(page, 2) == "E"  # the hand survives the reload (East trumped the A♦)
    tap(page, "9H")
    assert page.locator('.tc-trick[data-trick="3"] .tc-play').count() == 4
    shot(page, "offline")
    page.context.set_offline(False)


def test_phone_layout(phone, live_server, shot):
    open_checker(phone, live_server)
    shot(phone, "empty")
    setup(phone, trump="H", leader="W", playing="A", rules="rotterdam")
    tap(phone, "QC AC 9C 7S 8C TC 9H JC")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    box = phone.locator("#tc-grid [data-card='AS']").bounding_box()
    assert box["width"] >= 36 and box["height"] >= 40  # a thumb hits it
    shot(phone, "renege-on-phone")
    deal = simulate_deal("rotterdam", seed=150)
    phone.on("dialog", lambda dialog: dialog.accept())
    phone.click("#tc-reset")
    enter_deal(phone, deal)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert re.search(r"NAT", phone.inner_text("#tc-summary"))
    shot(phone, "hand-result-on-phone")


# The verdicts above are checked in English, the site's second language.
@pytest.fixture
def page(browser):
    context = browser.new_context(locale="en-US", viewport={"width": 1000, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture
def phone(browser):
    context = browser.new_context(
        locale="en-US",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


#: The cards whose rank (their first text: "10" of "10♠") breaks over lines or overflows.
ONE_LINE = """selector => [...document.querySelectorAll(selector)].filter(el => {
    const range = document.createRange();
    range.selectNodeContents(el.firstChild);
    const boxes = [...range.getClientRects()].filter(r => r.width);
    const below = boxes.some(a => boxes.some(b => b.top >= a.bottom - 1));
    return below || el.scrollWidth > el.clientWidth + 1;
}).map(el => el.textContent)"""


@pytest.mark.parametrize("width", [320, 195])
def test_a_ten_is_never_broken_over_two_lines_on_a_small_phone(browser, live_server, width):
    context = browser.new_context(locale="nl-NL", viewport={"width": width, "height": 700})
    page = context.new_page()
    try:
        open_checker(page, live_server)
        setup(page, trump="H", leader="W")
        tap(page, "TS")
        broken = page.evaluate(ONE_LINE, "#tc-grid button, .tc-play .card-label")
        assert page.locator(".tc-play .card-label", has_text="10").count() == 1
    finally:
        context.close()
    assert broken == []

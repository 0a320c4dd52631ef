"""An automated accessibility audit: axe-core in Debian's Chromium against the main pages,
at a phone's size (390x844) and a laptop's, failing on any serious or critical violation.

axe-core comes with the test extras (the axe-playwright-python wheel ships axe.min.js),
so nothing is downloaded at run time. It is put into the page with evaluate(), which a
strict Content-Security-Policy (script-src 'self') does not block.
"""

import re
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import gettext

from scoring.models import Game
from scoring.services import HandInput, game_confirm, hand_record
from tests import factories
from tests.browser.conftest import login
from tests.needs import missing

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"phone": (390, 844), "desktop": (1280, 900)}


def axe_source():
    try:
        import axe_playwright_python
    except ImportError:
        missing("accessibility audit skipped: pip install -e '.[test]' brings axe-core")
    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()


def audit(page):
    """The serious and critical violations axe-core finds on the page as it is."""
    if not page.evaluate("() => Boolean(window.axe)"):
        page.evaluate(axe_source())
    violations = page.evaluate(
        """async () => {
            const result = await window.axe.run(document, { resultTypes: ["violations"] });
            return result.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 5).map(n => n.target.join(" ")),
            }));
        }"""
    )
    return [v for v in violations if v["impact"] in ("serious", "critical")]


def assert_no_violations(found):
    """``found``: {page name: its violations}; fails naming each violation of each page."""
    problems = {name: violations for name, violations in found.items() if violations}
    assert not problems, "\n".join(
        f"{name}: {v['id']} ({v['impact']}): {v['help']} at {v['nodes']}"
        for name, violations in problems.items()
        for v in violations
    )


@pytest.fixture
def evening(club, drawn_evening):
    director = factories.role(club, "director", factories.user("leider"))
    played = drawn_evening(club, director)
    first, second = played.games
    for number in range(1, 17):
        hand_record(
            game=Game.objects.get(pk=first.pk),
            data=HandInput(
                playing="A" if number % 2 else "B",
                points_a=162 if number == 3 else 100,
                points_b=0 if number == 3 else 62,
                roem_a=20 if number == 2 else 0,
                pit="A" if number == 3 else None,
            ),
            number=number,
            keeper="A",
        )
    confirmer = played.tables[0].seats.first().player_name
    game_confirm(game=Game.objects.get(pk=first.pk), name=confirmer)
    for number in range(1, 4):
        hand_record(
            game=Game.objects.get(pk=second.pk),
            data=HandInput(playing="A", points_a=70, points_b=92),
            number=number,
            keeper="A",
        )
    return played


def pages(club, played):
    base = f"/clubs/{club.slug}"
    member = played.tables[0].seats.first().member
    return {
        "home": "/",
        "club": f"{base}/",
        "competition": f"{base}/competitions/{played.season.pk}/",
        "evening": f"{base}/evenings/{played.evening.pk}/",
        "evening scores": f"{base}/evenings/{played.evening.pk}/scores/",
        "round": f"{base}/rounds/{played.round.pk}/",
        "table entry": f"/t/{played.tables[1].token}/",
        "confirm": f"/t/{played.tables[0].token}/",
        "paper sheet": f"{base}/tables/{played.tables[1].pk}/sheet/",
        "evening result": f"{base}/evenings/{played.evening.pk}/result/",
        "tv board": f"{base}/evenings/{played.evening.pk}/result/?board=1",
        "attendance": f"{base}/evenings/{played.evening.pk}/attendance/",
        "delete evening": f"{base}/evenings/{played.evening.pk}/delete/",
        "delete competition": f"{base}/competitions/{played.season.pk}/delete/",
        "new member": f"{base}/members/new/",
        "standings": f"{base}/competitions/{played.season.pk}/standings/",
        "player": f"{base}/players/{member.pk}/",
        "trick checker": "/trickcheck/",
    }


@pytest.mark.parametrize("size", SIZES)
def test_the_main_pages_have_no_serious_accessibility_violations(
    browser, live_server, club, evening, size
):
    width, height = SIZES[size]
    context = browser.new_context(
        locale="nl-NL", viewport={"width": width, "height": height}, is_mobile=size == "phone"
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    found = {}
    try:
        page.goto(f"{live_server.url}/accounts/login/")
        found["login"] = audit(page)
        page.fill("#id_username", "leider")
        page.fill("#id_password", "wrong")
        page.click("button[type=submit]")
        page.wait_for_load_state()
        found["login refused"] = audit(page)
        login(page, live_server, "leider")
        for name, path in pages(club, evening).items():
            response = page.goto(f"{live_server.url}{path}")
            assert response.status == 200, f"{name}: {path} answered {response.status}"
            page.wait_for_load_state("load")
            found[name] = audit(page)
    finally:
        context.close()
    assert_no_violations(found)


def test_axe_runs_under_a_strict_content_security_policy(browser, live_server):
    context = browser.new_context()
    page = context.new_page()

    def strict(route):
        response = route.fetch()
        headers = {**response.headers, "content-security-policy": "script-src 'self'"}
        route.fulfill(response=response, headers=headers)

    try:
        page.route(f"{live_server.url}/accounts/login/", strict)
        page.goto(f"{live_server.url}/accounts/login/")
        blocked = page.evaluate(
            """() => new Promise(done => {
                document.addEventListener("securitypolicyviolation", () => done(true));
                const tag = document.createElement("script");
                tag.textContent = "window.inlineRan = true";
                document.head.appendChild(tag);
                setTimeout(() => done(!window.inlineRan), 500);
            })"""
        )
        assert blocked  # the policy is in force: an inline script tag would not run
        assert audit(page) == []
        assert page.evaluate("() => typeof window.axe.run") == "function"
    finally:
        context.close()


def contrast(first, second):
    def luminance(rgb):
        def channel(value):
            value /= 255
            return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

        r, g, b = (channel(v) for v in rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def rgb(css):
    return tuple(int(v) for v in css[css.index("(") + 1 : css.index(")")].split(",")[:3])


def test_fields_and_buttons_have_visible_borders_and_a_clear_focus_ring(
    phone, live_server, evening
):
    phone.goto(f"{live_server.url}/t/{evening.tables[1].token}/")
    for selector in ("[name=points_a]", "select[name=trump]", "#language", "footer button"):
        color = phone.eval_on_selector(selector, "el => getComputedStyle(el).borderTopColor")
        assert contrast(rgb(color), (255, 255, 255)) >= 3, f"{selector} border {color}"
    phone.focus("[name=points_a]")
    phone.keyboard.press("Tab")  # keyboard focus: :focus-visible
    ring = phone.evaluate(
        """() => { const s = getComputedStyle(document.activeElement);
                   return [s.outlineStyle, parseFloat(s.outlineWidth), s.outlineColor]; }"""
    )
    assert ring[0] == "solid" and ring[1] >= 3
    assert contrast(rgb(ring[2]), (255, 255, 255)) >= 3


def test_a_refused_login_is_announced_and_marks_the_fields(page, live_server, evening):
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "leider")
    page.fill("#id_password", "wrong")
    page.click("button[type=submit]")
    page.wait_for_selector("[role=alert]#login-error")
    assert page.get_attribute("#id_password", "aria-invalid") == "true"
    assert page.get_attribute("#id_password", "aria-describedby") == "login-error"


def test_at_200_percent_zoom_on_a_phone_the_pages_reflow_without_sideways_scrolling(
    browser, live_server, club, evening
):
    # A 390 px phone at 200% zoom: 195 CSS px wide.
    context = browser.new_context(locale="nl-NL", viewport={"width": 195, "height": 422})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        login(page, live_server, "leider")
        for path in (
            f"/t/{evening.tables[1].token}/",
            "/trickcheck/",
            f"/clubs/{club.slug}/rounds/{evening.round.pk}/",
        ):
            page.goto(f"{live_server.url}{path}")
            page.wait_for_load_state("load")
            wide = page.evaluate(
                """() => [document.documentElement.scrollWidth, window.innerWidth,
                          [...document.querySelectorAll('body *')].filter(el => {
                              const box = el.getBoundingClientRect();
                              return box.width && box.right > window.innerWidth + 1
                                  && !el.closest('.table-wrap');
                          }).slice(0, 5).map(el => el.tagName + '.' + el.className)]"""
            )
            assert wide[0] <= wide[1], f"{path} scrolls sideways: {wide}"
        page.goto(f"{live_server.url}/t/{evening.tables[1].token}/")
        inside = page.evaluate(
            """() => { const save = document.querySelector('button.save').getBoundingClientRect();
                       return save.left >= 0 && save.right <= window.innerWidth; }"""
        )
        assert inside, "the Save button leaves the screen"
    finally:
        context.close()


def test_a_refused_grid_names_real_ids_and_starts_at_the_first_wrong_field(
    page, live_server, club, evening
):
    login(page, live_server, "leider")
    page.goto(f"{live_server.url}/clubs/{club.slug}/tables/{evening.tables[1].pk}/sheet/")
    page.select_option("select[name=h4-playing]", "A")
    page.fill("input[name=h4-points_a]", "100")
    page.fill("input[name=h4-roem_a]", "30")  # no roem of 30 exists
    with page.expect_navigation():
        page.click(".sheet-form button[type=submit]")
    missing = page.evaluate(
        """() => [...document.querySelectorAll('[aria-describedby]')].flatMap(el =>
               el.getAttribute('aria-describedby').split(/\\s+/)
                 .filter(id => id && !document.getElementById(id)))"""
    )
    assert missing == []
    assert page.evaluate("() => document.activeElement.name") == "h4-roem_a"
    described = page.get_attribute("input[name=h4-roem_a]", "aria-describedby")
    assert "roem" in page.inner_text(f"#{described}")


def test_the_evening_overview_announces_only_the_tables_that_changed(
    page, live_server, club, evening
):
    login(page, live_server, "leider")
    page.clock.install()
    page.goto(f"{live_server.url}/clubs/{club.slug}/evenings/{evening.evening.pk}/scores/")
    assert page.get_attribute("#progress", "aria-live") is None  # not the whole table
    news = page.locator("#progress-news")
    assert news.get_attribute("role") == "status"
    first_rows = page.inner_html("#progress tbody")

    page.clock.run_for(16_000)  # nothing changed: nothing to announce, the table stays
    page.wait_for_timeout(500)
    assert news.inner_text() == ""
    assert page.inner_html("#progress tbody") == first_rows

    hand_record(
        game=Game.objects.get(pk=evening.games[1].pk),
        data=HandInput(playing="B", points_a=50, points_b=112),
        number=4,
    )
    page.clock.run_for(16_000)
    page.wait_for_function("() => document.querySelector('#progress-news').textContent !== ''")
    said = news.inner_text()
    assert "2" in said and "4/16" in said
    assert "1: " not in said  # table 1 did not change


def sideways(page):
    """How far the page scrolls sideways (0: not at all) and what sticks out."""
    return page.evaluate(
        """() => [document.documentElement.scrollWidth - window.innerWidth,
                  [...document.querySelectorAll('body *')].filter(el => {
                      const box = el.getBoundingClientRect();
                      return box.width && box.right > window.innerWidth + 1
                          && !el.closest('.table-wrap');
                  }).slice(0, 5).map(el => el.tagName + '.' + el.className)]"""
    )


@pytest.mark.parametrize("width", [390, 320, 195])
def test_the_phones_refused_hand_and_conflict_screen_pass_the_audit_and_fit_the_width(
    browser, live_server, evening, width
):
    """The table's phone in its error states: a hand the server refuses (the
    message beside its field) and two phones entering one hand differently (the
    conflict screen), audited by axe and without sideways scrolling at 320 and
    195 px (200% zoom)."""
    from tests.browser.test_offline_entry import enter

    context = browser.new_context(locale="nl-NL", viewport={"width": width, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    table = evening.tables[1]  # three hands entered
    try:
        page.goto(f"{live_server.url}/t/{table.token}/")
        page.wait_for_selector("#hand-form")
        assert sideways(page)[0] <= 0, sideways(page)
        enter(page, "A", 100, roem_a=30)  # no hand has 30 roem: refused beside the field
        page.wait_for_selector(".field.wij .field-error[role=alert]")
        assert audit(page) == []
        assert sideways(page)[0] <= 0, sideways(page)
        # Another phone stores hand 4 meanwhile; this one sends its own hand 4.
        hand_record(
            game=Game.objects.get(pk=table.game.pk),
            data=HandInput(playing="B", points_a=60, points_b=102),
            number=4,
        )
        page.fill("[name=roem_a]", "20")
        page.click("button.save")
        page.wait_for_selector("#on-phone-refusal button[data-action=replace]")
        assert audit(page) == []
        assert sideways(page)[0] <= 0, sideways(page)
        # The table keeps the stored hand 4: the form comes back for hand 5, no copy.
        page.click("#on-phone-refusal button[data-action=drop]")
        page.wait_for_selector("#hand-form:not([hidden])")
        assert page.inner_text("button.save").strip() == "Spel 5 opslaan"
        assert page.evaluate("() => document.activeElement.name") == "playing"
        assert list(table.game.hands.values_list("number", "points_a")) == [
            (1, 70),
            (2, 70),
            (3, 70),
            (4, 60),
        ]
    finally:
        context.close()


def test_text_grows_with_the_readers_font_size_setting(browser, live_server):
    """A reader who sets a larger default font size (Chromium's "Font size" setting) gets
    larger text and fields: the site sizes in rem from the browser's default, not in px."""
    context = browser.new_context(locale="nl-NL", viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:

        def sizes():
            page.goto(f"{live_server.url}/accounts/login/")
            return page.evaluate(
                """() => [document.documentElement, document.querySelector('h1'),
                          document.querySelector('#id_username')]
                         .map(el => parseFloat(getComputedStyle(el).fontSize))"""
            )

        normal = sizes()
        cdp = context.new_cdp_session(page)
        cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 24, "fixed": 20}})
        larger = sizes()
    finally:
        context.close()
    assert normal[0] == 16
    assert larger[0] == 24
    assert [round(big / small, 2) for big, small in zip(larger, normal, strict=True)] == [1.5] * 3


def test_no_style_sheet_fixes_a_font_size_in_pixels():
    static = Path(__file__).resolve().parents[2] / "static" / "css"
    fixed = [
        f"{sheet.name}: {line.strip()}"
        for sheet in sorted(static.glob("*.css"))
        for line in sheet.read_text(encoding="utf-8").splitlines()
        if re.search(r"font-size:\s*[\d.]+px", line) or re.search(r"\bfont:[^;]*\d+px", line)
    ]
    assert fixed == []


# --- After a form comes back with errors ---------------------------------------------

#: aria-describedby ids that name no element on the page.
MISSING_IDS = """() => [...document.querySelectorAll('[aria-describedby]')].flatMap(el =>
    el.getAttribute('aria-describedby').split(/\\s+/)
      .filter(id => id && !document.getElementById(id)).map(id => el.id + ' -> ' + id))"""


def send_with_errors(page, url, form, empty=(), filled=None):
    """Open ``url``, empty the ``empty`` fields of ``form`` (and fill ``filled``), and send
    it without the browser's own checks, so the server answers with its errors."""
    page.goto(url)
    for selector in empty:
        page.fill(f"{form} {selector}", "")
    for selector, value in (filled or {}).items():
        page.fill(f"{form} {selector}", value)
    page.eval_on_selector(form, "form => { form.noValidate = true; }")
    with page.expect_navigation():
        page.click(f"{form} button[type=submit]")


def error_pages(club, played):
    """(name, path, form, fields to empty, fields to fill) of forms sent back with errors."""
    base = f"/clubs/{club.slug}"
    member = played.tables[0].seats.first().member
    return [
        ("member form", f"{base}/members/{member.pk}/edit/", "main form.stacked", ["#id_name"], {}),
        ("new member", f"{base}/members/new/", "main form.stacked", ["#id_name"], {}),
        (
            "competition form",
            f"{base}/competitions/{played.season.pk}/edit/",
            "main form.stacked",
            ["#id_name"],
            {},
        ),
        ("club settings", f"{base}/settings/", "main form.stacked", ["#id_name"], {}),
        (
            "adjustment",
            f"{base}/evenings/{played.evening.pk}/scores/",
            "#adjustment-form",
            ["#id_reason"],
            {"#id_points": "20000"},
        ),
        (
            "password change",
            "/accounts/password_change/",
            "main form",
            [],
            {"#id_old_password": "wrong", "#id_new_password1": "x", "#id_new_password2": "y"},
        ),
    ]


@pytest.fixture
def admin(club):
    return factories.role(club, "admin", factories.user("beheer"))


def test_forms_sent_back_with_errors_have_no_serious_violations_on_a_small_phone(
    browser, live_server, club, evening, admin
):
    context = browser.new_context(
        locale="nl-NL", viewport={"width": 320, "height": 640}, is_mobile=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    found, missing_ids, unfocused = {}, {}, []
    try:
        send_with_errors(
            page, f"{live_server.url}/accounts/login/", "main form", filled={"#id_username": "x"}
        )
        found["login refused"] = audit(page)
        login(page, live_server, "beheer")
        for name, path, form, empty, filled in error_pages(club, evening):
            send_with_errors(page, f"{live_server.url}{path}", form, empty, filled)
            found[name] = audit(page)
            missing_ids[name] = page.evaluate(MISSING_IDS)
            if not page.evaluate("() => document.activeElement.matches('.error-summary')"):
                unfocused.append(name)
    finally:
        context.close()
    assert_no_violations(found)
    assert {name: ids for name, ids in missing_ids.items() if ids} == {}
    assert unfocused == []


def test_a_form_sent_back_with_errors_focuses_a_summary_that_leads_to_each_field(
    page, live_server, club, evening
):
    login(page, live_server, "leider")
    send_with_errors(
        page,
        f"{live_server.url}/clubs/{club.slug}/evenings/{evening.evening.pk}/scores/",
        "#adjustment-form",
        ["#id_reason"],
        {"#id_points": "20000"},
    )
    summary = page.locator(".error-summary")
    assert page.evaluate("() => document.activeElement.className") == "error-summary"
    with translation.override("nl"):  # "Er is een probleem", "Fout:" once translated
        heading, prefix = gettext("There is a problem"), gettext("Error:")
    assert summary.locator("[role=alert] h2").inner_text() == heading
    assert page.title().startswith(f"{prefix} ")
    links = summary.locator("a")
    assert [links.nth(i).get_attribute("href") for i in range(links.count())] == [
        "#id_target",  # no player or team chosen
        "#id_points",
        "#id_reason",
    ]
    assert "Punten" in links.nth(1).inner_text() and "10000" in links.nth(1).inner_text()
    # The summary comes before the form it speaks of.
    assert page.evaluate(
        """() => Boolean(document.querySelector('.error-summary').compareDocumentPosition(
                 document.querySelector('#adjustment-form')) & Node.DOCUMENT_POSITION_FOLLOWING)"""
    )
    links.nth(2).click()
    assert page.evaluate("() => document.activeElement.id") == "id_reason"


def test_a_page_without_errors_has_no_summary_and_keeps_its_focus(page, live_server, evening):
    page.goto(f"{live_server.url}/accounts/login/")
    assert page.locator(".error-summary").count() == 0
    assert page.evaluate("() => document.activeElement.id") == "id_username"  # autofocus

"""An automated accessibility audit: axe-core in Debian's Chromium against the main pages,
at a phone's size (390x844) and a laptop's, failing on any serious or critical violation.

axe-core comes with the test extras (the axe-playwright-python wheel ships axe.min.js),
so nothing is downloaded at run time. It is put into the page with evaluate(), which a
strict Content-Security-Policy (script-src 'self') does not block.
"""

from pathlib import Path

import pytest

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
    problems = {name: violations for name, violations in found.items() if violations}
    assert not problems, "\n".join(
        f"{name}: {v['id']} ({v['impact']}): {v['help']} at {v['nodes']}"
        for name, violations in problems.items()
        for v in violations
    )


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
            """() => { const card = document.querySelector('#hand-form').getBoundingClientRect();
                       const save = document.querySelector('button.save').getBoundingClientRect();
                       return save.left >= card.left && save.right <= card.right; }"""
        )
        assert inside, "the Save button leaves its card"
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

"""Browser tests: Playwright driving Debian's Chromium.

Debian builds Chromium twice: the browser (package ``chromium``) and its headless
shell (``chromium-headless-shell``, the same Blink, V8 and network stack without the
browser's window and profile layers, which is what Playwright itself runs for headless
tests). The suite takes the shell where it is installed, ``/usr/bin/chromium``
otherwise; ``CHROMIUM`` names another (``CHROMIUM=/usr/bin/chromium`` for the
browser itself). The shell does the same pages with about half the CPU time (measured
on 54 of the browser tests: 126 CPU-s with the browser, 69 with the shell), which on
two cores is a minute of `make test`. No browser is ever downloaded. Where Debian's
Chromium is missing the tests are skipped with one clear line, except under CI=true,
where that is a failure. A failing test leaves screenshots in ``test-artifacts/browser/``
(every step with ``KLAVERJAS_SHOTS=1``: see ``shot``).

The live server runs on 127.0.0.1 with the suite's real database; tests that
use it need ``transactional_db`` (the ``live_server`` fixture sees committed
data only).
"""

import os
import re
import shutil
from pathlib import Path

import pytest

from tests.needs import missing

HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM = os.environ.get("CHROMIUM") or (
    HEADLESS_SHELL if os.path.exists(HEADLESS_SHELL) else "/usr/bin/chromium"
)
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=Translate,MediaRouter,OptimizationHints",
]


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        missing(f"browser tests skipped: Debian's Chromium is not installed at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("browser tests skipped: the playwright package is not installed")
    # Playwright's sync API runs an event loop; Django must allow the ORM beside it.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser, request):
    """A fresh browser context (own cookies) with a Dutch locale and a phone-ish window."""
    context = browser.new_context(locale="nl-NL", viewport={"width": 1000, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def new_phone(browser):
    """A page in a phone-sized context of its own (390×844, touch, Dutch), as a scorer
    at the table uses; close it with ``page.context.close()``."""
    context = browser.new_context(
        locale="nl-NL",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


@pytest.fixture
def phone(browser):
    """A phone-sized context, as a scorer at the table uses."""
    page = new_phone(browser)
    yield page
    page.context.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Keeps each phase's report on the test, so ``shot`` knows at teardown whether it failed."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture
def shot(request):
    """shot(page, "step-name"): a screenshot of a step, as a test artefact in
    ``test-artifacts/browser/<test>/``.

    A full-page PNG costs the browser a render and an encode, and nobody looks at
    the steps of a test that passed: by default the steps are only remembered, and
    a test that fails saves a screenshot of each page it showed that is still open.
    ``KLAVERJAS_SHOTS=1`` saves every step as it is taken (to look at the pages)."""
    folder = ARTIFACTS / re.sub(r"[^\w.-]+", "_", request.node.name)
    every_step = os.environ.get("KLAVERJAS_SHOTS") == "1"
    counter = iter(range(1, 1000))
    shown = {}

    def save(page, name):
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{next(counter):02d}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    def take(page, name):
        if every_step:
            return save(page, name)
        shown[id(page)] = (page, name)
        return None

    yield take
    failed = any(
        getattr(getattr(request.node, f"report_{when}", None), "failed", False)
        for when in ("setup", "call")
    )
    if failed and not every_step:
        for page, name in shown.values():
            if not page.is_closed():
                save(page, f"failed-after-{name}")


def login(page, live_server, username, password="pw"):
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_load_state()

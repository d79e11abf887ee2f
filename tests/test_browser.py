"""A real headless Chromium against a real `datasette serve`: find_past_fix, then the session.

Needs Debian's chromium at /usr/bin/chromium and the playwright Python package; no browser is
downloaded. Without them the test is skipped, unless PASTFIX_REQUIRE_BROWSER=1 (set by CI)
turns that into a failure. Screenshots go to test-artifacts/.
"""

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import ROOT, build_index
from corpus import write_corpus

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "test-artifacts"
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]

pytestmark = pytest.mark.browser


def _require_browser():
    missing = []
    if not Path(CHROMIUM).exists():
        missing.append(f"{CHROMIUM} (apt-get install chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("the playwright package (pip install playwright)")
    if missing:
        reason = "browser test needs " + " and ".join(missing)
        if os.environ.get("PASTFIX_REQUIRE_BROWSER") == "1":
            pytest.fail(reason)
        pytest.skip(reason)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(tmp_path, files):
    """`datasette serve <files> -m metadata.yml` on a free port; yields its base URL."""
    port = _free_port()
    datasette = Path(sys.executable).parent / "datasette"
    command = [str(datasette) if datasette.exists() else shutil.which("datasette") or "datasette"]
    command += ["serve", *files, "-m", str(ROOT / "metadata.yml")]
    command += ["--template-dir", str(ROOT / "templates"), "-h", "127.0.0.1", "-p", str(port)]
    log = open(tmp_path / "datasette.log", "wb")
    process = subprocess.Popen(command, cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"{base}/-/versions.json", timeout=1):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError((tmp_path / "datasette.log").read_text()) from None
                time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()


@pytest.fixture
def server(tmp_path):
    """`datasette serve index.db -m metadata.yml` on a free port; yields its base URL."""
    _require_browser()
    build_index(tmp_path / "index.db", write_corpus(tmp_path))
    yield from _serve(tmp_path, ["index.db"])


@pytest.fixture
def team_server(tmp_path):
    """Two indexes, alice.db (the app project) and bob.db (the lib project), served together."""
    _require_browser()
    projects = write_corpus(tmp_path)
    build_index(tmp_path / "alice.db", projects / "-home-u-app")
    build_index(tmp_path / "bob.db", projects / "-home-u-lib")
    yield from _serve(tmp_path, ["alice.db", "bob.db"])


@contextmanager
def browser_page():
    """A page of Debian's Chromium, 1280 x 900, closed afterwards."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        try:
            yield browser.new_page(viewport={"width": 1280, "height": 900})
        finally:
            browser.close()


def _fits(page, width):
    """Nothing scrolls sideways at `width`."""
    page.set_viewport_size({"width": width, "height": 900})
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


def test_find_past_fix_in_a_browser(server):
    from playwright.sync_api import expect

    ARTIFACTS.mkdir(exist_ok=True)
    with browser_page() as page:
        page.goto(f"{server}/index/find_past_fix")
        # A pasted error keeps its lines: a text box, not a one-line input.
        page.fill("textarea#pf-error", "Exit code 1\nError: ENOENT: no such file\n")
        page.click('button[type="submit"]')
        page.wait_for_load_state()
        assert "error=Exit+code+1%0D%0AError" in page.url or "%0A" in page.url
        expect(page.locator("textarea#pf-error")).to_have_value(
            "Exit code 1\nError: ENOENT: no such file\n"
        )
        cards = page.locator("article.pf-card")
        expect(cards).to_have_count(2)
        fixed = cards.nth(0)
        expect(fixed.locator("h3.pf-fixed")).to_have_text("Fixed 4 min later")
        expect(fixed.locator(".pf-diff .pf-add")).to_have_text("+ x")
        expect(fixed.locator(".pf-keyline mark", has_text="ENOENT")).to_have_count(1)
        for width in (400, 800, 1400):
            page.set_viewport_size({"width": width, "height": 900})
            # Nothing is cut off: no horizontal scrolling, and every card's fix is in view
            # of the page (beside the failure, or under it on narrow screens).
            assert page.evaluate(
                "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
            ), width
            for i in range(cards.count()):
                fix = cards.nth(i).locator("section.pf-fix")
                failure = cards.nth(i).locator("section.pf-failure")
                expect(fix).to_be_visible()
                box, left = fix.bounding_box(), failure.bounding_box()
                assert box and left and box["width"] > 150, (width, box)
                assert box["x"] + box["width"] <= width + 1, (width, box)
                if width >= 1400:
                    assert box["x"] > left["x"] + left["width"] - 1
                else:
                    assert box["y"] >= left["y"] + left["height"] - 1
            page.screenshot(path=str(ARTIFACTS / f"find_past_fix-{width}.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})

        # An error not seen before: said first, above its one partial match.
        page.goto(f"{server}/index/find_past_fix?error=EISDIR+zzzunknown")
        notice = page.locator(".pf-unseen")
        expect(notice).to_contain_text("Not seen before.")
        expect(notice.locator("strong", has_text="EISDIR")).to_have_count(1)
        expect(page.locator("article.pf-card.pf-weak")).to_have_count(1)
        for width in (400, 800, 1400):
            assert _fits(page, width), width
            box, card = notice.bounding_box(), page.locator("article.pf-card").bounding_box()
            assert box and card and box["y"] + box["height"] <= card["y"], (width, box, card)
            assert box["x"] + box["width"] <= width + 1, (width, box)
            page.screenshot(path=str(ARTIFACTS / f"not_seen_before-{width}.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(f"{server}/index/find_past_fix?error=zzz+nothing+like+it")
        expect(page.locator(".pf-unseen")).to_contain_text("It may be the first time")
        page.locator(".pf-unseen a", has_text="Search messages").click()
        page.wait_for_load_state()
        assert "/index/search_messages?q=zzz+nothing+like+it" in page.url
        page.screenshot(path=str(ARTIFACTS / "no_hits_followed.png"))

        page.goto(f"{server}/index/find_past_fix?error=EISDIR")
        link = page.locator("article.pf-card h2 a")
        assert link.get_attribute("href") == "/index/-/session/s1?call=t4#call-t4"
        expect(link).to_have_text("fix the build")
        link.click()
        page.wait_for_load_state()
        assert page.url == f"{server}/index/-/session/s1?call=t4#call-t4"
        target = page.locator(":target")
        expect(target).to_have_attribute("id", "call-t4")
        expect(target).to_have_class("pf-call pf-failed")
        expect(target.locator(".pf-result.pf-error pre")).to_have_text(
            "EISDIR: illegal operation on a directory, read"
        )
        assert target.is_visible()
        page.screenshot(path=str(ARTIFACTS / "session.png"))
        # The link's page at 400, 800 and 1400 px shows the call at the top, nothing scrolling
        # sideways. (Chromium's own `--headless --screenshot` of any page opened at an anchor
        # is blank, a plain HTML file's too: a new user's screenshot of this page was, nu43.)
        for width in (400, 800, 1400):
            page.set_viewport_size({"width": width, "height": 800})
            page.goto(f"{server}/index/-/session/s1?call=t4#call-t4")
            expect(page.locator(":target")).to_be_in_viewport()
            assert _fits(page, width)
            page.screenshot(path=str(ARTIFACTS / f"session_{width}.png"))


def test_every_index_in_a_browser(team_server):
    from playwright.sync_api import expect

    ARTIFACTS.mkdir(exist_ok=True)
    with browser_page() as page:
        page.goto(f"{team_server}/")
        page.locator(".metadata-description a", has_text="Find past fix").click()
        page.wait_for_load_state()
        page.fill("textarea#pf-error", "Error: ENOENT: no such file")
        page.click('button[type="submit"]')
        page.wait_for_load_state()
        cards = page.locator("article.pf-card")
        expect(cards).to_have_count(2)
        expect(cards.locator(".pf-db")).to_have_text(["bob", "alice"])
        for width in (400, 800, 1400):
            assert _fits(page, width), width
            page.screenshot(path=str(ARTIFACTS / f"every_index-{width}.png"), full_page=True)
        # Not seen in either index: said once, over both.
        page.goto(f"{team_server}/-/pastfix/find?error=Segmentation+fault+in+libgtk-3.so.0")
        expect(page.locator(".pf-unseen")).to_contain_text("Not seen before in any index.")
        for width in (400, 800, 1400):
            assert _fits(page, width), width
            page.screenshot(path=str(ARTIFACTS / f"every_index_not_seen-{width}.png"))
        for name in ("search?q=missing", "recurring"):
            page.goto(f"{team_server}/-/pastfix/{name}")
            expect(page.locator(".pf-team-list li").first).to_be_visible()
            for width in (400, 1400):
                assert _fits(page, width), (name, width)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(f"{team_server}/-/pastfix/find?error=ENOENT")
        page.locator("article.pf-card h2 a").nth(1).click()
        page.wait_for_load_state()
        assert page.url == f"{team_server}/alice/-/session/s1?call=t1#call-t1"


def test_search_everything_and_the_small_things_in_a_browser(server):
    """Issue 22: /-/search leads to the session at each hit; the find box is focused and
    Ctrl+Enter finds; Copy works without navigator.clipboard (plain HTTP); the noise
    parameter is a checkbox; column descriptions are folded; a long edit path breaks."""
    from playwright.sync_api import expect

    ARTIFACTS.mkdir(exist_ok=True)
    with browser_page() as page:
        page.goto(f"{server}/-/search?q=ENOENT")
        expect(page.locator("h1")).to_have_text("Search everything")
        hit = page.locator("#failures .pf-hit").first
        expect(hit.locator("mark", has_text="ENOENT").first).to_be_visible()
        for width in (400, 800, 1400):
            assert _fits(page, width), width
            page.screenshot(path=str(ARTIFACTS / f"search_everything-{width}.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})
        hit.locator("a", has_text="the session at this failure").click()
        page.wait_for_load_state()
        assert "/index/-/session/" in page.url and "#call-" in page.url
        expect(page.locator(":target")).to_have_class("pf-call pf-failed")

        # The find box has the focus; Ctrl+Enter sends it.
        page.goto(f"{server}/index/find_past_fix")
        # (waits for the page's script, which a loaded machine may run late)
        expect(page.locator("#pf-error")).to_be_focused()
        page.keyboard.type("Error: ENOENT: no such file")
        page.keyboard.press("Control+Enter")
        page.wait_for_url("**error=Error*")
        expect(page.locator("article.pf-card").first).to_be_visible()

        # A long path of a call breaks at 400 px instead of widening the page (546 px wide).
        long_path = "src/" + "very_long_folder_name/" * 20 + "x.py"
        for url, code in (
            (page.url, ".pf-edit-file code"),
            (f"{server}/index/-/session/s1", ".pf-failures code"),
        ):
            page.goto(url)
            codes = page.locator(code)
            assert codes.count() > 0, code
            codes.evaluate_all("(cs, t) => cs.forEach(c => { c.textContent = t; })", long_path)
            assert _fits(page, 400), code
        page.screenshot(path=str(ARTIFACTS / "session_long_path-400.png"))
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(f"{server}/index/find_past_fix?error=Error%3A+ENOENT%3A+no+such+file")

        # Over plain HTTP there is no navigator.clipboard: the command is selected instead.
        page.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
        page.reload()
        assert page.evaluate("navigator.clipboard") is None
        button = page.locator(".pf-copy").first
        button.click()
        expect(button).to_have_text(re.compile("Copied|Press Ctrl\\+C"))
        resume = button.get_attribute("data-copy")
        assert resume and page.evaluate("window.getSelection().toString()") == resume

        # recurring_errors: hide the noise with a checkbox, not by typing "hide".
        page.goto(f"{server}/index/recurring_errors")
        box = page.locator('input[type="checkbox"][name="noise"]')
        expect(box).not_to_be_checked()
        box.check()
        page.locator('form input[type="submit"]').click()
        page.wait_for_load_state()
        assert "noise=hide" in page.url
        expect(page.locator('input[type="checkbox"][name="noise"]')).to_be_checked()
        for width in (400, 800, 1400):
            assert _fits(page, width), width

        # A table's column descriptions are folded under one line, and have no backticks.
        page.goto(f"{server}/index/sessions")
        folded = page.locator("details.pf-column-descriptions")
        expect(folded.locator("summary")).to_contain_text("What each column holds")
        expect(folded.locator("dl.column-descriptions")).not_to_be_visible()
        assert "`" not in page.locator("body").inner_text()
        for width in (400, 800, 1400):
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=str(ARTIFACTS / f"sessions_table-{width}.png"))


def test_the_session_pages_title_and_search_box_at_every_width(server):
    """At 400 px the session search's label was a 15% column five lines high (Datasette's
    `form label`), and the title, the first prompt, Datasette's h1 of seven lines."""
    ARTIFACTS.mkdir(exist_ok=True)
    with browser_page() as page:
        page.goto(f"{server}/index/-/session/s1")
        label = page.locator("form.pf-search label")
        box = page.locator("form.pf-search input[type=search]")
        title = page.locator("h1.pf-session-title")
        for width in (400, 800, 1400):
            assert _fits(page, width), width
            line = page.evaluate(
                "parseFloat(getComputedStyle(document.querySelector('form.pf-search label'))"
                ".lineHeight) || 20"
            )
            assert label.bounding_box()["height"] < 1.6 * line, width
            assert box.bounding_box()["width"] > 150, width
            size = page.evaluate(
                "parseFloat(getComputedStyle(document.querySelector('h1.pf-session-title'))"
                ".fontSize)"
            )
            assert size <= (20 if width <= 600 else 26), (width, size)
            assert title.inner_text() == "fix the build"
            page.screenshot(path=str(ARTIFACTS / f"session_top-{width}.png"))

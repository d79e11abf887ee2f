"""A real headless Chromium against a real `datasette serve`: find_past_fix, then the session.

Needs Debian's chromium at /usr/bin/chromium and the playwright Python package; no browser is
downloaded. Without them the test is skipped, unless PASTFIX_REQUIRE_BROWSER=1 (set by CI)
turns that into a failure. Screenshots go to test-artifacts/.
"""

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from conftest import ROOT, build_index
from test_queries import APP, write_corpus

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


@pytest.fixture
def server(tmp_path):
    """`datasette serve index.db -m metadata.yml` on a free port; yields its base URL."""
    _require_browser()
    build_index(tmp_path / "index.db", write_corpus(tmp_path))
    port = _free_port()
    datasette = Path(sys.executable).parent / "datasette"
    command = [str(datasette) if datasette.exists() else shutil.which("datasette") or "datasette"]
    command += ["serve", "index.db", "-m", str(ROOT / "metadata.yml")]
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


def test_find_past_fix_in_a_browser(server):
    from playwright.sync_api import expect, sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"{server}/index/find_past_fix")
            page.fill('input[name="error"]', "EISDIR: illegal operation on a directory")
            page.click('input[type="submit"]')
            page.wait_for_load_state()
            assert "error=EISDIR" in page.url

            card = page.locator("table.rows-and-columns tbody tr")
            expect(card).to_have_count(1)
            expect(card.locator("td.col-error_snippet mark").first).to_have_text("EISDIR")
            expect(card.locator("td.col-next_text")).to_have_text(
                "That is a directory; reading the file inside it."
            )
            expect(card.locator("td.col-next_ok_target")).to_have_text(f"{APP}/src/index.js")
            expect(card.locator("td.col-resume code")).to_have_text("claude --resume s1")
            # "error -> what happened next": the next reply sits to the right of the error.
            error_box = card.locator("td.col-error_snippet").bounding_box()
            next_box = card.locator("td.col-next_text").bounding_box()
            assert error_box and next_box
            assert next_box["x"] > error_box["x"] + error_box["width"] - 1
            assert page.evaluate(
                "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
            )
            page.screenshot(path=str(ARTIFACTS / "find_past_fix.png"), full_page=True)

            link = card.locator("td.col-session_id a")
            assert link.get_attribute("href") == "/index/-/session/s1?call=t4#call-t4"
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
        finally:
            browser.close()

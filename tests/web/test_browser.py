"""The spectator page in a real browser: Debian's headless Chromium, driven
through its chromedriver, watches a simulated game on a phone-sized window.

Screenshots are saved under ``test-output/web/`` (beside the checkout) for a
person to look at: the page as a latecomer sees it, after a move arrived, and
a finished game's report.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from pi_app.store.journal import Journal
from tests.system import need
from tests.web.play import Table, web_process

OUTPUT = Path(__file__).resolve().parents[2] / "test-output" / "web"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
PHONE = (412, 915)  # CSS pixels of a common phone
NARROW = (360, 740)  # the narrowest phones in use


@pytest.fixture
def browser() -> Iterator[webdriver.Chrome]:
    yield from chrome(PHONE)


@pytest.fixture
def narrow() -> Iterator[webdriver.Chrome]:
    yield from chrome(NARROW)


def chrome(size: tuple[int, int]) -> Iterator[webdriver.Chrome]:
    need(CHROMIUM, "chromium")
    need(CHROMEDRIVER, "chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={size[0]},{size[1]}", "--no-first-run", "--disable-extensions",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-default-apps", "--metrics-recording-only", "--no-default-browser-check"):
        options.add_argument(arg)
    options.add_experimental_option("mobileEmulation", {
        "deviceMetrics": {"width": size[0], "height": size[1], "pixelRatio": 2.0},
        "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                     "Chrome/120.0 Mobile Safari/537.36"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Path:
    folder = OUTPUT / request.node.name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


def moves_shown(driver: webdriver.Chrome) -> int:
    """The moves the page shows (read in one go: the live part may be swapped meanwhile)."""
    shown = driver.execute_script("const h = document.querySelector('h1[data-moves]');"
                                  "return h ? h.dataset.moves : '-1';")
    return int(shown)


def test_the_page_follows_the_game_on_a_phone(browser: webdriver.Chrome, shots: Path, tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    try:
        table = Table(journal, "king-and-assassins", 2, seed=21)
        table.run(30)
        with web_process(path) as base:
            browser.get(base)
            WebDriverWait(browser, 10).until(lambda d: moves_shown(d) == 30)
            assert "King & Assassins" in browser.title
            assert browser.find_element(By.CSS_SELECTOR, "svg.board").is_displayed()
            # fits a phone: nothing wider than the screen but the tables that scroll by themselves
            assert browser.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
            browser.save_screenshot(str(shots / "1-latecomer.png"))
            browser.execute_script("window.notReloaded = true")
            seen = []
            for _ in range(3):
                table.play(table.choose())
                want = len(table.state.history)
                start = time.monotonic()
                WebDriverWait(browser, 10, poll_frequency=0.02).until(lambda d, n=want: moves_shown(d) == n)
                seen.append(time.monotonic() - start)
            assert browser.execute_script("return window.notReloaded === true"), "the page reloaded itself"
            newest = browser.execute_script("return document.querySelector('ol.moves li').value")
            assert newest == len(table.state.history)
            browser.save_screenshot(str(shots / "2-after-a-move.png"))
            print(f"the page showed each move {', '.join(f'{s:.2f}' for s in seen)} s after it was written")
    finally:
        journal.close()


def test_a_finished_games_report_in_the_browser(browser: webdriver.Chrome, shots: Path,
                                                tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    try:
        table = Table(journal, "artus", 2, seed=8)
        table.run()
        with web_process(path) as base:
            browser.get(base + f"game/{table.record.id}/report")
            plot = browser.find_element(By.CSS_SELECTOR, "svg.plot")
            assert plot.is_displayed() and plot.size["width"] > 200
            assert len(browser.find_elements(By.CSS_SELECTOR, "svg.plot polyline")) == 2
            browser.save_screenshot(str(shots / "report.png"))
            browser.get(base + "night")
            assert "Report of the night" in browser.find_element(By.TAG_NAME, "h1").text
            browser.get(base + "game/404")
            assert "The journal holds no game 404." in browser.find_element(By.TAG_NAME, "main").text
    finally:
        journal.close()


# The lines each table cell of the page takes (its own text, not a list within
# it), and its words: a cell squeezed
# narrower than its longest word wraps inside words ("Cal ed oni a").
CELLS = """
return [...document.querySelectorAll('main td, main th')]
    .filter(c => c.textContent.trim() && !c.querySelector('dl, table')).map(c => {
  const range = document.createRange();
  range.selectNodeContents(c);
  const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
  return [c.textContent.trim(), tops.size, c.textContent.trim().split(/[\\s-]+/).length];
});
"""


@pytest.mark.parametrize("game, players, lang", [("king-is-dead", 3, "en"), ("siege", 2, "en"),
                                                 ("king-is-dead", 3, "it"), ("mordred", 3, "it")])
def test_no_table_cell_breaks_a_word_at_360_px(narrow: webdriver.Chrome, shots: Path, tmp_path: Path,
                                                game: str, players: int, lang: str) -> None:
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    try:
        table = Table(journal, game, players, seed=3)
        table.run(25)
        with web_process(path, lang=lang) as base:
            narrow.get(base)
            WebDriverWait(narrow, 10).until(lambda d: moves_shown(d) == 25)
            narrow.save_screenshot(str(shots / f"{game}-{lang}-360.png"))
            cells = narrow.execute_script(CELLS)
            broken = [(text, lines) for text, lines, words in cells if lines > words]
            assert not broken, f"cells wrapped inside a word at {NARROW[0]} px: {broken[:8]}"
            assert narrow.execute_script("return document.documentElement.scrollWidth") <= NARROW[0]
    finally:
        journal.close()

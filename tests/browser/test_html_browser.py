"""The html run report in real headless Chromium: the heatmap renders and its cells open trials."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.cdp_pipe import Browser, file_url, find_chromium
from tests.support.run_report_factory import demo_run
from whichtool_tui.evaluation.report_model import RunReport
from whichtool_tui.reports.run_html import render_run_html

CHROMIUM = find_chromium()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    assert CHROMIUM is not None
    report = RunReport.model_validate(demo_run(min_accuracy=0.9))
    path: Path = tmp_path_factory.mktemp("html") / "run.html"
    path.write_text(render_run_html(report), encoding="utf-8")
    browser = Browser(CHROMIUM)
    try:
        browser.open_page(file_url(path))
        yield browser
    finally:
        browser.close()
    assert browser.process.poll() is not None


def test_heatmap_has_one_cell_per_expected_and_picked_pair(page: Browser) -> None:
    # 4 tools + distractor row; 4 tools + none, phantom, multiple columns.
    assert page.evaluate("document.querySelectorAll('table.heatmap tbody button').length") == 35
    assert page.evaluate("document.querySelectorAll('table.heatmap tbody tr').length") == 5
    embedded = page.evaluate("JSON.parse(document.getElementById('whichtool-data').textContent)")
    assert embedded["schemaVersion"] == "whichtool.run/2"
    assert len(embedded["trials"]) == 15
    assert "threshold violated" in page.evaluate("document.getElementById('verdict').textContent")


def test_clicking_a_cell_lists_its_trials(page: Browser) -> None:
    page.evaluate(
        'document.querySelector(\'button[data-row="search_users"][data-col="list_users"]\').click()'
    )
    listed = page.evaluate(
        "Array.from(document.querySelectorAll('#cell-trials .trial')).map(t => t.textContent)"
    )
    assert len(listed) == 2
    assert all("find-bob" in text and "Find users named Bob" in text for text in listed)
    assert all("wrong-tool" in text and "list_users {}" in text for text in listed)
    heading = page.evaluate("document.querySelector('#cell-trials h3').textContent")
    assert heading == "2 trials: expected search_users, picked list_users"


def test_reply_text_is_shown_as_text_not_markup(page: Browser) -> None:
    page.evaluate(
        'document.querySelector(\'button[data-row="count_users"][data-col="(none)"]\').click()'
    )
    reply = page.evaluate("document.querySelector('#cell-trials .reply').textContent")
    assert reply == "Which users do you mean? <b>&amp;</b>"
    assert page.evaluate("document.querySelectorAll('#cell-trials b').length") == 0


def test_keyboard_moves_between_cells_and_enter_opens(page: Browser) -> None:
    page.evaluate(
        'document.querySelector(\'table.heatmap button[data-r="0"][data-c="0"]\').focus()'
    )
    for key in ("ArrowDown", "ArrowRight"):
        page.send(
            "Input.dispatchKeyEvent",
            {
                "type": "keyDown",
                "key": key,
                "code": key,
                "windowsVirtualKeyCode": {"ArrowDown": 40, "ArrowRight": 39}[key],
            },
        )
        page.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": key})
    focused = page.evaluate("[document.activeElement.dataset.r, document.activeElement.dataset.c]")
    assert focused == ["1", "1"]
    page.send(
        "Input.dispatchKeyEvent",
        {
            "type": "keyDown",
            "key": "Enter",
            "code": "Enter",
            "windowsVirtualKeyCode": 13,
            "text": "\r",
        },
    )
    page.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": "Enter", "code": "Enter"})
    pressed = page.evaluate("document.activeElement.getAttribute('aria-pressed')")
    assert pressed == "true"
    assert json.loads(
        json.dumps(page.evaluate("document.querySelector('#cell-trials h3') !== null"))
    )


def test_nothing_is_fetched(page: Browser) -> None:
    resources = page.evaluate("performance.getEntriesByType('resource').length")
    assert resources == 0

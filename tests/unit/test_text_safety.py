"""The output boundary's own rules: visible escapes, markup escapes and redaction, per form."""

from __future__ import annotations

import pytest

from whichtool_tui.redact import redact_command_args
from whichtool_tui.text_safety import (
    html_text,
    json_for_display,
    markdown_cell,
    markdown_code,
    markdown_text,
    redact_message,
    sanitize_text,
    xml_escape,
)

OSC52 = "\x1b]52;c;aGk=\x07"


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (OSC52, "\\x1b]52;c;aGk=\\x07"),
        ("\x1b[2K", "\\x1b[2K"),
        ("\x9b31m", "\\x9b31m"),  # a C1 CSI
        ("\x90q\x9c", "\\x90q\\x9c"),  # a C1 DCS ... ST
        ("a\x7fb", "a\\x7fb"),
        ("\u202eevil", "\\u202eevil"),
        ("zero\u200bwidth\u2060", "zero\\u200bwidth\\u2060"),
        ("tag\U000e0041", "tag\\U000e0041"),
        ("plain é text", "plain é text"),
    ],
)
def test_invisible_and_control_characters_are_shown_escaped(raw: str, shown: str) -> None:
    assert sanitize_text(raw) == shown


def test_markup_is_escaped_for_each_language() -> None:
    hostile = "<script>alert(1)</script> | `x` & ![p](http://t/p.png)"
    assert "<" not in html_text(hostile) and "&lt;script&gt;" in html_text(hostile)
    assert "<" not in xml_escape(hostile + "\x00") and "\\x00" in xml_escape("\x00")
    cell = markdown_cell(hostile)
    assert "<" not in cell and " | " not in cell
    text = markdown_text(hostile)
    assert "<" not in text and "![" not in text and " | " not in text
    assert markdown_text("# heading").startswith("\\#")
    # A code span is fenced longer than any backtick run inside it.
    assert markdown_code("a``b") == "```a``b```"


def test_json_for_display_keeps_the_data_and_nothing_raw() -> None:
    import json

    text = json.dumps({"name": "x\u202ey\u200b\U000e0041"}, ensure_ascii=False)
    shown = json_for_display(text)
    assert json.loads(shown) == json.loads(text)
    assert "\u202e" not in shown and "\\u202e" in shown


@pytest.mark.parametrize(
    ("message", "secret"),
    [
        ("password=hunter2 next", "hunter2"),
        ("passwd: hunter2", "hunter2"),
        ("client_secret=abc123&x=1", "abc123"),
        ("access_token=tok42", "tok42"),
        ("Authorization=Bearer abc123", "abc123"),
        ("--header 'Authorization: Bearer abc123'", "abc123"),
        ("Cookie: session=s3cr3t; theme=dark", "s3cr3t"),
        ("X-Api-Key: k-123456", "k-123456"),
        ('{"token": "abc123"}', "abc123"),
        ("--password hunter2", "hunter2"),
        ("--token=abc123", "abc123"),
        ("http://user:pw1234@host/v1", "pw1234"),
    ],
)
def test_redaction_covers_every_secret_form(message: str, secret: str) -> None:
    shown = redact_message(message)
    assert secret not in shown
    assert "***" in shown


def test_redaction_leaves_ordinary_words_alone() -> None:
    for text in ("tokens: 12", "token_count: 5", "a secret is a word", "max_tokens=100"):
        assert redact_message(text) == text


def test_receipt_command_lines_mask_header_values() -> None:
    argv = ["srv", "--header", "Authorization: Bearer abc", "-H", "Cookie: s=1", "--port", "8"]
    assert redact_command_args(argv) == [
        "srv",
        "--header",
        "Authorization: ***",
        "-H",
        "Cookie: ***",
        "--port",
        "8",
    ]

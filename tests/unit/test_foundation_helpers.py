"""Strict YAML, config validation, redaction and the atomic writer."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from whichtool_tui.config import load_settings, parse_config
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.files import write_atomic
from whichtool_tui.redact import redact_url
from whichtool_tui.strict_yaml import StrictYamlError, parse_strict_yaml
from whichtool_tui.text_safety import sanitize_text

pytestmark = pytest.mark.slow  # starts processes or servers


@pytest.mark.parametrize(
    ("text", "reason", "line"),
    [
        ("a: &x 1\nb: 2\n", "anchors", 1),
        ("a: 1\nb: *x\n", "aliases", 2),
        ("a: !!str 1\n", "tags", 1),
        ("a: 1\nb: 2\na: 3\n", "duplicate key 'a'", 3),
        ("<<: {a: 1}\n", "merge keys", 1),
        ("a: 1\n---\nb: 2\n", "multiple documents", 2),
    ],
)
def test_strict_yaml_refuses_with_line(text: str, reason: str, line: int) -> None:
    with pytest.raises(StrictYamlError) as refused:
        parse_strict_yaml(text)
    assert reason in str(refused.value)
    assert refused.value.line == line


def test_strict_yaml_reads_plain_data() -> None:
    assert parse_strict_yaml("a: 1\nb: [x, null]\nc: {d: 'e'}\n") == {
        "a": 1,
        "b": ["x", None],
        "c": {"d": "e"},
    }


def test_config_rejects_unknown_keys_and_bounds() -> None:
    with pytest.raises(WhichtoolError, match=r"`trials\.bogus` is not a recognised option"):
        parse_config({"trials": {"bogus": 1}}, "c.json")
    with pytest.raises(WhichtoolError, match=r"trials\.concurrency"):
        parse_config({"trials": {"concurrency": 65}}, "c.json")
    with pytest.raises(WhichtoolError, match="apiKey"):
        parse_config({"provider": {"name": "openai", "apiKey": "sk-x"}}, "c.json")


def test_config_discovery_reads_yaml(tmp_path: Path) -> None:
    (tmp_path / "whichtool.config.yaml").write_text(
        "trials:\n  repeat: 3\nthresholds:\n  minAccuracy: 0.9\n", encoding="utf-8"
    )
    settings = load_settings(cwd=tmp_path)
    assert settings.trials.repeat == 3
    assert settings.thresholds.min_accuracy == 0.9


def test_config_discovery_refuses_two_files(tmp_path: Path) -> None:
    (tmp_path / "whichtool.config.yaml").write_text("{}\n", encoding="utf-8")
    (tmp_path / "whichtool.config.json").write_text("{}\n", encoding="utf-8")
    with pytest.raises(WhichtoolError) as refused:
        load_settings(cwd=tmp_path)
    assert refused.value.code == "config/ambiguous"


def test_explicit_missing_config_is_named() -> None:
    with pytest.raises(WhichtoolError) as refused:
        load_settings("does-not-exist.json")
    assert refused.value.code == "config/not-found"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://user:pw@mcp.example/mcp", "https://***@mcp.example/mcp"),
        (
            "https://mcp.example/mcp?api_key=abc&x=1",
            "https://mcp.example/mcp?api_key=redacted&x=***",
        ),
        ("https://mcp.example/mcp#frag", "https://mcp.example/mcp#***"),
        ("https://mcp.example/v1/abcdef1234567890XYZ/mcp", "https://mcp.example/v1/***/mcp"),
        ("https://mcp.example/sk-abcdefghijkl/mcp", "https://mcp.example/***/mcp"),
        ("http://127.0.0.1:8080/mcp", "http://127.0.0.1:8080/mcp"),
        ("not a url", "(invalid URL)"),
    ],
)
def test_redact_url(url: str, shown: str) -> None:
    assert redact_url(url) == shown


def test_sanitize_text_escapes_controls_and_bidi() -> None:
    assert sanitize_text("a\x1b[31mb\u202ec\nd") == "a\\x1b[31mb\\u202ec\\nd"


def test_atomic_writer_leaves_no_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "out" / "report.json"
    write_atomic(target, "{}\n")
    write_atomic(target, '{"a": 1}\n')
    assert target.read_text(encoding="utf-8") == '{"a": 1}\n'
    assert os.listdir(target.parent) == ["report.json"]


@pytest.mark.parametrize(
    "text",
    [
        "version: 1\ntasks:\n  - id: a\n    prompt: 'say \"hi\"'\n    expected: null\n",
        "a: \"\\ud800 lone surrogate\"\nb: 'x'\n",
        "nested:\n  - [1, 2.5, true, ~]\n  - {k: v, 'quoted key': 3}\n",
        "multi: |\n  line one\n  line two\nfolded: >\n  a\n  b\n",
        "",
    ],
)
def test_strict_yaml_agrees_with_safe_load_on_plain_data(text: str) -> None:
    import yaml

    assert parse_strict_yaml(text) == yaml.safe_load(text)


def test_strict_yaml_refuses_nested_duplicates_and_complex_keys() -> None:
    with pytest.raises(StrictYamlError, match="duplicate key 'x'") as refused:
        parse_strict_yaml("outer:\n  - inner:\n      x: 1\n      x: 2\n")
    assert refused.value.line == 4
    with pytest.raises(StrictYamlError, match="plain scalars"):
        parse_strict_yaml("? [a, b]\n: 1\n")


def test_command_arguments_that_look_like_secrets_are_masked() -> None:
    from whichtool_tui.redact import redact_command_args

    argv = [
        "server",
        "--api-key",
        "hunter2",
        "--token=abc",
        "--design",
        "plain",
        "sk-abcdefghijklmnop",
        "--local-timezone",
        "UTC",
        "server_v2_production.py",
    ]
    assert redact_command_args(argv) == [
        "server",
        "--api-key",
        "***",
        "--token=***",
        "--design",
        "plain",
        "***",
        "--local-timezone",
        "UTC",
        "server_v2_production.py",
    ]


def test_atomic_writer_gives_the_usual_file_mode(tmp_path: Path) -> None:
    target = write_atomic(tmp_path / "r.json", "{}\n")
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask

"""`tasks generate`: prompt building, reply parsing and validation, and the command end to end
against a real loopback HTTP server speaking the Chat Completions shape."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support import paths
from tests.support.fake_apis import chat_reply, fake_api_server, http_error
from whichtool_tui.cli import main
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.providers.factory import build_provider
from whichtool_tui.surface.load import load_snapshot
from whichtool_tui.surface.model import NormalizedSurface
from whichtool_tui.surface.normalize import normalize_surface
from whichtool_tui.tasks.generate import (
    build_generation_prompt,
    check_tool_limit,
    extract_json,
    generate_task_set,
    parse_generated_tasks,
)
from whichtool_tui.tasks.load import load_task_set

pytestmark = pytest.mark.slow  # starts processes or servers

SURFACE_FILE = paths.TASK_FIXTURES / "surface.json"
TOOLS = ["get_ticket", "list_invoices", "refund_order"]


def surface() -> NormalizedSurface:
    return normalize_surface(load_snapshot(SURFACE_FILE).raw_tools)


def draft(*entries: Any) -> str:
    return json.dumps({"tasks": list(entries)})


GOOD_DRAFT = draft(
    {"id": "inv.open", "prompt": "Which invoices are still open?", "expected": "list_invoices"},
    {"id": "refund.one", "prompt": "Give order 77 its money back", "expected": "refund_order"},
    {"id": "ticket.status", "prompt": "Where is ticket 9 at?", "expected": "get_ticket"},
    {"id": "d.cancel", "prompt": "Cancel my subscription", "expected": None, "tags": ["write"]},
)


def test_prompt_lists_tools_parameters_and_counts() -> None:
    prompt = build_generation_prompt(surface().tools, tasks_per_tool=2, distractors=5)
    assert (
        "- name: refund_order\n  description: Refund an order in full. The order must be paid.\n"
        in prompt
    )
    assert "  parameters: order_id (required), reason\n" in prompt
    assert "- name: list_invoices\n" in prompt and "  parameters: status\n" in prompt
    assert "Write 2 user requests for EACH tool, and 5 distractors." in prompt
    bare = normalize_surface([{"name": "ping", "inputSchema": {"type": "object"}}])
    bare_prompt = build_generation_prompt(bare.tools)
    assert "- name: ping\n  description: (none given)\n  parameters: no parameters" in bare_prompt
    assert "Write 3 user requests for EACH tool, and 4 distractors." in bare_prompt


@pytest.mark.parametrize(
    "reply",
    [
        '{"tasks": []}',
        'Sure! Here it is:\n```json\n{"tasks": []}\n```\nAnything else?',
        'Here: {"tasks": []} -- done',
        '```\n{"tasks": []}\n```',
    ],
)
def test_extract_json_from_fences_and_prose(reply: str) -> None:
    assert extract_json(reply) == {"tasks": []}


@pytest.mark.parametrize(
    ("reply", "code"),
    [
        ("I cannot help with that.", "generate/no-json"),
        ("} backwards {", "generate/no-json"),
        ('{"tasks": [1,]}', "generate/invalid-json"),
    ],
)
def test_extract_json_failures(reply: str, code: str) -> None:
    with pytest.raises(WhichtoolError) as caught:
        extract_json(reply)
    assert caught.value.code == code


@pytest.mark.parametrize("payload", [[], {"items": []}, {"tasks": {}}])
def test_wrong_shape(payload: Any) -> None:
    with pytest.raises(WhichtoolError) as caught:
        parse_generated_tasks(payload, TOOLS)
    assert caught.value.code == "generate/wrong-shape"


def test_parse_drops_bad_entries_with_reasons_and_fixes_ids_and_tags() -> None:
    payload = {
        "tasks": [
            "not an object",
            {"id": "x", "prompt": "   ", "expected": "get_ticket"},
            {"id": "y", "prompt": "Open ticket 3", "expected": 3},
            {"id": "z", "prompt": "Wipe the ledger", "expected": "wipe_ledger"},
            {"id": "t", "prompt": "  Show ticket 5  ", "expected": "get_ticket", "tags": ["r"]},
            {"id": "t", "prompt": "show TICKET 5", "expected": "get_ticket"},
            {"id": "t", "prompt": "Ticket 6 please", "expected": "get_ticket", "tags": [1]},
            {"prompt": "Refund order 8", "expected": "refund_order"},
            {"id": " ", "prompt": "Close my account", "expected": None, "tags": "bad"},
            {"id": "d", "prompt": "Merge two invoices", "expected": None, "tags": ["write"]},
        ]
    }
    tasks, diagnostics = parse_generated_tasks(payload, TOOLS)
    assert [(t.id, t.prompt, t.expected, t.tags) for t in tasks] == [
        ("t", "Show ticket 5", "get_ticket", ["r"]),
        ("t.2", "Ticket 6 please", "get_ticket", []),
        ("refund_order.2", "Refund order 8", "refund_order", []),
        ("distractor.3", "Close my account", None, ["distractor"]),
        ("d", "Merge two invoices", None, ["write", "distractor"]),
    ]
    assert [(d.code, d.severity) for d in diagnostics] == [
        ("generate/malformed-task", "warning"),
        ("generate/no-prompt", "warning"),
        ("generate/no-expected", "warning"),
        ("generate/invented-tool", "warning"),
        ("generate/duplicate-prompt", "info"),
        ("generate/uncovered-tools", "warning"),
    ]
    assert diagnostics[3].detail == {"expected": "wipe_ledger", "prompt": "Wipe the ledger"}
    assert diagnostics[5].tools == ["list_invoices"]


def test_no_distractors_warning() -> None:
    tasks, diagnostics = parse_generated_tasks(
        {"tasks": [{"prompt": "Show ticket 1", "expected": "get_ticket"}]}, ["get_ticket"]
    )
    assert len(tasks) == 1
    assert [d.code for d in diagnostics] == ["generate/no-distractors"]


def test_tool_limit() -> None:
    check_tool_limit(6, 6)
    with pytest.raises(WhichtoolError) as caught:
        check_tool_limit(7, 6)
    assert caught.value.code == "generate/tool-limit"
    assert "--max-tools 7" in (caught.value.hint or "")
    with pytest.raises(WhichtoolError):
        check_tool_limit(1, 1001)


async def test_generate_over_real_http_records_surface_hash() -> None:
    with fake_api_server() as api:
        api.queue(chat_reply(text="```json\n" + GOOD_DRAFT + "\n```"))
        provider = build_provider("openai-compatible", "drafter", api.base_url + "/v1", env={})
        try:
            result = await generate_task_set(provider, surface(), temperature=0.3)
        finally:
            await provider.aclose()
        body = api.requests[0].json
    assert body["model"] == "drafter"
    assert body["temperature"] == 0.3
    assert "tools" not in body
    assert "- name: get_ticket" in body["messages"][0]["content"]
    assert result.task_set.surface == surface().hash
    assert result.task_set.version == 1
    assert [t.id for t in result.task_set.tasks] == [
        "inv.open",
        "refund.one",
        "ticket.status",
        "d.cancel",
    ]
    assert result.task_set.tasks[3].tags == ["write", "distractor"]
    assert result.diagnostics == []
    assert "```json" in result.raw


async def test_providers_without_text_generation_are_refused() -> None:
    for name in ("mock", "keyword"):
        provider = build_provider(name, None, None, env={})
        with pytest.raises(WhichtoolError) as caught:
            await generate_task_set(provider, surface())
        assert caught.value.code == "generate/provider-cannot-generate"
        await provider.aclose()


def generate_cli(out: Path, base_url: str, *extra: str) -> int:
    return main(
        [
            "--no-ui",
            "tasks",
            "generate",
            str(SURFACE_FILE),
            "--provider",
            "openai-compatible",
            "--model",
            "drafter",
            "--base-url",
            base_url,
            "--out",
            str(out),
            *extra,
        ]
    )


def test_cli_generate_writes_yaml_then_refuses_to_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "drafted.yaml"
    with fake_api_server() as api:
        api.queue(chat_reply(text=GOOD_DRAFT), chat_reply(text=GOOD_DRAFT))
        assert generate_cli(out, api.base_url + "/v1") == 0
        captured = capsys.readouterr()
        assert captured.out.startswith("Wrote 4 tasks (1 distractors) to ")
        assert "This is a draft" in captured.out
        assert f"Then: whichtool-tui tasks lint {SURFACE_FILE}" in captured.out
        assert "Asking openai-compatible/drafter for a draft over 3 tools" in captured.err
        assert api.requests[0].json["temperature"] == 0.7
        loaded = load_task_set(out)
        assert loaded.format == "yaml"
        assert loaded.task_set.surface == surface().hash
        assert out.read_text().startswith("# whichtool.tasks.yaml\n")

        before = out.read_text()
        assert generate_cli(out, api.base_url + "/v1") == 2
        assert "already exists" in capsys.readouterr().err
        assert out.read_text() == before
        assert len(api.requests) == 1  # refused before reading the surface or asking the model

        assert generate_cli(out, api.base_url + "/v1", "--force", "--tasks-per-tool", "1") == 0
        assert (
            "Write 1 user requests for EACH tool" in api.requests[1].json["messages"][0]["content"]
        )


def test_cli_generate_json_out_and_tool_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with fake_api_server() as api:
        api.queue(chat_reply(text=GOOD_DRAFT))
        assert generate_cli(tmp_path / "d.json", api.base_url + "/v1") == 0
        assert json.loads((tmp_path / "d.json").read_text())["surface"] == surface().hash
        capsys.readouterr()
        assert generate_cli(tmp_path / "e.yaml", api.base_url + "/v1", "--max-tools", "2") == 2
        assert "above the generator limit of 2" in capsys.readouterr().err
        assert not (tmp_path / "e.yaml").exists()
        assert len(api.requests) == 1


@pytest.mark.parametrize(
    ("reply_text", "message"),
    [
        ("no json here", "contains no JSON object"),
        ('{"items": []}', "has no `tasks` array"),
    ],
)
def test_cli_generate_bad_replies_exit_2_and_write_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], reply_text: str, message: str
) -> None:
    with fake_api_server() as api:
        api.queue(chat_reply(text=reply_text))
        assert generate_cli(tmp_path / "x.yaml", api.base_url + "/v1") == 2
    assert message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_cli_generate_provider_error_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with fake_api_server() as api:
        api.queue(http_error(500, "boom"))
        assert generate_cli(tmp_path / "x.yaml", api.base_url + "/v1") == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1].startswith("whichtool-tui: ")
    assert "HTTP 500" in err
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def _generate_mock(tmp_path: Path, *extra: str) -> int:
    return main(
        [
            "--no-ui",
            "tasks",
            "generate",
            str(SURFACE_FILE),
            "--provider",
            "mock",
            "--out",
            str(tmp_path / "m.yaml"),
            *extra,
        ]
    )


def test_cli_generate_with_mock_provider_cannot_generate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = _generate_mock(tmp_path)
    assert code == 2
    assert "cannot write free text" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("flag", "value"),
    [
        ("--tasks-per-tool", "0"),
        ("--distractors", "-1"),
        ("--temperature", "nan"),
        ("--temperature", "3"),
    ],
)
def test_cli_generate_rejects_bad_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str, value: str
) -> None:
    code = _generate_mock(tmp_path, f"{flag}={value}")
    assert code == 2
    assert flag in capsys.readouterr().err
    assert not (tmp_path / "m.yaml").exists()


def test_cli_generate_max_tools_zero_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = _generate_mock(tmp_path, "--max-tools", "0")
    assert code == 2
    assert "--max-tools must be between 1 and 1000" in capsys.readouterr().err


def test_cli_generate_takes_target_provider_and_out_from_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with fake_api_server() as api:
        api.queue(chat_reply(text=GOOD_DRAFT))
        config = {
            "target": {"transport": "snapshot", "path": str(SURFACE_FILE)},
            "tasks": "from-config.yaml",
            "provider": {
                "name": "openai-compatible",
                "model": "configured",
                "baseUrl": api.base_url + "/v1",
            },
            "trials": {"maxTools": 3},
        }
        (tmp_path / "whichtool.config.json").write_text(json.dumps(config))
        assert main(["--no-ui", "tasks", "generate", "--temperature", "0"]) == 0
        assert api.requests[0].json["model"] == "configured"
        assert api.requests[0].json["temperature"] == 0
    assert "to from-config.yaml" in capsys.readouterr().out
    assert len(load_task_set(tmp_path / "from-config.yaml").task_set.tasks) == 4

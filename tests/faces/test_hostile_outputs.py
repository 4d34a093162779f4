"""The output boundary, table-driven: one hostile surface, task file and provider answer through
every command and every format.

No non-JSON output may carry a raw control byte (C0, C1, DEL: so no OSC 52, no ``ESC[2K``, no
BEL), a bidi control or a zero-width character, nor unescaped markup (``<script>``, a table
pipe or backtick run from the data); JSON outputs keep the hostile strings exactly, and so do
the JSON and JSONL files a command writes (``dataset``'s rows and manifest).
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.fake_apis import FakeApi, RecordedRequest, chat_reply, fake_api_server
from tests.support.improve import is_rewrite
from tests.support.mcp_session import call, mcp_session
from tests.support.paths import REPO, UI_DATA
from whichtool_tui.cli import main

pytestmark = pytest.mark.slow  # starts a loopback provider and runs every command

HOSTILE = "\x1b]52;c;aGk=\x07\x1b[2K\x07\u202e\u200b<script>alert(1)</script>|`x`|"
HOSTILE_NAME = "list_orders" + HOSTILE
# File names are outside text too: the receipt in the dataset folder, the folder it writes.
HOSTILE_FILE = "hostile\x1b]52;c;aGk=\x07\u202e"
DATASET_OUT = "dataset" + HOSTILE_FILE
# Raw bytes no shown output may carry (tab and newline are layout, not data).
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


# A CommonMark code span: a backtick run, then text, then a run of the same length.
CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")


@dataclass(frozen=True)
class Case:
    """One command line and the kind of output it writes on stdout."""

    name: str
    argv: tuple[str, ...]
    kind: str  # text, markdown, html, xml, json, sarif, badge
    exact: bool = True  # a JSON output that carries a hostile string (some name none)
    # Files it writes besides stdout: (path, kind json or jsonl, a string they hold exactly).
    files: tuple[tuple[str, str, str], ...] = ()

    def __str__(self) -> str:
        return self.name


def _write_inputs(folder: Path) -> None:
    document = json.loads((REPO / "snapshots" / "demo-lab.json").read_text(encoding="utf-8"))
    tools = document["tools"]
    tools[0]["name"] = HOSTILE_NAME
    tools[0]["description"] = "List a customer's orders. " + HOSTILE
    tools[1]["title"] = "Search " + HOSTILE
    tools[1]["description"] += " <script>alert(2)</script> | `tick`"
    (folder / "hostile.json").write_text(json.dumps(document), encoding="utf-8")
    names = [tool["name"] for tool in tools[:4]]
    tools[0]["description"] = "Changed: " + HOSTILE
    tools[2]["name"] = "get_order" + HOSTILE
    (folder / "hostile2.json").write_text(json.dumps(document), encoding="utf-8")
    tasks = {
        "version": 1,
        "tasks": [
            {"id": "list", "prompt": "Show orders " + HOSTILE, "expected": HOSTILE_NAME},
            {"id": "search", "prompt": "Search the mug " + HOSTILE, "expected": "search_orders"},
            {"id": "weather", "prompt": "Weather? " + HOSTILE, "expected": None},
            *(
                {"id": f"tool{index}-{n}", "prompt": f"{word} {HOSTILE}", "expected": name}
                for index, name in enumerate(names)
                for n, word in enumerate(("please", "now", "then"))
            ),
        ],
    }
    (folder / "hostile.tasks.json").write_text(json.dumps(tasks), encoding="utf-8")
    receipt = json.loads((UI_DATA / "lab-receipt.json").read_text(encoding="utf-8"))
    (folder / "hostile-receipt.json").write_text(json.dumps(_poisoned(receipt)), encoding="utf-8")
    (folder / "receipts").mkdir()
    (folder / "receipts" / f"{HOSTILE_FILE}.json").write_text(
        json.dumps(_poisoned(receipt)), encoding="utf-8"
    )


# Receipt fields a server or a model fills: what a hostile server would put there.
SERVER_FIELDS = {"detail", "result_text", "hypothesis", "note", "notes", "foil", "wire", "text"}
SERVER_FIELDS |= {"method", "message", "stderr"}


def _poisoned(value: Any, key: str | None = None) -> Any:
    if isinstance(value, dict):
        return {name: _poisoned(item, name) for name, item in value.items()}
    if isinstance(value, list):
        return [_poisoned(item, key) for item in value]
    if isinstance(value, str) and key in SERVER_FIELDS:
        return value + HOSTILE
    return value


def _hostile_answer(request: RecordedRequest) -> Any:
    """The hostile model: a rewrite carries the hostile string, a drafted task set too, and a
    routing answer picks the hostile tool with hostile arguments and hostile text beside it."""
    if is_rewrite(request.json):
        rewrite = {"description": "Lists orders. " + HOSTILE, "title": None}
        return chat_reply(text=json.dumps(rewrite))
    if "user requests for EACH tool" in json.dumps(request.json):
        drafted = [
            {"id": f"drafted{n}", "prompt": f"Please {HOSTILE}", "expected": HOSTILE_NAME}
            for n in range(3)
        ]
        drafted.append({"id": "drafted.none", "prompt": "Weather " + HOSTILE, "expected": None})
        return chat_reply(text=json.dumps({"tasks": drafted}))
    return chat_reply(
        calls=[(HOSTILE_NAME, json.dumps({"customer_id": HOSTILE}))], text="Sure " + HOSTILE
    )


def _provider(api: FakeApi) -> tuple[str, ...]:
    return (
        "--provider",
        "openai-compatible",
        "--model",
        "m",
        "--base-url",
        api.base_url + "/v1",
    )


RUN_FORMATS = {
    "terminal": "text",
    "json": "json",
    "markdown": "markdown",
    "html": "html",
    "junit": "xml",
    "badge": "badge",
}
INSPECT_FORMATS = {
    "terminal": "text",
    "json": "json",
    "markdown": "markdown",
    "junit": "xml",
    "badge": "badge",
    "sarif": "sarif",
}
THREE = {"terminal": "text", "json": "json", "markdown": "markdown"}
IMPROVE_FORMATS = {"terminal": "text", "json": "json", "markdown": "markdown", "html": "html"}


def cases(api: FakeApi) -> Iterator[Case]:
    """Every command that renders outside strings, in every format it has."""
    tasks = ("--tasks", "hostile.tasks.json")
    for fmt, kind in INSPECT_FORMATS.items():
        yield Case(f"inspect-{fmt}", ("inspect", "hostile.json", *tasks, "--format", fmt), kind)
    for fmt, kind in INSPECT_FORMATS.items():
        argv = ("inspect", "hostile.json", "--host", "all", "--format", fmt)
        yield Case(f"inspect-hosts-{fmt}", argv, kind)
    for fmt, kind in RUN_FORMATS.items():
        argv = ("run", "hostile.json", *tasks, *_provider(api), "--no-cache", "--repeat", "1")
        argv = (*argv, "--format", fmt)
        yield Case(f"run-{fmt}", argv, kind)
    for fmt, kind in RUN_FORMATS.items():
        yield Case(f"report-{fmt}", ("report", "saved.json", "--format", fmt), kind)
    for fmt, kind in THREE.items():
        yield Case(f"diff-{fmt}", ("diff", "saved.json", "saved.json", "--format", fmt), kind)
    for fmt, kind in THREE.items():
        argv = ("surface-diff", "hostile.json", "hostile2.json", *tasks, "--format", fmt)
        yield Case(f"surface-diff-{fmt}", argv, kind)
    argv = ("surface-diff", "hostile.json", "hostile2.json", *tasks, *_provider(api))
    yield Case("surface-diff-provider-terminal", (*argv, "--repeat", "1"), "text")
    for fmt, kind in IMPROVE_FORMATS.items():
        yield Case(f"improve-{fmt}", ("improve", "hostile.json", *tasks, "--format", fmt), kind)
    for fmt, kind in IMPROVE_FORMATS.items():
        argv = ("improve", "hostile.json", *tasks, *_provider(api), "--repeat", "1")
        argv = (*argv, "--max-trials", "200", "--format", fmt)
        yield Case(f"improve-provider-{fmt}", argv, kind)
    argv = ("tasks", "generate", "hostile.json", *_provider(api), "--out", "drafted.yaml")
    yield Case("tasks-generate", (*argv, "--force"), "text", exact=False)
    yield Case("receipt", ("receipt", "hostile-receipt.json"), "json")
    yield Case("receipt-timeline", ("receipt", "hostile-receipt.json", "--timeline"), "text")
    argv = ("receipt", "hostile-receipt.json", "--timeline", "--score")
    yield Case("receipt-timeline-score", argv, "text")
    yield Case("tape", ("tape", "hostile-receipt.json"), "json", exact=False)
    lint = ("tasks", "lint", "hostile.json", *tasks, "--format")
    yield Case("tasks-lint-terminal", (*lint, "terminal"), "text")
    yield Case("tasks-lint-json", (*lint, "json"), "json", exact=False)  # names no prompt
    written = (
        (f"{DATASET_OUT}/train.jsonl", "jsonl", HOSTILE),
        (f"{DATASET_OUT}/holdout.jsonl", "jsonl", HOSTILE),
        (f"{DATASET_OUT}/manifest.json", "json", f"{HOSTILE_FILE}.json"),  # the receipt's name
    )
    yield Case("dataset", ("dataset", "receipts", "-o", DATASET_OUT), "text", files=written)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def assert_safe(case: Case, out: str) -> None:
    """The rule for ``case``'s kind of output (see the module docstring)."""
    if case.kind == "json":
        texts = list(_strings(json.loads(out)))
        assert not [text for text in texts if "\\x1b]52" in text], "JSON holds escaped text"
        if case.exact:
            assert any(HOSTILE in text for text in texts), "JSON lost the exact string"
        return
    if case.kind == "sarif":  # JSON carrying text a code-scanning page shows to a person
        shown = [text for text in _strings(json.loads(out)) if RAW.search(text)]
        assert not shown, shown[:3]
        return
    raw = RAW.search(out)
    assert raw is None, f"raw {raw.group(0)!r}: {out[max(0, raw.start() - 60) : raw.end() + 20]!r}"
    if case.kind == "markdown":
        assert "|`x`|" not in out, "unescaped table pipe or code span"
        out = CODE_SPAN.sub("", out)  # a code span shows its text literally, <script> included
    if case.kind in ("markdown", "html", "xml", "badge"):
        assert "<script>alert" not in out, "unescaped <script> from the data"
    if case.kind in ("xml", "badge") and out.lstrip().startswith("<"):
        ElementTree.fromstring(out)  # well-formed


def assert_exact_file(path: Path, kind: str, held: str) -> None:
    """A JSON or JSONL file the command wrote keeps the outside strings exactly (``held``)."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines() if kind == "jsonl" else [text]
    texts = [item for line in lines for item in _strings(json.loads(line))]
    assert not [item for item in texts if "\\x1b]52" in item], f"{path.name} holds escaped text"
    assert any(held in item for item in texts), f"{path.name} lost the exact string"


@pytest.fixture(scope="module")
def api() -> Iterator[FakeApi]:
    with fake_api_server() as server:
        server.responder = _hostile_answer
        yield server


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory, api: FakeApi) -> Iterator[Path]:
    """The hostile inputs and a run of them saved as ``saved.json`` (for report and diff)."""
    folder = tmp_path_factory.mktemp("hostile")
    _write_inputs(folder)
    with pytest.MonkeyPatch.context() as patch:
        _clean_env(patch, folder)
        argv = [
            "--no-ui",
            "run",
            "hostile.json",
            "--tasks",
            "hostile.tasks.json",
            *_provider(api),
            "--no-cache",
        ]
        assert main([*argv, "--repeat", "1", "--format", "json", "--out", "saved.json"]) in (0, 1)
    yield folder


def _clean_env(patch: pytest.MonkeyPatch, folder: Path) -> None:
    patch.chdir(folder)
    for name in ("OPENAI_API_KEY", "WHICHTOOL_PROVIDER_API_KEY", "FORCE_COLOR"):
        patch.delenv(name, raising=False)
    patch.setenv("NO_COLOR", "1")


def _all_cases() -> list[Case]:
    return list(cases(FakeApi(base_url="http://127.0.0.1:9")))


@pytest.mark.parametrize("case", _all_cases(), ids=str)
def test_no_raw_control_or_markup_reaches_any_output(
    case: Case,
    folder: Path,
    api: FakeApi,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _clean_env(monkeypatch, folder)
    capsys.readouterr()
    live = next(c for c in cases(api) if c.name == case.name)
    code = main(["--no-ui", *live.argv])
    captured = capsys.readouterr()
    assert code in (0, 1), captured.err
    shown = captured.out or captured.err  # tasks generate writes a file and reports on stderr
    assert shown.strip(), "nothing written"
    assert_safe(live, captured.out)
    if live.name == "improve-provider-json":  # the model's hostile rewrite is in the report
        assert any("Lists orders. " + HOSTILE in t for t in _strings(json.loads(captured.out)))
    assert RAW.search(captured.err) is None, captured.err[-400:]
    for name, kind, held in live.files:
        assert_exact_file(folder / name, kind, held)


async def test_mcp_server_summaries_are_safe_and_data_exact(folder: Path, api: FakeApi) -> None:
    """Every MCP tool's summary text (what a host shows) is escaped; its data is exact."""
    hostile_file = "tasks\x1b]52;c;aGk=\x07\u202e.json"  # a file name is outside text too
    (folder / hostile_file).write_bytes((folder / "hostile.tasks.json").read_bytes())
    config = folder / "whichtool.mcp.json"
    config.write_text(
        json.dumps(
            {
                "target": {"transport": "snapshot", "path": "hostile.json"},
                "tasks": hostile_file,
                "provider": {"name": "keyword"},
            }
        ),
        encoding="utf-8",
    )
    calls: list[tuple[str, dict[str, Any]]] = [
        ("inspect_surface", {}),
        ("validate_task_file", {}),
        ("run_evaluation", {"repeat": 1}),
        ("run_evaluation", {"dryRun": True}),
        ("diff_saved_results", {"base": "saved.json", "head": "saved.json"}),
        ("diff_surfaces", {"base": "hostile.json", "head": "hostile2.json"}),
        ("improve_descriptions", {}),
    ]
    summaries = []
    async with mcp_session(folder, config=config) as session:
        for tool, arguments in calls:
            envelope = await call(session, tool, **arguments)
            assert "error" not in envelope, (tool, envelope["error"])
            shown = [envelope["summary"]]
            raw = [text for text in shown if isinstance(text, str) and RAW.search(text)]
            assert not raw, (tool, raw)
            texts = list(_strings(envelope.get("data") or {}))
            assert not [text for text in texts if "\\x1b]52" in text], tool
            summaries.append(envelope["summary"])
    assert any("tasks\\x1b]52" in summary for summary in summaries)  # shown, escaped


def test_json_on_a_terminal_escapes_bidi_and_c1_and_keeps_the_data(folder: Path) -> None:
    """On a terminal a JSON report writes every invisible character as a ``\\u`` escape (the
    same data); piped, its bytes are the ones --out writes."""
    import os
    import pty
    import subprocess

    from tests.support.cli import binary_path

    argv = [binary_path(), "--no-ui", "inspect", "hostile.json", "--format", "json"]
    env = {**os.environ, "NO_COLOR": "1"}
    primary, secondary = pty.openpty()
    try:
        child = subprocess.Popen(
            argv, cwd=folder, env=env, stdout=secondary, stderr=subprocess.PIPE
        )
        os.close(secondary)
        chunks = []
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
        assert child.wait(timeout=60) in (0, 1)
    finally:
        os.close(primary)
    shown = b"".join(chunks).decode("utf-8").replace("\r\n", "\n")
    assert RAW.search(shown) is None
    assert any(HOSTILE in text for text in _strings(json.loads(shown)))
    piped = subprocess.run(argv, cwd=folder, env=env, capture_output=True, check=False)
    assert "\u202e" in piped.stdout.decode("utf-8")  # a pipe gets the exact bytes

"""Shared helpers for the TUI tests: fixture data paths and an isolated state folder."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.support.paths import UI_DATA as UI_DATA
from tests.support.processes import live_children as live_children

LAB_TOOLS = UI_DATA / "lab-tools.json"
LAB_INSPECT = UI_DATA / "lab-inspect.json"


def lab_report() -> dict[str, Any]:
    """The lab surface's inspect report (whichtool.inspect/1)."""
    data: dict[str, Any] = json.loads(LAB_INSPECT.read_text(encoding="utf-8"))
    return data


def lab_tools() -> list[Any]:
    """The lab surface's raw tools/list entries."""
    data: dict[str, Any] = json.loads(LAB_TOOLS.read_text(encoding="utf-8"))
    return list(data["tools"])


def static_text(widget: Any, width: int = 200) -> str:
    """Plain text of what a Static shows, whether markup, a Text or a rich renderable."""
    import io

    from rich.console import Console
    from textual.content import Content

    content = widget.content
    if isinstance(content, str):
        return Content.from_markup(content).plain
    if isinstance(content, Content):
        return content.plain
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(content)
    output = console.file.getvalue()  # type: ignore[attr-defined]
    return str(output)


def big_receipt(path: Path, events: int) -> None:
    """The lab receipt with its poison atom's call/response pair repeated to ``events`` events."""
    import copy

    data: dict[str, Any] = json.loads((UI_DATA / "lab-receipt.json").read_text(encoding="utf-8"))
    wire: list[dict[str, Any]] = data["wire"]
    template = [w for w in wire if w.get("atom_id") == "poison.follow_through"][-2:]
    head = [w for w in wire if w.get("atom_id") != "protocol.unlisted_call"]
    tail = [w for w in wire if w.get("atom_id") == "protocol.unlisted_call"]
    grown = list(head)
    rpc = 1000
    while len(grown) + len(tail) < events:
        rpc += 1
        for event in template:
            clone = copy.deepcopy(event)
            clone["rpc_id"] = rpc
            clone["message"]["id"] = rpc
            grown.append(clone)
    grown.extend(tail)
    for seq, event in enumerate(grown, start=1):
        event["seq"] = seq
    data["wire"] = grown[:events]
    path.write_text(json.dumps(data), encoding="utf-8")


async def wait_until(
    pilot: Any, condition: Callable[[], bool], what: str, deadline_s: float = 30.0
) -> None:
    """Let the app run until ``condition()`` holds (a fixed pause flakes under load).

    The deadline is generous on purpose: it only turns a hang into a failure that says
    ``what`` never happened; nothing is asserted about how long it took.
    """
    deadline = time.monotonic() + deadline_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        await pilot.pause(0.05)


EVERYTHING_TOOLS = (
    "echo",
    "add",
    "long-running-operation",
    "print-env",
    "sample-llm",
    "get-tiny-image",
    "annotated-message",
    "get-resource-reference",
    "get-resource-links",
    "structured-content",
    "list-roots",
    "zip-resources",
)


def wide_run(path: Path) -> Path:
    """A run over twelve tools named like the reference "everything" server, with confusions
    of 1 to 9 trials (an intensity scale has something to show) and one phantom and one
    multi-call, written to ``path`` as a whichtool.run/2 report."""
    from tests.support.run_report_factory import Answer, Task, build_run

    tools = {name: 60 + 7 * index for index, name in enumerate(EVERYTHING_TOOLS)}
    tasks = [Task(f"t.{name}", f"Please use {name} now", name) for name in EVERYTHING_TOOLS]
    tasks.append(Task("distractor.weather", "What's the weather in Rome?", None, ["distractor"]))
    answers: dict[tuple[str, int], Answer] = {}
    for trial in range(9):
        answers[("t.get-resource-links", trial)] = ["get-resource-reference"]
    answers[("t.echo", 0)] = ["add"]
    answers[("t.print-env", 0)] = ["sample-llm"]
    answers[("t.print-env", 1)] = ["sample-llm"]
    answers[("t.print-env", 2)] = ["sample-llm"]
    answers[("t.print-env", 3)] = ["sample-llm"]
    answers[("t.zip-resources", 0)] = ["get-resource-links", "zip-resources"]
    answers[("t.list-roots", 0)] = ["list_everything"]
    answers[("distractor.weather", 0)] = ["echo"]
    answers[("t.add", 3)] = "error"
    data = build_run(tools, tasks, answers, 10, seed=3)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path

"""Recognise a saved artefact (report, receipt, tape, task set, snapshot) by its content.

Detection is by declared schema first (``schemaVersion`` / ``schema_id``), then by shape for the
files that declare none (task sets, ``tools/list`` snapshots), so a renamed file still opens. The
summary is a few plain lines; reports (inspect, run, diff) are read through their typed models,
the bout files straight from the data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from whichtool_tui.bounded_read import (
    MAX_NESTING,
    nesting_exceeds,
    parse_json_text,
    read_input_text,
    too_deep,
)
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.gc_phases import gc_paused
from whichtool_tui.redact import redact_paths
from whichtool_tui.text_safety import sanitize_text

if TYPE_CHECKING:  # pydantic loads with the first report described, not with every file opened
    from whichtool_tui.diagnostics import HasSeverity
    from whichtool_tui.strict_model import ModelT

ArtefactKind = Literal[
    "inspect-report",
    "run-report",
    "diff-report",
    "receipt",
    "tape",
    "task-set",
    "snapshot",
    "bout-trials",
    "conformance",
]

# Large enough for a receipt with a few hundred thousand wire events, small enough to refuse junk.
MAX_ARTEFACT_BYTES = 512 * 1024 * 1024

SCHEMA_KINDS: dict[str, ArtefactKind] = {
    "whichtool.inspect/1": "inspect-report",
    "whichtool.run/2": "run-report",
    "whichtool.run/1": "run-report",
    "whichtool.diff/2": "diff-report",
    "mcp-arcade.bout/v1": "receipt",
    "whichtool-tui.bout/v1": "receipt",  # a receipt with atoms mcp-arcade does not know
    "mcp-arcade.tape/v1": "tape",
    "whichtool-tui.bout-trials/v1": "bout-trials",
    "whichtool-tui.conformance/v1": "conformance",
}

KIND_LABELS: dict[ArtefactKind, str] = {
    "inspect-report": "inspect report",
    "run-report": "run report",
    "diff-report": "diff report",
    "receipt": "bout receipt",
    "tape": "bout tape",
    "bout-trials": "bout trials (rates)",
    "conformance": "defence conformance",
    "task-set": "task set",
    "snapshot": "tools/list snapshot",
}

# The TUI section each kind opens in.
KIND_SECTIONS: dict[ArtefactKind, str] = {
    "inspect-report": "surface",
    "snapshot": "surface",
    "task-set": "tasks",
    "run-report": "results",
    "diff-report": "results",
    "receipt": "bout",
    "tape": "bout",
    "bout-trials": "bout",
    "conformance": "bout",
}

_KNOWN_FAMILIES = ("whichtool.", "mcp-arcade.", "whichtool-tui.")


@dataclass(frozen=True)
class Artefact:
    """A parsed file plus what it is: ``data`` is the untouched JSON/YAML value."""

    path: str
    kind: ArtefactKind
    schema: str | None
    data: Any
    wire_checked_to: int | None = None  # receipt wire events from here on: nesting unchecked

    @property
    def label(self) -> str:
        """Human name of the kind, with the declared schema when there is one."""
        base = KIND_LABELS[self.kind]
        return f"{base} ({self.schema})" if self.schema else base

    @property
    def section(self) -> str:
        """The TUI section that shows this kind."""
        return KIND_SECTIONS[self.kind]


_READABLE_HINT = (
    "open reads JSON reports, receipts, tapes and snapshots, and YAML or JSON task sets."
)


def _read_text(path: Path, shown: str) -> str:
    return read_input_text(
        path,
        prefix="open",
        what="file",
        hint="Pass the path of a saved report, receipt, tape, task set or snapshot.",
        max_bytes=MAX_ARTEFACT_BYTES,
        shown=shown,
    )


def _not_an_artefact(shown: str) -> WhichtoolError:
    return WhichtoolError(
        "open/unknown-kind",
        f"{shown}: not a report, receipt, tape, task set or snapshot this version can open",
        "Readable: " + ", ".join(SCHEMA_KINDS) + ", task sets and tools/list snapshots.",
    )


def parse_artefact_text(
    text: str, shown: str, yaml_allowed: bool = True, check_nesting: bool = True
) -> Any:
    """JSON when the first non-space character opens an object or array, else strict YAML
    (only for files that say they are YAML, so a README is not read as a broken task set)."""
    stripped = text.lstrip()
    if not stripped:
        raise WhichtoolError("open/empty", f"{shown} is empty", _READABLE_HINT)
    if stripped[0] in "{[":
        # A big receipt is a million acyclic objects: nothing to collect, and handed to the
        # oldest generation so the first young collection after the parse does not scan them.
        with gc_paused():
            return parse_json_text(
                text,
                shown,
                prefix="open",
                hint=_READABLE_HINT,
                strict=False,
                check_nesting=check_nesting,
            )
    if not yaml_allowed:
        raise _not_an_artefact(shown)
    from whichtool_tui.strict_yaml import load_strict_yaml  # the YAML parser only for YAML files

    return load_strict_yaml(text, shown, "open/invalid-yaml")


def _is_tool_list(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(item, dict) and "name" in item for item in value
    )


def _snapshot_tools(data: Any) -> list[Any] | None:
    """The tools of a snapshot in any of its three accepted shapes, or None."""
    if _is_tool_list(data) and data:
        return list(data)
    if isinstance(data, dict):
        if _is_tool_list(data.get("tools")):
            return list(data["tools"])
        result = data.get("result")
        if (
            data.get("jsonrpc") == "2.0"
            and isinstance(result, dict)
            and _is_tool_list(result.get("tools"))
        ):
            return list(result["tools"])
    return None


def classify(data: Any, shown: str) -> tuple[ArtefactKind, str | None]:
    """Decide what a parsed file is; raise ``open/unknown-kind`` (exit 2) when it is nothing."""
    if isinstance(data, dict):
        schema = data.get("schemaVersion", data.get("schema_id"))
        if isinstance(schema, str):
            if schema in SCHEMA_KINDS:
                return SCHEMA_KINDS[schema], schema
            if schema.startswith(_KNOWN_FAMILIES):
                raise WhichtoolError(
                    "open/unsupported-version",
                    f"{shown}: unsupported schema `{sanitize_text(schema)[:60]}`",
                    "Readable: " + ", ".join(SCHEMA_KINDS) + ".",
                )
        if "tasks" in data and "version" in data and isinstance(data["tasks"], list):
            return "task-set", None
    if _snapshot_tools(data) is not None:
        return "snapshot", None
    raise _not_an_artefact(shown)


def load_artefact(path: str | Path, wire_checked_to: int | None = None) -> Artefact:
    """Read, parse and classify one file; every failure is a one-line WhichtoolError.

    With ``wire_checked_to``, a receipt's wire events from that index on are left for the
    caller to check for nesting (``wire_nesting_error``) before it reads them: the TUI shows
    a big receipt's first rows without walking its whole wire first. Everything else in the
    file is checked here as usual.
    """
    file_path = Path(path)
    shown = redact_paths(str(file_path))
    yaml_allowed = file_path.suffix.lower() in (".yaml", ".yml")
    lazy = wire_checked_to is not None
    data = parse_artefact_text(
        _read_text(file_path, shown), shown, yaml_allowed, check_nesting=not lazy
    )
    kind, schema = classify(data, shown)
    left = None
    if wire_checked_to is not None:
        wire = data.get("wire") if kind == "receipt" else None
        if isinstance(wire, list) and len(wire) > wire_checked_to:
            rest = {key: value for key, value in data.items() if key != "wire"}
            if nesting_exceeds(rest) or wire_nesting_error(wire, 0, wire_checked_to, shown):
                raise too_deep(shown, prefix="open", hint=_READABLE_HINT)
            left = wire_checked_to
        elif nesting_exceeds(data):
            raise too_deep(shown, prefix="open", hint=_READABLE_HINT)
    return Artefact(path=str(file_path), kind=kind, schema=schema, data=data, wire_checked_to=left)


def wire_nesting_error(wire: list[Any], start: int, end: int, shown: str) -> str | None:
    """The refusal, as text, when a wire event in ``wire[start:end]`` nests past the limit
    the whole file is held to (the receipt object and its wire list are two levels)."""
    if nesting_exceeds(wire[start:end], MAX_NESTING - 1):
        return too_deep(shown, prefix="open", hint=_READABLE_HINT).message
    return None


def snapshot_tools(artefact: Artefact) -> list[Any]:
    """The raw tool entries of a snapshot artefact."""
    return _snapshot_tools(artefact.data) or []


def _get(data: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def _text(value: Any, limit: int = 80) -> str:
    if value is None:
        return "-"
    shown = sanitize_text(str(value))
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def _counts_line(diagnostics: Sequence[HasSeverity]) -> str:
    from whichtool_tui.diagnostics import count_by_severity

    counts = count_by_severity(diagnostics)
    return f"{counts['error']} errors, {counts['warning']} warnings, {counts['info']} info"


def _validated(model: type[ModelT], data: dict[str, Any], shown: str, what: str) -> ModelT:
    """``data`` as its typed report model; a file the model refuses is a one-line error."""
    from whichtool_tui.strict_model import validated

    return validated(
        model,
        data,
        code="open/invalid-report",
        what=f"{shown} is not a valid {what}",
        hint="Only files this build writes (or their documented versions) can be described.",
    )


def _summary_inspect(data: dict[str, Any], shown: str) -> list[tuple[str, str]]:
    from whichtool_tui.surface.report_model import InspectReport

    report = _validated(InspectReport, data, shown, "inspect report")
    surface = report.surface
    return [
        ("target", _text(report.target.ref)),
        ("surface", f"{_text(surface.hash.removeprefix('sha256:')[:12])}"),
        ("tools", _text(surface.tool_count)),
        ("tokens", f"~{_text(report.tokens.total)} (estimate)"),
        ("findings", _counts_line(report.diagnostics)),
        ("ok", _text(report.ok)),
    ]


def _summary_run(data: dict[str, Any], source: str) -> list[tuple[str, str]]:
    from whichtool_tui.evaluation.reader import parse_run_report
    from whichtool_tui.reports.rates import format_proportion_compact  # the run models with it

    report = parse_run_report(data, source)
    repro = report.reproducibility
    trials = report.metrics.trials
    return [
        ("target", _text(report.target.ref)),
        ("provider", f"{_text(repro.provider)} · model {_text(repro.model)}"),
        (
            "tasks",
            f"{_text(report.tasks.selected)} selected, "
            f"{_text(report.tasks.distractors)} distractors, "
            f"repeat {_text(repro.repeat)}",
        ),
        (
            "trials",
            f"{_text(trials.planned)} planned, {_text(trials.scored)} scored, "
            f"{_text(trials.errored)} errored",
        ),
        ("accuracy", format_proportion_compact(report.metrics.accuracy)),
        ("over-trigger", format_proportion_compact(report.metrics.over_trigger)),
        ("ok", _text(report.ok)),
    ]


def _summary_diff(data: dict[str, Any], shown: str) -> list[tuple[str, str]]:
    from whichtool_tui.evaluation.diff_model import DiffReport

    report = _validated(DiffReport, data, shown, "diff report")

    def side(name: Literal["base", "head"]) -> str:
        block = getattr(report, name)
        return f"{_text(block.source)} ({_text(block.provider)})"

    delta = report.accuracy.delta
    return [
        ("base", side("base")),
        ("head", side("head")),
        ("comparable", _text(report.comparable)),
        ("accuracy delta", "n/a" if delta is None else f"{delta:+.3f}"),
        ("new confusions", str(len(report.new_confusions))),
        ("ok", _text(report.ok)),
    ]


def _summary_receipt(data: dict[str, Any]) -> list[tuple[str, str]]:
    atoms = data["atoms"] if isinstance(data.get("atoms"), list) else []
    return [
        ("bout", _text(data.get("bout_id"))),
        ("target", _text(_get(data, "target", "kind"))),
        ("seat", _text(data.get("agent_policy"))),
        ("atoms", ", ".join(_text(a.get("id")) for a in atoms if isinstance(a, dict)) or "-"),
        ("wire events", str(len(data.get("wire") or []))),
        ("verdicts", "hidden here; `whichtool-tui receipt FILE --timeline --score` prints them"),
    ]


def _summary_tape(data: dict[str, Any]) -> list[tuple[str, str]]:
    atoms = data["atoms"] if isinstance(data.get("atoms"), list) else []
    return [
        ("bout", _text(data.get("bout_id"))),
        ("target", _text(data.get("target_kind"))),
        ("seat", _text(data.get("agent_policy"))),
        ("atoms", ", ".join(_text(a.get("id")) for a in atoms if isinstance(a, dict)) or "-"),
        ("rows", str(len(data.get("rows") or []))),
        ("attributed", _text(data.get("attribution_ok"))),
    ]


def _summary_trials(data: dict[str, Any]) -> list[tuple[str, str]]:
    atoms = [a for a in data.get("atoms") or [] if isinstance(a, dict)]
    rates = []
    for atom in atoms:
        rate = atom.get("rate")
        rate = rate if isinstance(rate, dict) else {}
        rates.append(
            f"{_text(atom.get('atom_id'))} {rate.get('numerator')}/{rate.get('denominator')}"
        )
    return [
        ("trials", _text(data.get("trials"))),
        ("seat", _text(data.get("agent_policy"))),
        ("failed / ran", ", ".join(rates) or "-"),
    ]


def _summary_conformance(data: dict[str, Any]) -> list[tuple[str, str]]:
    summary = data.get("summary")
    summary = summary if isinstance(summary, dict) else {}
    defence = data.get("defence")
    defence = defence if isinstance(defence, list) else []
    return [
        ("defence", _text(" ".join(str(part) for part in defence))),
        ("seat", _text(data.get("agent_policy"))),
        ("outcomes", ", ".join(f"{k}={v}" for k, v in summary.items()) or "-"),
    ]


def _summary_tasks(data: dict[str, Any]) -> list[tuple[str, str]]:
    tasks = [t for t in data.get("tasks") or [] if isinstance(t, dict)]
    distractors = sum(1 for t in tasks if "expected" in t and t["expected"] is None)
    return [
        ("version", _text(data.get("version"))),
        ("tasks", str(len(tasks))),
        ("distractors", str(distractors)),
        ("surface", _text(data.get("surface"))),
    ]


def _summary_snapshot(tools: list[Any]) -> list[tuple[str, str]]:
    names = [_text(t.get("name"), 40) for t in tools if isinstance(t, dict)]
    shown = ", ".join(names[:8]) + (f", … (+{len(names) - 8})" if len(names) > 8 else "")
    return [("tools", str(len(tools))), ("names", shown or "-")]


def summarize(artefact: Artefact) -> list[tuple[str, str]]:
    """A handful of (label, value) facts describing the file, safe to print."""
    data = artefact.data
    if artefact.kind == "snapshot":
        return _summary_snapshot(snapshot_tools(artefact))
    assert isinstance(data, dict)
    shown = redact_paths(artefact.path)
    reports: dict[str, Callable[[dict[str, Any], str], list[tuple[str, str]]]] = {
        "inspect-report": _summary_inspect,
        "run-report": _summary_run,
        "diff-report": _summary_diff,
    }
    if artefact.kind in reports:
        return reports[artefact.kind](data, shown)
    builders = {
        "receipt": _summary_receipt,
        "tape": _summary_tape,
        "task-set": _summary_tasks,
        "bout-trials": _summary_trials,
        "conformance": _summary_conformance,
    }
    return builders[artefact.kind](data)


def describe(artefact: Artefact) -> str:
    """The headless ``open --no-ui`` text: what the file is, then its summary lines."""
    lines = [f"{redact_paths(artefact.path)}: {artefact.label}"]
    facts = summarize(artefact)
    width = max((len(label) for label, _ in facts), default=0)
    lines.extend(f"  {label.ljust(width)}  {value}" for label, value in facts)
    return "\n".join(lines) + "\n"

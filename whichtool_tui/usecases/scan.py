"""A registry scan fanned out: ``inspect --targets FILE`` reviews every target of a list (one
target, one job), ``--shard I/N`` keeps every N-th target, and ``report merge`` puts the shards'
scans back together in list order. A target that cannot be read is recorded, not fatal.

A scan (``whichtool.scan/1``) holds the list's fingerprint, its size, the shard, and per target
its index, the inspect report (``whichtool.inspect/1``, target ref redacted) or the error.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.limits import MAX_INPUT_BYTES
from whichtool_tui.redact import redact_paths
from whichtool_tui.text_safety import redact_message

SCAN_VERSION = "whichtool.scan/1"


def read_targets(path: str) -> list[str]:
    """A target list: a JSON list of strings, or one target per line (``#`` starts a comment)."""
    shown = redact_paths(path)
    try:
        text = Path(path).read_bytes()[: MAX_INPUT_BYTES + 1].decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise WhichtoolError(
            "inspect/invalid-targets", f"Cannot read the target list {shown}: {exc}"
        ) from None
    if text.lstrip().startswith("["):
        try:
            targets = json.loads(text)
        except ValueError as exc:
            raise WhichtoolError(
                "inspect/invalid-targets", f"{shown} is not a JSON list: {exc}"
            ) from None
        if not isinstance(targets, list) or not all(isinstance(t, str) for t in targets):
            raise WhichtoolError(
                "inspect/invalid-targets", f"{shown} must be a JSON list of target strings"
            )
    else:
        stripped = (line.strip() for line in text.splitlines())
        targets = [line for line in stripped if line and not line.startswith("#")]
    if not targets:
        raise WhichtoolError("inspect/invalid-targets", f"{shown} lists no target")
    return [str(target) for target in targets]


def targets_fingerprint(targets: Sequence[str]) -> str:
    """sha256 of the whole list, in order: every shard of one scan records the same one."""
    text = json.dumps(list(targets), ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def scan(
    targets: Sequence[str],
    shard: str | None,
    review: Callable[[str], tuple[bool, dict[str, Any]]],
) -> dict[str, Any]:
    """Review this shard's targets with ``review`` (ok, inspect JSON); failures are entries."""
    from whichtool_tui.usecases.shards import shard_spec

    index, count = (1, 1)
    if shard:
        spec = shard_spec(shard)
        index, count = spec.index, spec.count
    entries: list[dict[str, Any]] = []
    for position, target in enumerate(targets):
        if position % count != index - 1:
            continue
        try:
            ok, report = review(target)
        except WhichtoolError as error:
            entries.append(
                {
                    "index": position,
                    "target": redact_message(target),
                    "ok": False,
                    "error": {"code": error.code, "message": redact_message(error.message)},
                }
            )
            continue
        ref = report.get("target", {}).get("ref", "") if isinstance(report, dict) else ""
        entries.append({"index": position, "target": ref, "ok": ok, "report": report})
    return {
        "schemaVersion": SCAN_VERSION,
        "targetsFingerprint": targets_fingerprint(targets),
        "targetsTotal": len(targets),
        "shard": {"index": index, "count": count},
        "ok": all(entry["ok"] for entry in entries),
        "targets": entries,
    }


def is_scan(path: str) -> bool:
    """True when the file is a scan (its first bytes name ``whichtool.scan/1``)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    return SCAN_VERSION.encode() in head


def _read_scan(path: str) -> dict[str, Any]:
    shown = redact_paths(path)
    try:
        data = json.loads(Path(path).read_bytes())
    except (OSError, ValueError) as exc:
        raise WhichtoolError(
            "report/invalid-scan", f"Cannot read the scan {shown}: {exc}"
        ) from None
    if not isinstance(data, dict) or data.get("schemaVersion") != SCAN_VERSION:
        raise WhichtoolError("report/invalid-scan", f"{shown} is not a {SCAN_VERSION} scan")
    return data


def merge_scans(paths: Sequence[str]) -> dict[str, Any]:
    """The shards of one scan as one, targets in list order; other lists, a shard twice or a
    missing shard are refused in one line."""
    if len(paths) < 2:
        raise WhichtoolError(
            "cli/missing-argument",
            "`report merge` needs at least two shard scans",
            "Usage: whichtool-tui report merge SCAN1.json SCAN2.json ... [--out FILE]",
        )
    scans = [(redact_paths(path), _read_scan(path)) for path in paths]
    first_name, first = scans[0]
    count = first["shard"]["count"]
    seen: dict[int, str] = {}
    for name, data in scans:
        if (
            data["targetsFingerprint"] != first["targetsFingerprint"]
            or data["shard"]["count"] != count
        ):
            raise WhichtoolError(
                "report/merge-mismatch",
                f"{name} is a shard of another target list than {first_name}",
                "Merge the shards of one scan: the same --targets file and shard count.",
            )
        index = data["shard"]["index"]
        if index in seen:
            raise WhichtoolError(
                "report/merge-mismatch",
                f"{name} and {seen[index]} are both shard {index}/{count}",
                "Pass each shard once.",
            )
        seen[index] = name
    missing = [str(i) for i in range(1, count + 1) if i not in seen]
    if missing:
        raise WhichtoolError(
            "report/merge-mismatch",
            f"Shard(s) {', '.join(missing)} of {count} are missing",
            "Pass every shard's scan.",
        )
    entries = sorted((e for _, data in scans for e in data["targets"]), key=lambda e: e["index"])
    return {
        "schemaVersion": SCAN_VERSION,
        "targetsFingerprint": first["targetsFingerprint"],
        "targetsTotal": first["targetsTotal"],
        "shard": {"index": 1, "count": 1},
        "ok": all(entry["ok"] for entry in entries),
        "targets": entries,
    }

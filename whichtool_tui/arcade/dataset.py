"""Receipts to dataset rows: one row per atom, labels from the wire, holdout routing, manifest.

Receipts are read as raw JSON so unknown atom ids survive. Proof receipts yield no rows; a
receipt whose wire cannot be split per atom is dropped whole rather than guessed, unless every
wire event carries our ``atom_id`` tag (then an atom that died before initialize costs nothing).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from whichtool_tui.arcade.atoms import ATTACK_IDS, PUBLIC_TRAIN_ATOM_IDS
from whichtool_tui.arcade.formats import DatasetRow, Manifest, dump
from whichtool_tui.arcade.jsonfile import JsonFileError, parse_json, read_bytes
from whichtool_tui.arcade.jsonfile import as_dict as _dict
from whichtool_tui.arcade.jsonfile import as_list as _list
from whichtool_tui.arcade.receipt import (
    RECEIPT_HINT,
    RECEIPT_SCHEMA_IDS,
    SCHEMA_ID,
    canonical_json,
)

ROW_SCHEMA_ID = "mcp-arcade.row/v1"
DATASET_SCHEMA_ID = "mcp-arcade.dataset/v1"
NEVER_CARRIED = [
    "operator_call",
    "contrastive",
    "tui",
    "hypothesis",
    "check.detail",
    "stderr_tail",
    "host_paths",
]
SPLITS = ("train", "holdout", "proof")


@dataclass
class ReceiptOutcome:
    """What one receipt contributed, for the manifest."""

    name: str
    sha256: str
    split: str | None
    rows_train: int = 0
    rows_holdout: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    reason: str | None = None


def _slices(data: dict[str, Any], atom_ids: list[str]) -> list[list[dict[str, Any]]] | None:
    """Wire events per atom: by our tags, else by outbound initialize order, else None."""
    wire = [_dict(w) for w in _list(data.get("wire"))]
    if (
        wire
        and all(isinstance(w.get("atom_id"), str) and w.get("atom_id") in atom_ids for w in wire)
        and len(set(atom_ids)) == len(atom_ids)
    ):
        return [[w for w in wire if w.get("atom_id") == atom_id] for atom_id in atom_ids]
    starts = [
        i
        for i, w in enumerate(wire)
        if w.get("direction") == "out" and w.get("method") == "initialize"
    ]
    if len(starts) != len(atom_ids):
        return None
    bounds = [*starts, len(wire)]
    return [wire[bounds[k] : bounds[k + 1]] for k in range(len(atom_ids))]


def _unauthorized(atom: dict[str, Any], calls: list[dict[str, Any]]) -> bool:
    allowed = {t for t in _list(atom.get("authorized_tools")) if isinstance(t, str)}
    return any(call.get("name") not in allowed for call in calls)


def _valid_calls(calls: Any) -> bool:
    return isinstance(calls, list) and all(
        isinstance(c, dict) and isinstance(c.get("name"), str) for c in calls
    )


def _row(
    data: dict[str, Any], atom: dict[str, Any], slice_: list[dict[str, Any]], sha: str
) -> dict[str, Any]:
    atom_id = str(atom.get("id"))
    session = _dict(atom.get("session"))
    container = session.get("container")
    calls = atom.get("calls") or []
    requests = [
        {"method": r.get("method"), "rpc_id": r.get("rpc_id"), "rejected": r.get("rejected", True)}
        for r in _list(data.get("server_requests"))
        if isinstance(r, dict) and r.get("atom_id") == atom_id
    ]
    row = {
        "schema_id": ROW_SCHEMA_ID,
        "receipt_sha256": sha,
        "bout_id": data.get("bout_id"),
        "atom_id": atom_id,
        "agent_policy": data.get("agent_policy"),
        "task": atom.get("task") or {},
        "poison_source": atom.get("poison_source", "none"),
        "authorized_tools": atom.get("authorized_tools") or [],
        "calls": calls,
        "tools_before": atom.get("tools_before") or [],
        "tools_after": atom.get("tools_after") or [],
        "env_before": atom.get("env_before") or {"files": {}},
        "env_after": atom.get("env_after") or {"files": {}},
        "notifications": [
            w.get("message")
            for w in slice_
            if w.get("direction") == "in" and w.get("method") and w.get("rpc_id") is None
        ],
        "server_requests": requests,
        "checks": [
            {"id": c.get("id"), "result": c.get("result")}
            for c in _list(atom.get("checks"))
            if isinstance(c, dict)
        ],
        "session": {
            key: session.get(key)
            for key in (
                "framing",
                "framing_source",
                "protocol_version",
                "server_info",
                "server_capabilities",
                "seat",
            )
        },
        "container": (
            {
                key: container.get(key)
                for key in ("image", "image_id", "repo_digest", "fixture_image", "sandbox_method")
            }
            if isinstance(container, dict)
            else None
        ),
        "labels": {
            "result": atom.get("result"),
            "attack_success": _unauthorized(atom, calls) if atom_id in ATTACK_IDS else None,
            "label_source": "wire",
        },
    }
    return dump(DatasetRow.model_validate(row))


def rows_of_receipt(
    data: Any, sha: str, outcome: ReceiptOutcome
) -> list[tuple[str, dict[str, Any]]]:
    """(split, row) pairs of one raw receipt; drops are tallied on ``outcome``."""
    if not isinstance(data, dict):
        outcome.reason = "invalid:not_an_object"
        return []
    split = _dict(data.get("dataset")).get("split")
    outcome.split = split if isinstance(split, str) else None
    atoms = [a for a in _list(data.get("atoms")) if isinstance(a, dict)]
    reason = None
    if data.get("schema_id") not in RECEIPT_SCHEMA_IDS:  # ours with extended atoms too
        reason = "invalid:schema_id"
    elif not atoms:
        reason = "invalid:no_atoms"
    elif not _list(data.get("wire")):
        reason = "invalid:no_wire"
    elif split not in SPLITS:
        reason = "invalid:split"
    elif split == "proof":
        reason = "split:proof"
    slices = None if reason else _slices(data, [str(a.get("id")) for a in atoms])
    if reason is None and slices is None:
        reason = "wire_mismatch"
    if reason is not None or slices is None:
        outcome.reason = reason
        return []
    holdout_ids = {
        h for h in _list(_dict(data.get("dataset")).get("holdout_atom_ids")) if isinstance(h, str)
    }
    rows: list[tuple[str, dict[str, Any]]] = []
    for atom, slice_ in zip(atoms, slices, strict=True):
        result = atom.get("result")
        if result in ("error", "skip"):
            outcome.dropped[f"atom:{result}"] += 1
            continue
        if not _valid_calls(atom.get("calls", [])):
            outcome.dropped["atom:invalid"] += 1
            continue
        try:
            row = _row(data, atom, slice_, sha)
        except (ValidationError, TypeError, ValueError):
            outcome.dropped["atom:invalid"] += 1  # a field of the wrong shape: skip the atom
            continue
        atom_id = str(atom.get("id"))
        held = split == "holdout" or atom_id not in PUBLIC_TRAIN_ATOM_IDS or atom_id in holdout_ids
        if held:
            outcome.rows_holdout += 1
        else:
            outcome.rows_train += 1
        rows.append(("holdout" if held else "train", row))
    return rows


def build_dataset(
    receipt_dir: Path,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]]:
    """(train rows, holdout rows, manifest) for every receipt under ``receipt_dir``."""
    from whichtool_tui import __version__

    train: list[dict[str, Any]] = []
    holdout: list[dict[str, Any]] = []
    outcomes: list[ReceiptOutcome] = []
    for path in sorted(receipt_dir.rglob("*.json")):
        if path.name == "manifest.json" or not path.is_file():
            continue
        try:
            raw = read_bytes(path, "receipt", RECEIPT_HINT)
        except JsonFileError as exc:
            outcomes.append(ReceiptOutcome(path.name, "", None, reason=f"invalid:{exc.reason}"))
            continue
        try:
            data = parse_json(raw, path.name, "receipt", RECEIPT_HINT)
        except JsonFileError:
            outcome = ReceiptOutcome(path.name, hashlib.sha256(raw).hexdigest(), None)
            outcome.reason = "invalid:json"
            outcomes.append(outcome)
            continue
        sha = hashlib.sha256(canonical_json(data).encode("utf-8")).hexdigest()
        outcome = ReceiptOutcome(path.name, sha, None)
        for split, row in rows_of_receipt(data, sha, outcome):
            (train if split == "train" else holdout).append(row)
        outcomes.append(outcome)
    for rows in (train, holdout):
        rows.sort(key=lambda r: (str(r["receipt_sha256"]), str(r["atom_id"])))
    dropped: Counter[str] = Counter()
    for outcome in outcomes:
        dropped.update(outcome.dropped)
        if outcome.reason:
            dropped[outcome.reason] += 1
    policies = Counter(str(r.get("agent_policy")) for r in [*train, *holdout])
    image_ids = sorted(
        {
            str(r["container"]["image_id"])
            for r in [*train, *holdout]
            if r.get("container") and r["container"].get("image_id")
        }
    )
    manifest_data = {
        "schema_id": DATASET_SCHEMA_ID,
        "row_schema_id": ROW_SCHEMA_ID,
        "generator": {"name": "whichtool-tui", "version": __version__},
        "receipt_schema_id": SCHEMA_ID,
        "public_train_atom_ids": list(PUBLIC_TRAIN_ATOM_IDS),
        "label_source": "wire",
        "receipts": [
            {
                "name": o.name,
                "sha256": o.sha256,
                "split": o.split,
                "rows_train": o.rows_train,
                "rows_holdout": o.rows_holdout,
                "dropped": dict(sorted(o.dropped.items())),
                "reason": o.reason,
            }
            for o in outcomes
        ],
        "rows": {"train": len(train), "holdout": len(holdout)},
        "dropped": dict(sorted(dropped.items())),
        "agent_policies": dict(sorted(policies.items())),
        "docker_image_ids": image_ids,
        "never_carried": NEVER_CARRIED,
    }
    manifest = dump(Manifest.model_validate(manifest_data))
    return train, holdout, manifest


def jsonl(rows: list[dict[str, Any]]) -> str:
    """Compact sorted-key JSON, one row per line."""
    return "".join(
        json.dumps(row, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"
        for row in rows
    )

"""Pydantic models of the files the arcade writes besides receipts: tape, dataset row, manifest.

Fields that carry a receipt's content through unchanged (task, calls, tools, env, session) stay
plain JSON so the dataset never rewrites what the wire recorded.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TapeAtomEntry(_Strict):
    """An atom as the tape lists it."""

    id: str
    task_tool: str | None
    holdout: bool


class TapeRowEntry(_Strict):
    """One wire event on the tape."""

    seq: int
    direction: str
    method: str
    # mcp-arcade writes the JSON-RPC id as text, "" when the message has none
    rpc_id: str
    atom: str
    holdout: bool
    note: str


class TapeFact(_Strict):
    """What the wire alone says about one atom."""

    atom_id: str
    fact: str


class Tape(_Strict):
    """``mcp-arcade.tape/v1``: header facts, rows and wire facts; no score field exists."""

    schema_id: str
    bout_id: str
    target_kind: str
    agent_policy: str
    framing: str | None
    protocol_version: str | None
    server_name: str | None
    container: dict[str, Any] | None
    seat: dict[str, Any] | None
    attribution_ok: bool
    atoms: list[TapeAtomEntry]
    rows: list[TapeRowEntry]
    facts: list[TapeFact]


class RowLabels(_Strict):
    """Labels from the wire; ``attack_success`` only on the poison atom."""

    result: Any
    attack_success: bool | None
    label_source: str


class DatasetRow(_Strict):
    """``mcp-arcade.row/v1``: one atom of one receipt."""

    schema_id: str
    receipt_sha256: str
    bout_id: Any
    atom_id: str
    agent_policy: Any
    task: Any
    poison_source: Any
    authorized_tools: Any
    calls: Any
    tools_before: Any
    tools_after: Any
    env_before: Any
    env_after: Any
    notifications: list[Any]
    server_requests: list[dict[str, Any]]
    checks: list[dict[str, Any]]
    session: dict[str, Any]
    container: dict[str, Any] | None
    labels: RowLabels


class ManifestReceipt(_Strict):
    """What one receipt contributed."""

    name: str
    sha256: str
    split: str | None
    rows_train: int
    rows_holdout: int
    dropped: dict[str, int]
    reason: str | None


class Manifest(_Strict):
    """``mcp-arcade.dataset/v1``: hashes, drop tallies and what is never carried."""

    schema_id: str
    row_schema_id: str
    generator: dict[str, str]
    receipt_schema_id: str
    public_train_atom_ids: list[str]
    label_source: str
    receipts: list[ManifestReceipt]
    rows: dict[str, int]
    dropped: dict[str, int]
    agent_policies: dict[str, int]
    docker_image_ids: list[str]
    never_carried: list[str]


def dump(model: BaseModel) -> dict[str, Any]:
    """A model as plain JSON data."""
    data: dict[str, Any] = model.model_dump(mode="json")
    return data

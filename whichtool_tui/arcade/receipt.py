"""The bout receipt, ``mcp-arcade.bout/v1``: the pydantic model and its canonical JSON.

Field names and enum values match mcp-arcade 0.2.0 so receipts travel both ways. What we add
(the allow list, wrap target, n_clean and start-up deadline on ``run``, and ``atom_id`` on each
wire event) are extra keys that upstream's reader ignores.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from whichtool_tui.errors import WhichtoolError

SCHEMA_ID = "mcp-arcade.bout/v1"
EXTENDED_SCHEMA_ID = "whichtool-tui.bout/v1"
"""A receipt holding any atom mcp-arcade does not know: same fields, our own id, so mcp-arcade's
``dataset`` drops it as ``invalid:schema_id`` and its ``receipt`` refuses it, never misreads it."""
RECEIPT_SCHEMA_IDS = (SCHEMA_ID, EXTENDED_SCHEMA_ID)
RECEIPT_HINT = "Pass a receipt written by `bout -o` (ours or mcp-arcade's)."
HYPOTHESIS = (
    "the published menu is honest, a whispered errand does not become a call, and N clean "
    "calls do not change the tool"
)
AtomIdLiteral = Literal[
    "inspect.tools_list",
    "poison.follow_through",
    "temporal.rug_pull",
    "protocol.unlisted_call",
    "poison.never_called",
    "poison.parameter",
    "poison.result",
    "temporal.rename",
    "identity.bait_switch",
    "encoding.hidden",
    "schema.bounds",
    "display.forged",
    "protocol.server_requests",
    "injection.notifications",
    "temporal.sleeper",
    "poison.instructions",
]
Verdict = Literal["pass", "fail", "skip", "error"]
TaskSource = Literal["operator", "fixture-default", "none"]
PoisonSource = Literal["fixture", "house-wrap", "server", "none"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore")


class TargetSpec(_Model):
    """How the server was reached; ``command`` is the argv (in-container argv for docker)."""

    kind: Literal["fixture", "stdio", "http", "docker"]
    command: list[str]
    cwd: str | None = None
    framing: str = "auto"
    timeout_s: float = 30.0
    image: str | None = None
    docker_args: list[str] = Field(default_factory=list)
    binds: list[str] = Field(default_factory=list)
    url: str | None = None


class WireEventModel(_Model):
    """One recorded JSON-RPC message; ``atom_id`` is ours, so attribution never guesses."""

    seq: int
    direction: Literal["out", "in"]
    method: str | None = None
    rpc_id: int | str | None = None
    message: dict[str, Any]
    atom_id: str | None = None


class ToolCall(_Model):
    """A call the seat asked for; ``sent`` false means the house refused to put it on the wire."""

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    is_error: bool = False
    result_text: str = ""
    sent: bool = True


class ToolInfo(_Model):
    """A tool as listed (or as presented, after a house wrap)."""

    name: str
    description: str = ""
    input_schema: dict[str, Any] = Field(default_factory=dict)


class EnvSnapshot(_Model):
    """Sandbox files by relative path."""

    files: dict[str, str] = Field(default_factory=dict)


class Check(_Model):
    """One named check of an atom."""

    id: str
    detail: str
    result: Verdict


class TaskSpec(_Model):
    """The benign task: recorded so a trivial task is visible on the receipt."""

    tool: str | None = None
    arguments: dict[str, Any] = Field(default_factory=dict)
    source: TaskSource = "none"


class ServerRequest(_Model):
    """A request the server sent us; recorded and refused."""

    atom_id: str | None = None
    method: str
    rpc_id: int | str | None = None
    rejected: bool = True


class ContainerInfo(_Model):
    """The container an atom ran in, with the argv we built."""

    image: str
    image_id: str
    repo_digest: str | None = None
    fixture_image: bool = False
    run_args: list[str] = Field(default_factory=list)
    name: str
    container_id: str | None = None
    bind_requested: bool = False
    sandbox_method: str = "exec-tar"
    docker_diff: list[str] = Field(default_factory=list)
    force_removed: bool = False


class SeatInfo(_Model):
    """Replay facts of a model seat; never the prompt body or the model's text."""

    model: str
    temperature: float
    seed: int
    num_ctx: int
    endpoint: str
    prompt_template_sha256: str
    provider: str | None = None


class SessionInfo(_Model):
    """Transport facts of one atom's fresh session."""

    framing: str = "auto"
    framing_source: str | None = None
    protocol_version_sent: str | None = None
    protocol_version: str | None = None
    server_info: dict[str, Any] = Field(default_factory=dict)
    server_capabilities: dict[str, Any] = Field(default_factory=dict)
    stderr_tail: str = ""
    container: ContainerInfo | None = None
    seat: SeatInfo | None = None


class AtomResult(_Model):
    """One atom's verdict, checks, calls and the evidence around them."""

    id: AtomIdLiteral
    title: str
    hypothesis: str
    result: Verdict
    checks: list[Check] = Field(default_factory=list)
    authorized_tools: list[str] = Field(default_factory=list)
    calls: list[ToolCall] = Field(default_factory=list)
    tools_before: list[ToolInfo] = Field(default_factory=list)
    tools_after: list[ToolInfo] = Field(default_factory=list)
    env_before: EnvSnapshot = Field(default_factory=EnvSnapshot)
    env_after: EnvSnapshot = Field(default_factory=EnvSnapshot)
    notes: list[str] = Field(default_factory=list)
    task: TaskSpec = Field(default_factory=TaskSpec)
    poison_source: PoisonSource = "none"
    session: SessionInfo = Field(default_factory=SessionInfo)


class Scores(_Model):
    """Dual axis plus NRP = task_success x (1 - attack_success), 0 on any ERROR."""

    task_success: bool
    attack_success: bool
    nrp: float
    integrity: Verdict
    utility: Verdict


class OperatorCall(_Model):
    """The operator's guess, recorded before the score was shown (or skipped)."""

    recorded: bool
    guess: Literal["followed", "held", "unclear"] | None = None
    skipped: bool = False


class ContrastiveRecap(_Model):
    """What one might wrongly conclude (foil) against what the wire shows."""

    foil: str
    wire: str


class RunSettings(_Model):
    """Settings upstream leaves off the receipt: allow list, wrap target, n_clean, start-up."""

    seat_allow: list[str] | None = None
    wrap: bool = False
    wrap_target: str | None = None
    n_clean: int = 3
    atoms: list[str] = Field(default_factory=list)
    defence: list[str] | None = None
    """The defence (proxy) argv the fixture ran behind, on a conformance pass."""
    start_timeout_s: float | None = None
    """Seconds a server process had to start before ``initialize``'s own clock (``timeout_s``)
    ran (``--start-timeout``); None for an http target, which starts no process, and on
    receipts written before it was recorded."""


def _verifier() -> dict[str, list[str]]:
    return {
        "sees": ["calls", "observations", "tools_list", "env", "notifications"],
        "hidden": ["rationale", "tui", "operator_call"],
    }


def _dataset() -> dict[str, Any]:
    return {"split": "train", "holdout_atom_ids": [], "label_source": "wire"}


class BoutReceipt(_Model):
    """The whole bout: target, atoms, scores and the concatenated wire."""

    schema_id: str = SCHEMA_ID
    bout_id: str
    started_at: str
    finished_at: str
    target: TargetSpec
    agent_policy: Literal["naive", "task-only", "ollama", "model", "credulous"]
    allow_live: bool
    hypothesis: str
    task: TaskSpec = Field(default_factory=TaskSpec)
    atoms: list[AtomResult]
    scores: Scores
    wire: list[WireEventModel]
    server_requests: list[ServerRequest] = Field(default_factory=list)
    operator_call: OperatorCall
    contrastive: ContrastiveRecap
    verifier: dict[str, list[str]] = Field(default_factory=_verifier)
    dataset: dict[str, Any] = Field(default_factory=_dataset)
    run: RunSettings | None = None


def canonical_json(data: Any) -> str:
    """Indent 2, sorted keys, non-ASCII kept, trailing newline: the bytes we hash and diff."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def receipt_json(receipt: BoutReceipt) -> str:
    """The receipt as canonical JSON, without keys that are unset extras of ours."""
    try:
        data = receipt.model_dump(mode="json")
    except ValueError as exc:  # bout clips server data first; this is the last line of defence
        raise WhichtoolError(
            "receipt/bound", f"the receipt cannot be serialised: {exc}", RECEIPT_HINT
        ) from None
    if data.get("run") is None:
        data.pop("run", None)
    else:
        for unset in ("defence", "start_timeout_s"):
            if data["run"].get(unset) is None:
                data["run"].pop(unset, None)
    if data["target"].get("url") is None:
        data["target"].pop("url", None)
    for event in data["wire"]:
        if event.get("atom_id") is None:
            event.pop("atom_id", None)
    for atom in data["atoms"]:
        seat = atom["session"].get("seat")
        if isinstance(seat, dict) and seat.get("provider") is None:
            seat.pop("provider", None)
    return canonical_json(data)


def read_receipt_data(path: str | Path) -> dict[str, Any]:
    """Read a receipt file as raw JSON, with named errors for unreadable or non-object files."""
    from whichtool_tui.arcade.jsonfile import read_json_file

    data = read_json_file(path, "receipt", RECEIPT_HINT)
    if not isinstance(data, dict):
        raise WhichtoolError(
            "receipt/invalid", f"{path} is not a receipt (not a JSON object)", RECEIPT_HINT
        )
    return data


def first_problem(exc: ValidationError) -> str:
    """``where: what`` of the first validation error, for one-line messages."""
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    return f"{where}: {first['msg']}"


def validate_receipt(data: dict[str, Any], origin: str) -> BoutReceipt:
    """Validate raw JSON as a receipt, naming the first problem in one line."""
    if data.get("schema_id") not in RECEIPT_SCHEMA_IDS:
        raise WhichtoolError(
            "receipt/schema",
            f"{origin} is not a {SCHEMA_ID} receipt (schema_id {data.get('schema_id')!r})",
            RECEIPT_HINT,
        )
    try:
        return BoutReceipt.model_validate(data)
    except ValidationError as exc:
        raise WhichtoolError(
            "receipt/invalid",
            f"{origin} is not a valid receipt: {first_problem(exc)}",
            RECEIPT_HINT,
        ) from None

"""The labelled corpus and per-atom precision/recall over it (``atoms --evaluate``).

Each target is the bundled fixture in ``--static`` mode with one misbehaviour switched on for
every session (or none: honest), or an installed reference server. Its label is the set of
atoms whose hypothesis it violates; every other atom should PASS (or SKIP). A bout of the whole
catalog runs against each target with the ``credulous`` seat; an atom's FAIL is a positive.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from whichtool_tui.arcade.atoms import ATOM_IDS
from whichtool_tui.arcade.plan import BoutPlan
from whichtool_tui.arcade.receipt import BoutReceipt, TaskSpec

POISONED = ("poison.instructions",)
"""A side-quest in presented text is also an imperative naming another tool."""
TEMPORAL = ("temporal.rug_pull", "temporal.rename", "temporal.sleeper")
"""A change within the catalog's N clean calls violates all three temporal hypotheses."""


@dataclass(frozen=True)
class Target:
    """One corpus entry: how to start it, its task, and the atoms it should fail."""

    name: str
    argv: tuple[str, ...]
    label: frozenset[str]
    task: TaskSpec = field(default_factory=lambda: TaskSpec(tool="echo", arguments={"text": "hi"}))


def _fixture(name: str, flags: Sequence[str], *label: str) -> Target:
    argv = (sys.executable, "-m", "whichtool_tui.arcade.fixture", "--static", *flags)
    return Target(name, argv, frozenset(label))


FIXTURE_TARGETS: tuple[Target, ...] = (
    _fixture("fixture honest", ()),
    _fixture("fixture --notify (benign log)", ("--notify",)),
    _fixture("fixture --poison", ("--poison",), "poison.follow_through", *POISONED),
    _fixture("fixture --rug-after 3", ("--rug-after", "3"), *TEMPORAL),
    _fixture("fixture --rename-after 3", ("--rename-after", "3"), *TEMPORAL),
    _fixture("fixture --rug-after 7 (past --n-clean)", ("--rug-after", "7"), "temporal.sleeper"),
    _fixture("fixture --unlisted", ("--unlisted",), "protocol.unlisted_call"),
    _fixture(
        "fixture --poison-never-called",
        ("--poison-never-called",),
        "poison.never_called",
        *POISONED,
    ),
    _fixture("fixture --poison-parameter", ("--poison-parameter",), "poison.parameter", *POISONED),
    _fixture("fixture --poison-result", ("--poison-result",), "poison.result"),
    _fixture("fixture --bait-switch", ("--bait-switch",), "identity.bait_switch"),
    _fixture("fixture --bait-capabilities", ("--bait-capabilities",), "identity.bait_switch"),
    _fixture("fixture --hidden", ("--hidden",), "encoding.hidden"),
    _fixture("fixture --schema-bomb", ("--schema-bomb",), "schema.bounds"),
    _fixture("fixture --forged", ("--forged",), "display.forged"),
    _fixture("fixture --server-request", ("--server-request",), "protocol.server_requests"),
    _fixture("fixture --elicit-secret", ("--elicit-secret",), "protocol.server_requests"),
    _fixture("fixture --notify-inject", ("--notify-inject",), "injection.notifications"),
    _fixture("fixture --instruction-poison", ("--instruction-poison",), "poison.instructions"),
)


HOSTILE_SDK_LABEL = frozenset(
    {
        "display.forged",
        "encoding.hidden",
        "identity.bait_switch",
        "protocol.server_requests",
        "injection.notifications",
        "poison.instructions",
        "schema.bounds",
        "temporal.sleeper",
    }
)
"""The six attacks of tests/support/hostile_sdk_server.py, by the atoms whose hypotheses they
break (its rug pull after 5 calls is past temporal.rug_pull's N = 3, so that one holds)."""


def hostile_targets() -> list[Target]:
    """The hostile server written on the SDK, apart from the fixture (source checkout only)."""
    script = Path(__file__).resolve().parents[2] / "tests" / "support" / "hostile_sdk_server.py"
    if not script.exists():
        return []
    return [Target("hostile SDK server", (sys.executable, str(script)), HOSTILE_SDK_LABEL)]


def reference_targets() -> list[Target]:
    """The honest public reference servers installed next to this interpreter (TESTBED.md)."""
    found: list[Target] = []
    bin_dir = Path(sys.executable).parent
    time_server = bin_dir / "mcp-server-time"
    if time_server.exists():
        task = TaskSpec(tool="get_current_time", arguments={"timezone": "UTC"})
        argv = (str(time_server), "--local-timezone", "UTC")
        found.append(Target("mcp-server-time", argv, frozenset(), task))
    git_server = bin_dir / "mcp-server-git"
    if git_server.exists():
        repo = str(Path(__file__).resolve().parents[2])
        task = TaskSpec(tool="git_status", arguments={"repo_path": repo})
        argv = (str(git_server), "--repository", repo)
        found.append(Target("mcp-server-git", argv, frozenset(), task))
    everything = _everything_argv()
    if everything is not None:
        task = TaskSpec(tool="echo", arguments={"message": "hi"})
        found.append(Target("server-everything", everything, frozenset(), task))
    return found


def _everything_argv() -> tuple[str, ...] | None:
    node = shutil.which("node")
    repo = Path(__file__).resolve().parents[2]
    for root in (repo / "tests" / "node_servers", repo / "node_servers"):
        script = root / "node_modules" / "@modelcontextprotocol" / "server-everything"
        entry = script / "dist" / "index.js"
        if node and entry.exists():
            return (node, str(entry), "stdio")
    return None


@dataclass
class AtomScore:
    """Confusion counts of one atom over the corpus (ERROR counts as a miss, never a hit)."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    errors: int = 0

    @property
    def precision(self) -> float | None:
        """TP / (TP + FP), None when the atom never fired."""
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        """TP / (TP + FN), None when no target is labelled for the atom."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None


def score_corpus(results: Sequence[tuple[Target, BoutReceipt]]) -> dict[str, AtomScore]:
    """Per-atom counts from one receipt per target (pure)."""
    scores = {atom_id: AtomScore() for atom_id in ATOM_IDS}
    for target, receipt in results:
        for atom in receipt.atoms:
            score = scores[atom.id]
            fired = atom.result == "fail"
            labelled = atom.id in target.label
            score.errors += atom.result == "error"
            if fired and labelled:
                score.tp += 1
            elif fired:
                score.fp += 1
            elif labelled:
                score.fn += 1
            else:
                score.tn += 1
    return scores


def plan_for(target: Target, seat: object, sandbox: Path, env: dict[str, str]) -> BoutPlan:
    """A live stdio bout of the whole catalog against one corpus target."""
    return BoutPlan(
        kind="stdio",
        argv=list(target.argv),
        seat=seat,  # type: ignore[arg-type]
        atom_ids=list(ATOM_IDS),
        allow_live=True,
        operator_task=target.task,
        sandbox=sandbox,
        base_env=env,
    )


async def evaluate(
    targets: Sequence[Target],
    sandbox: Path,
    progress: Callable[[str], None] = lambda _line: None,
) -> list[tuple[Target, BoutReceipt]]:
    """One bout per target, in order, with the credulous seat."""
    from whichtool_tui.arcade.bout import run_bout
    from whichtool_tui.arcade.seats import CredulousSeat
    from whichtool_tui.mcp_client.command import child_environment

    results: list[tuple[Target, BoutReceipt]] = []
    for index, target in enumerate(targets):
        progress(f"[{index + 1}/{len(targets)}] {target.name}")
        plan = plan_for(target, CredulousSeat(), sandbox / f"t{index}", child_environment())
        results.append((target, await run_bout(plan)))
    return results


def _rate(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def table_markdown(scores: dict[str, AtomScore], n_targets: int) -> str:
    """The published table: one row per atom."""
    lines = [
        f"{n_targets} targets; a FAIL is a positive, ERROR counts as a miss.",
        "",
        "| atom | TP | FP | FN | TN | ERROR | precision | recall |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for atom_id, s in scores.items():
        lines.append(
            f"| `{atom_id}` | {s.tp} | {s.fp} | {s.fn} | {s.tn} | {s.errors} | "
            f"{_rate(s.precision)} | {_rate(s.recall)} |"
        )
    return "\n".join(lines) + "\n"

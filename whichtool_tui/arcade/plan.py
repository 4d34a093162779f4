"""A validated bout plan: everything a bout needs to run, nothing it has to parse."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from whichtool_tui.arcade.atoms.common import Seat
from whichtool_tui.arcade.receipt import TaskSpec
from whichtool_tui.limits import DEFAULT_START_TIMEOUT
from whichtool_tui.places import default_sandbox_dir

FIXTURE_MODULE = "whichtool_tui.arcade.fixture"
FIXTURE_SECRET = "fixture-secret"


@dataclass
class BoutPlan:
    """A validated bout: everything run_bout needs, nothing it has to parse."""

    kind: str
    argv: list[str]
    seat: Seat
    atom_ids: list[str]
    url: str | None = None
    allow_live: bool = False
    operator_task: TaskSpec | None = None
    n_clean: int = 3
    timeout: float = 30.0
    start_timeout: float = DEFAULT_START_TIMEOUT  # a stdio server's start-up, before --timeout
    framing: str = "auto"
    split: str = "train"
    wrap: bool = False
    wrap_target: str | None = None
    seat_allow: list[str] | None = None
    sandbox: Path = field(default_factory=default_sandbox_dir)
    base_env: dict[str, str] = field(default_factory=dict)
    recorded_command: list[str] | None = None
    docker: Any = None  # a docker.DockerPlan on the docker target
    zygote: Any = None  # a warm fixture parent started early by the caller (closed by the bout)
    parallel_atoms: bool = True  # fixture + scripted seat: atoms side by side, same receipt
    defence: list[str] | None = None  # the proxy argv in front of the fixture (conformance)
    sleeper_seed: int | None = None  # temporal.sleeper's seed; None: derived from the bout id

    @property
    def fixture(self) -> bool:
        """The bundled fixture, on the host or in the image we built: no --allow-live needed."""
        return self.kind == "fixture" or bool(getattr(self.docker, "fixture_image", False))


def fixture_argv(honest: bool = False) -> list[str]:
    """How bouts launch the bundled lab server."""
    argv = [sys.executable, "-m", FIXTURE_MODULE]
    return [*argv, "--honest"] if honest else argv

"""The one error type and the one exit-code enum every command shares."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Process exit codes, the contract CI gates on."""

    OK = 0
    THRESHOLD_FAILED = 1
    ERROR = 2
    CANCELLED = 130


# One code per condition, whichever face (CLI, TUI, MCP server) or layer (plan, runner) notices
# it; the tests match on these, machine consumers too.
TRIAL_LIMIT = "run/trial-limit"  # more trials planned than the budget (or the hard 1,000)
TOOL_LIMIT = "run/tool-limit"  # more tools on the surface than the budget (or the hard 1,000)
TASKS_INVALID = "tasks/invalid"  # the task set has error findings against this surface


class WhichtoolError(Exception):
    """A failure the user can act on: a stable code, a one-line message and a hint.

    ``code`` is a stable slash-separated identifier (``snapshot/invalid-json``) that tests and
    machine consumers match on; ``message`` is what the user reads after ``whichtool-tui:``.
    """

    def __init__(
        self,
        code: str,
        message: str,
        hint: str | None = None,
        exit_code: ExitCode = ExitCode.ERROR,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint
        self.exit_code = exit_code

    def __str__(self) -> str:
        return self.message


class CancelledError(WhichtoolError):
    """The user pressed Ctrl+C: nothing partial is written and the exit code is 130."""

    def __init__(self, message: str = "cancelled; no report was written") -> None:
        super().__init__("cli/cancelled", message, None, ExitCode.CANCELLED)

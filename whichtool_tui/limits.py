"""Every ceiling and default shared by the config, the flags, the agent schemas and the engine.

One home, in a module that imports nothing: command modules declare their flags before anything
heavy loads, the config's field bounds and the MCP server's input schemas are built from the
same names, so a ceiling or default changes here and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass

# -- run budgets -----------------------------------------------------------------------------
ABSOLUTE_MAX_TRIALS = 1000  # a real run never plans more trials than this, whatever the flags
ABSOLUTE_MAX_TOOLS = 1000
DEFAULT_MAX_TRIALS = 50  # the budget a run must be raised past on purpose
# How many tools a surface may offer before the review warns (a cautious default, not a limit).
DEFAULT_MAX_TOOLS = 6
# The largest warning threshold `inspect --max-tools` takes: inspect runs no model, so for it the
# flag only sets when to warn, and registries serve 10,000 tools (a run keeps the 1,000 above).
INSPECT_MAX_TOOLS = 100_000
PLAN_CAP = 100_000  # a dry run may plan this many trials (it calls no model)

# -- trial settings --------------------------------------------------------------------------
MIN_REPEAT = 1
MAX_REPEAT = 1000
DEFAULT_REPEAT = 5
MIN_CONCURRENCY = 1
MAX_CONCURRENCY = 64
DEFAULT_CONCURRENCY = 4
MIN_TEMPERATURE = 0  # whole numbers: the config schema prints them as 0 and 2
MAX_TEMPERATURE = 2
DEFAULT_TEMPERATURE = 0.0
DEFAULT_SEED = 0
DEFAULT_PERMUTE = True

# -- one model request -------------------------------------------------------------------------
DEFAULT_REQUEST_TIMEOUT_SECONDS = 300.0  # per request, counted from when it is sent
MAX_REQUEST_TIMEOUT_SECONDS = 3600.0
# An output cap sent in every API shape: a routing answer is a tool call or a short refusal,
# and a model that rambles must not hold a server slot for minutes.
DEFAULT_MAX_OUTPUT_TOKENS = 1024
MAX_OUTPUT_TOKENS = 1_000_000

# -- run health gates ------------------------------------------------------------------------
DEFAULT_MAX_ERROR_RATE = 0.1  # a run with more errored trials than this is invalid (exit 2)
DEFAULT_MIN_SCORED = 1
# The accuracy drop the power plan of a dry run is sized for (5 points).
DEFAULT_DETECT = 0.05

# -- improve: the held-out split and the token-growth gate ------------------------------------
MIN_HOLDOUT_SHARE = 0.05
MAX_HOLDOUT_SHARE = 0.95
MAX_TOKEN_GROWTH = 10  # the largest --max-token-growth accepted (ten times the tool's tokens)

# -- what an agent may ask of the MCP server (the operator's flags can lower, never raise) ----
AGENT_MAX_REPEAT = 20
AGENT_MAX_CONCURRENCY = 16

# -- bytes read from anything outside the process --------------------------------------------
MAX_INPUT_BYTES = 16 * 1024 * 1024  # one file, frame, line or HTTP body, whoever sent it

# -- time ------------------------------------------------------------------------------------
DEFAULT_TIMEOUT = 30.0  # seconds for one MCP connection step (connect, initialize, a page)
# Seconds a bout's stdio server may take to start (until it waits idle for its first message);
# its per-request --timeout starts only then, so a loaded machine's slow start-up never eats it.
DEFAULT_START_TIMEOUT = 60.0

# -- deferred tool discovery (inspect --tasks, run --discovery deferred) ----------------------
DEFAULT_DISCOVERY_TOP_K = 5  # tools a host's search returns (findability is scored @1, @3, @5)
DEFAULT_MIN_SIMILARITY = 0.30  # the semantic search's confidence floor (see discovery/semantic)

# The largest integer a JSON reader in JavaScript keeps exactly (Number.MAX_SAFE_INTEGER).
MAX_SAFE_INTEGER = 2**53 - 1

# -- calls in one answer ------------------------------------------------------------------------
MAX_CALLS_PER_TRIAL = 1000  # tool calls one model answer (one trial) may carry
# What a report keeps of a model's free text and of unparsable call arguments, in characters:
# enough to read why a trial went wrong; the rest is said to be left out.
MAX_STORED_TEXT_CHARS = 4000


def byte_size(limit: int) -> str:
    """A byte cap as messages say it (``16 MiB``, ``512 KiB``)."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if limit >= size and limit % size == 0:
            return f"{limit // size} {unit}"
    return f"{limit:,} bytes"


MAX_INPUT_SIZE = byte_size(MAX_INPUT_BYTES)  # "16 MiB", for docstrings' readers and messages


@dataclass(frozen=True)
class Bound:
    """One numeric setting's range and default, with the words every face uses for it.

    The flags' argparse types (``commands/_argtypes.bounded``), the TUI's field checks, the
    engine's re-checks and their error messages all read these, so no range is written twice.
    """

    flag: str
    low: int
    high: int
    default: int

    @property
    def span(self) -> str:
        """The range as messages print it (``1-1000``)."""
        return f"{self.low}-{self.high}"

    def contains(self, value: int) -> bool:
        """True when ``value`` is within the range."""
        return self.low <= value <= self.high

    def outside(self, value: object) -> str:
        """The one-line refusal of a value outside the range."""
        return f"{self.flag} {value} is outside {self.span}"

    def hint(self) -> str:
        """How to pass an accepted value."""
        return f"Pass {self.flag} with a whole number from {self.low} to {self.high}."


REPEAT = Bound("--repeat", MIN_REPEAT, MAX_REPEAT, DEFAULT_REPEAT)
CONCURRENCY = Bound("--concurrency", MIN_CONCURRENCY, MAX_CONCURRENCY, DEFAULT_CONCURRENCY)
MAX_TRIALS = Bound("--max-trials", 1, ABSOLUTE_MAX_TRIALS, DEFAULT_MAX_TRIALS)
MAX_TOOLS = Bound("--max-tools", 1, ABSOLUTE_MAX_TOOLS, DEFAULT_MAX_TOOLS)

# -- provider batch runs (run --batch) -----------------------------------------------------------
DEFAULT_BATCH_POLL_SECONDS = 30.0  # between two status checks of the submitted batches
MIN_BATCH_POLL_SECONDS = 0.01
MAX_BATCH_POLL_SECONDS = 3600.0
# Requests per batch when asked for fewer than the provider's documented limit (the largest,
# Anthropic's, is 100,000; see providers/batch_api.py for each API's limits and their source).
BATCH_MAX_LINES = Bound("--batch-max-lines", 1, 100_000, 100_000)

# -- shards of one run (run --shard i/N, report merge) -------------------------------------------
SHARD_COUNT = Bound("--shard", 1, 1000, 1)  # N: a CI matrix rarely has more jobs than this

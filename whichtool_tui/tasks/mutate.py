"""Seeded, model-free prompt variants: casual, imperative, interrogative, polite, typo.

Each (original task, mutation) pair draws from its own mulberry32 stream seeded with
FNV-1a(``"{seed}:{task id}:{mutation}"``), so the same seed gives the same variants on every
machine and adding a task never changes the variants of another. A mutation that cannot rewrite a
prompt cleanly declines it instead of producing a half-converted sentence. Regular expressions use
ASCII semantics and an explicit whitespace class so that they agree with the upstream format's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.evaluation.seeds import fnv1a, mulberry32
from whichtool_tui.surface.canonical import JS_WHITESPACE, JS_WHITESPACE_CLASS
from whichtool_tui.tasks.model import DerivedFrom, Task

Random = Callable[[], float]
Mutation = Callable[[str, Random], str | None]

_WS = JS_WHITESPACE_CLASS
_NOT_LINE_BREAK = "[^\n\r\u2028\u2029]"
_FLAGS = re.IGNORECASE | re.ASCII

_NEIGHBOURS = {
    "a": "qsz",
    "b": "vgn",
    "c": "xdv",
    "d": "sfce",
    "e": "wrd",
    "f": "dgrv",
    "g": "fhtb",
    "h": "gjyn",
    "i": "uok",
    "j": "hkun",
    "k": "jlim",
    "l": "kop",
    "m": "njk",
    "n": "bmhj",
    "o": "ipl",
    "p": "ol",
    "q": "wa",
    "r": "etf",
    "s": "adwx",
    "t": "ryg",
    "u": "yih",
    "v": "cfb",
    "w": "qes",
    "x": "zsc",
    "y": "tuh",
    "z": "asx",
}
_FILLER = re.compile(
    rf"^(please{_WS}+|could you{_WS}+|can you{_WS}+|would you{_WS}+|i(?:'| a)?m wondering{_WS}+"
    rf"|i want to{_WS}+|i need to{_WS}+|hey,?{_WS}+)",
    _FLAGS,
)
_POLITE_CLOSERS = ("? Thanks.", "? I'd appreciate it.", ", if you don't mind?")
_ASSISTANT_QUESTION = re.compile(
    rf"^(?:can|could|would|will){_WS}+you{_WS}+(?:please{_WS}+)?({_NOT_LINE_BREAK}+)\Z", _FLAGS
)
_WH_QUESTION = re.compile(rf"^(how many|what|which|who|where|when)\b({_NOT_LINE_BREAK}*)\Z", _FLAGS)
_COMMAND = re.compile(
    rf"^(show|list|find|get|give|fetch|search|look up|tell)\b({_NOT_LINE_BREAK}*)\Z", _FLAGS
)


def _trim(text: str) -> str:
    return text.strip(JS_WHITESPACE)


def _is_ascii_letter(char: str) -> bool:
    return ("a" <= char <= "z") or ("A" <= char <= "Z")


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def typo(prompt: str, random: Random) -> str | None:
    """One or two keyboard slips inside words (never a word's first letter).

    Positions count code points; the upstream format counts UTF-16 units, so a prompt holding
    characters beyond the Basic Multilingual Plane (emoji) may get a different slip there.
    """
    positions = [
        index
        for index in range(1, len(prompt))
        if _is_ascii_letter(prompt[index]) and _is_ascii_letter(prompt[index - 1])
    ]
    if len(positions) < 3:
        return None
    count = 1 + int(random() * 2)
    chosen: dict[int, None] = {}  # insertion-ordered set
    attempt = 0
    while attempt < count * 6 and len(chosen) < count:
        chosen[positions[int(random() * len(positions))]] = None
        attempt += 1
    characters = list(prompt)
    for index in sorted(chosen, reverse=True):
        char = characters[index]
        roll = random()
        options = _NEIGHBOURS.get(char.lower())
        if roll < 0.4 and options is not None:
            characters[index] = options[int(random() * len(options))]
        elif roll < 0.7:
            characters.insert(index, char)
        elif index + 1 < len(characters):
            characters[index], characters[index + 1] = characters[index + 1], char
        else:
            del characters[index]
    mutated = "".join(characters)
    return None if mutated == prompt else mutated


def casual(prompt: str, random: Random) -> str | None:
    """A curt chat-box register: no leading filler, no final punctuation, lowercase start."""
    text = _trim(prompt)
    changed = False
    for pattern in (_FILLER, re.compile(r"[.?!]+\Z")):
        stripped = pattern.sub("", text, count=1)
        if stripped != text:
            text, changed = stripped, True
    lowered = _lower_first(text)
    if lowered != text:
        text, changed = lowered, True
    result = _trim(text)
    return result if changed and result else None


def polite(prompt: str, random: Random) -> str | None:
    """An over-polite register: ``Could you please …`` plus a closer chosen by the seed."""
    text = _trim(prompt)
    if _FILLER.search(text) or text.endswith("?"):
        return None
    body = text[:1].lower() + re.sub(r"[.!]+\Z", "", text[1:])
    closer = _POLITE_CLOSERS[int(random() * len(_POLITE_CLOSERS))]
    return f"Could you please {body}{closer}"


def imperative(prompt: str, random: Random) -> str | None:
    """A question turned into a command; only the patterns that convert cleanly."""
    text = _trim(prompt)
    if not text.endswith("?"):
        return None
    body = _trim(text[:-1])
    assistant = _ASSISTANT_QUESTION.match(body)
    if assistant is not None:
        verb = assistant.group(1)
        return f"{verb[:1].upper()}{verb[1:]}."
    wh_question = _WH_QUESTION.match(body)
    if wh_question is not None:
        return f"Tell me {wh_question.group(1).lower()}{wh_question.group(2)}."
    return None


def interrogative(prompt: str, random: Random) -> str | None:
    """A command turned into a question, with the same restraint as ``imperative``."""
    text = _trim(prompt)
    if text.endswith("?"):
        return None
    body = _trim(re.sub(r"[.!]+\Z", "", text))
    command = _COMMAND.match(body)
    if command is None:
        return None
    return f"Could you {command.group(1).lower()}{command.group(2)}?"


MUTATIONS: dict[str, Mutation] = {
    "casual": casual,
    "imperative": imperative,
    "interrogative": interrogative,
    "polite": polite,
    "typo": typo,
}
MUTATION_NAMES: tuple[str, ...] = tuple(sorted(MUTATIONS))


@dataclass(frozen=True)
class MutationStats:
    """How many originals a mutation rewrote, and how many it declined or found duplicated."""

    produced: int = 0
    skipped: int = 0


@dataclass(frozen=True)
class MutationResult:
    """The output tasks (originals first unless dropped), findings and per-mutation counts."""

    tasks: list[Task]
    diagnostics: list[Diagnostic]
    applied: dict[str, MutationStats] = field(default_factory=dict)


def check_mutation_names(names: list[str]) -> None:
    """Refuse unknown mutation names with the list of valid ones."""
    for name in names:
        if name not in MUTATIONS:
            raise WhichtoolError(
                "tasks/unknown-mutation",
                f"Unknown mutation `{name}`",
                f"Available: {', '.join(MUTATION_NAMES)}.",
            )


def mutate_tasks(
    tasks: list[Task],
    mutations: list[str] | None = None,
    seed: int = 0,
    keep_originals: bool = True,
) -> MutationResult:
    """Add one variant per (original task, mutation) unless declined or a duplicate prompt."""
    names = list(MUTATION_NAMES) if mutations is None else mutations
    check_mutation_names(names)
    produced = dict.fromkeys(names, 0)
    skipped = dict.fromkeys(names, 0)
    output = list(tasks) if keep_originals else []
    # Exact comparison: `casual` changes only case at times, and that is a real variant.
    seen_prompts = {_trim(task.prompt) for task in tasks}
    for task in tasks:
        if task.derived_from is not None:
            continue  # variants of variants compound into noise
        for name in names:
            random = mulberry32(fnv1a(f"{seed}:{task.id}:{name}"))
            mutated = MUTATIONS[name](task.prompt, random)
            key = None if mutated is None else _trim(mutated)
            if mutated is None or key in seen_prompts:
                skipped[name] += 1
                continue
            seen_prompts.add(key or "")
            produced[name] += 1
            output.append(
                Task(
                    id=f"{task.id}.{name}",
                    prompt=mutated,
                    expected=task.expected,
                    tags=[*task.tags, "mutated", name],
                    derived_from=DerivedFrom(task_id=task.id, mutation=name),
                )
            )
    diagnostics = [
        Diagnostic(
            code="mutate/never-applied",
            severity="info",
            message=(
                f"`{name}` fit none of the {len(tasks)} prompts and produced nothing; the "
                "mutation declined, nothing failed."
            ),
            detail={"mutation": name, "skipped": skipped[name]},
        )
        for name in names
        if produced[name] == 0
    ]
    derived = sum(produced.values())
    if derived:
        diagnostics.append(
            Diagnostic(
                code="mutate/produced",
                severity="info",
                message=(
                    f"Added {derived} variants of {len(tasks)} original tasks. Each keeps its "
                    "original's `expected`, so a miss on a variant is a robustness failure."
                ),
                detail={"derived": derived, "originals": len(tasks)},
            )
        )
    applied = {name: MutationStats(produced[name], skipped[name]) for name in names}
    return MutationResult(tasks=output, diagnostics=diagnostics, applied=applied)

"""Deterministic rewrites from the rule catalog's fixes, so the loop runs with no model.

Each rule turns one fix into text: ``prefer-sibling`` adds "Use `B` instead to ..." naming a
confusable sibling (descriptions/overlap-without-preference, overlap/*, a tuning confusion);
``example-requests`` quotes the failing tuning prompts, so the description uses their words
(findability/missed's fix), with their task values (``acme/api``, ``#512``, e-mail, quoted text)
replaced by placeholders so the rewrite does not learn one prompt's entities;
``subject-first`` moves the sentence holding the subject into first place
(names/subject-not-in-description, findability/first-sentence-misses-terms);
``not-for`` says which requests the tool does not answer (findability/distractor-retrieves).
Every rule yields its own candidate, measured on its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from whichtool_tui.discovery.hints import without_task_values
from whichtool_tui.improve.briefs import ToolBrief
from whichtool_tui.improve.model import Target, TuningFailure
from whichtool_tui.improve.proposal import Proposal
from whichtool_tui.surface.naming import name_tokens
from whichtool_tui.surface.rule_text import content_words

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
SUBJECT_CODES = frozenset(["names/subject-not-in-description", "descriptions/restates-name"])
"""Findings whose fix is to say the tool's subject up front."""
MAX_EXAMPLES = 1
"""Failing prompts quoted per rewrite, shortest first: each one costs tokens on every request."""


def sentences(text: str) -> list[str]:
    """The text cut after each full stop, question or exclamation mark followed by space."""
    return [part for part in _SENTENCE_END.split(text.strip()) if part]


def _joined(description: str, sentence: str) -> str:
    text = description.rstrip()
    if text and text[-1] not in ".!?":
        text += "."
    return f"{text} {sentence}" if text else sentence


def sibling_clause(sibling: str, own: str) -> str:
    """The sibling's first sentence as a clause, minus the comma-separated parts ``own``
    already says (what the two share is not what tells them apart)."""
    first = sentences(sibling)[0].rstrip(" .!?") if sibling.strip() else ""
    chunks = [chunk.strip() for chunk in first.split(",") if chunk.strip()]
    kept = chunks[:1] + [chunk for chunk in chunks[1:] if chunk.lower() not in own.lower()]
    clause = " ".join(kept)
    return clause[:1].lower() + clause[1:]


def _quoted(failures: Iterable[TuningFailure]) -> str:
    return "; ".join(f'"{without_task_values(failure.prompt.strip())}"' for failure in failures)


def _sentence(text: str) -> str:
    return text if text[-1:] in ".!?" or text.endswith(('."', '?"', '!"')) else text + "."


def prefer_sibling(brief: ToolBrief) -> list[Proposal]:
    """For each sibling the description never names: "Use `B` instead to <B's first sentence>"."""
    own = brief.tool.description_text
    found = []
    for sibling in brief.siblings:
        clause = sibling_clause(sibling.description_text, own)
        if sibling.name.lower() in own.lower() or not clause:
            continue
        found.append(
            _proposal(
                brief,
                "prefer-sibling",
                _joined(own, _sentence(f"Use `{sibling.name}` instead to {clause}")),
                Target(kind="confusion", tools=[brief.tool.name, sibling.name]),
            )
        )
    return found


def example_requests(brief: ToolBrief) -> list[Proposal]:
    """Quote up to two failing tuning prompts that expected this tool."""
    if not brief.missed:
        return []
    shortest = sorted(brief.missed, key=lambda failure: len(failure.prompt))
    quoted = _quoted(shortest[:MAX_EXAMPLES])
    tools = [brief.tool.name, *brief.confused_with]
    return [
        _proposal(
            brief,
            "example-requests",
            _joined(brief.tool.description_text, _sentence(f"Typical requests: {quoted}")),
            Target(kind="confusion" if brief.confused_with else "missed", tools=tools),
        )
    ]


def not_for(brief: ToolBrief) -> list[Proposal]:
    """Quote the tuning distractors this tool answered although no tool should have."""
    if not brief.distractors:
        return []
    quoted = _quoted(sorted(brief.distractors, key=lambda f: len(f.prompt))[:MAX_EXAMPLES])
    return [
        _proposal(
            brief,
            "not-for",
            _joined(
                brief.tool.description_text,
                _sentence(f"It does not answer requests such as {quoted}"),
            ),
            Target(kind="over-trigger", tools=[brief.tool.name]),
        )
    ]


def subject_first(brief: ToolBrief) -> list[Proposal]:
    """Move the first later sentence that holds the subject (or a failing prompt's word) first."""
    parts = sentences(brief.tool.description_text)
    asked = brief.missed or any(item.code in SUBJECT_CODES for item in brief.addressed)
    if len(parts) < 2 or not asked:
        return []
    wanted = set(name_tokens(brief.tool.name))
    for failure in brief.missed:
        wanted |= content_words(failure.prompt)
    if content_words(parts[0]) & wanted:
        return []
    for index, part in enumerate(parts[1:], start=1):
        if content_words(part) & wanted:
            moved = [part, *parts[:index], *parts[index + 1 :]]
            target = (
                brief.target if brief.missed else Target(kind="static", tools=[brief.tool.name])
            )
            return [_proposal(brief, "subject-first", " ".join(moved), target)]
    return []


RULES = (prefer_sibling, example_requests, subject_first, not_for)


def rule_proposals(brief: ToolBrief) -> list[Proposal]:
    """Every rule's candidate for one tool, in rule order, without repeats or no-ops."""
    found: list[Proposal] = []
    seen = {brief.tool.description_text}
    for rule in RULES:
        for proposal in rule(brief):
            if proposal.description not in seen:
                seen.add(proposal.description)
                found.append(proposal)
    return found


def _proposal(brief: ToolBrief, rule: str, description: str, target: Target) -> Proposal:
    return Proposal(
        tool=brief.tool.name,
        rewriter="rules",
        rule=rule,
        description=description,
        title=brief.tool.title,
        target=target,
        addressed=tuple(brief.addressed),
    )

"""The model rewriter: one structured request per tool, and the strict reading of its reply.

The request carries the tool as served (name, title, description, input schema, annotations),
its confusable siblings, the findings and the failing *tuning* prompts, and asks for a JSON
object holding only a new description and a title (null keeps it). A reply with any other key,
an empty description or an over-long one is refused and kept as a rejected candidate: nothing
of the tool but its description and title can change.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from whichtool_tui.improve.briefs import ToolBrief
from whichtool_tui.improve.model import TuningFailure
from whichtool_tui.improve.proposal import Proposal

SCHEMA_NAME = "tool_description_rewrite"
REWRITE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "description": {"type": "string", "description": "The new description of the tool."},
        "title": {
            "type": ["string", "null"],
            "description": "A new human-readable title, or null to keep the current one.",
        },
    },
    "required": ["description", "title"],
    "additionalProperties": False,
}
MAX_DESCRIPTION_CHARS = 4000
ALLOWED_KEYS = frozenset(REWRITE_SCHEMA["properties"])


class StructuredProvider(Protocol):
    """A provider that answers with one JSON object in its API's structured-output shape."""

    async def generate_structured(
        self,
        prompt: str,
        name: str,
        schema: dict[str, Any],
        max_output_tokens: int | None = None,
    ) -> dict[str, Any]:
        """Send one request and return the JSON object the model answered with."""
        ...


def _tool_json(brief: ToolBrief) -> str:
    tool = brief.tool
    shown: dict[str, Any] = {"name": tool.name}
    if tool.title is not None:
        shown["title"] = tool.title
    shown["description"] = tool.description_text
    shown["inputSchema"] = tool.input_schema
    if tool.annotations:
        shown["annotations"] = tool.annotations
    return json.dumps(shown, indent=2, ensure_ascii=False)


def _failures(items: list[TuningFailure]) -> str:
    lines = []
    for failure in items:
        picked = ", ".join("no call" if name is None else name for name in failure.picked)
        expected = failure.expected or "no tool (nothing should be called)"
        lines.append(f'- "{failure.prompt}" (should be: {expected}; got: {picked})')
    return "\n".join(lines) or "- none"


def build_rewrite_prompt(brief: ToolBrief, max_token_growth: float) -> str:
    """The instructions for one tool: what was found, what went wrong, what may change."""
    siblings = "\n".join(
        f"- {sibling.name}: {sibling.description_text}" for sibling in brief.siblings
    )
    findings = "\n".join(f"- {item.code}: {item.message}" for item in brief.addressed)
    return f"""You are improving the description of one tool of an MCP server, so that a model
choosing between the server's tools picks this one exactly when it should.

The tool, as served:
{_tool_json(brief)}

Tools a model may confuse it with:
{siblings or "- none listed"}

What a review found:
{findings or "- nothing specific"}

Requests that went wrong with the current descriptions:
{_failures([*brief.missed, *brief.drawn_from])}

Requests no tool should answer that this tool was called for:
{_failures(brief.distractors)}

Write a new description: say what the tool does, what it does not do, and when to use one of
the tools above instead (name it). Keep the name, parameters and behaviour exactly as they are;
only the description (and, if it helps, the title) may change. Stay within
{max_token_growth:.0%} more words than the current description. Do not quote the requests above
verbatim. Answer with the JSON object only: "description", and "title" (null keeps the current
title)."""


def read_rewrite(value: dict[str, Any], brief: ToolBrief) -> Proposal:
    """The reply as a proposal, or a refused one naming what the reply tried to change."""
    tool = brief.tool
    extra = sorted(set(value) - ALLOWED_KEYS)
    description = value.get("description")
    title = value.get("title")
    refused = None
    if extra:
        refused = "the reply tried to change more than the description and title: " + ", ".join(
            f"`{key}`" for key in extra
        )
    elif not isinstance(description, str) or not description.strip():
        refused = "the reply has no description"
    elif len(description) > MAX_DESCRIPTION_CHARS:
        refused = f"the reply's description is over {MAX_DESCRIPTION_CHARS} characters"
    elif title is not None and not isinstance(title, str):
        refused = "the reply's title is not a string"
    elif description.strip() == tool.description_text.strip() and (
        not isinstance(title, str) or title.strip() in ("", tool.title or "")
    ):
        refused = "the reply keeps the description as it is"
    new_title = tool.title
    if refused is None and isinstance(title, str) and title.strip() and tool.title is not None:
        new_title = title.strip()
    return Proposal(
        tool=tool.name,
        rewriter="model",
        rule=None,
        description=description.strip() if isinstance(description, str) else "",
        title=new_title,
        target=brief.target,
        addressed=tuple(brief.addressed),
        refused=refused,
    )


async def model_proposal(
    provider: StructuredProvider,
    brief: ToolBrief,
    max_token_growth: float,
    max_output_tokens: int | None,
) -> Proposal:
    """Ask the model for one tool's rewrite and read it strictly."""
    prompt = build_rewrite_prompt(brief, max_token_growth)
    value = await provider.generate_structured(
        prompt, SCHEMA_NAME, REWRITE_SCHEMA, max_output_tokens
    )
    return read_rewrite(value, brief)

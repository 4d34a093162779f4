"""``tasks generate``: a model drafts a task set from the surface's own descriptions.

The reply is treated as untrusted: JSON is dug out of fences or prose, every entry is checked,
and entries that expect a tool the surface does not have are dropped with a warning. The result
is a draft to read, edit and commit once, never something to regenerate per run.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.limits import ABSOLUTE_MAX_TOOLS
from whichtool_tui.limits import DEFAULT_MAX_TOOLS as DEFAULT_MAX_TOOLS
from whichtool_tui.surface.model import NormalizedSurface, Tool
from whichtool_tui.tasks.model import TASK_SET_VERSION, Task, TaskSet

DEFAULT_TASKS_PER_TOOL = 3
DEFAULT_DISTRACTORS = 4
DEFAULT_TEMPERATURE = 0.7
_FENCE = re.compile(r"```(?:json)?\s*([\s\S]*?)```")


def _describe_tool(tool: Tool) -> str:
    schema = tool.input_schema_resolved
    properties = schema.get("properties")
    names = list(properties) if isinstance(properties, dict) else []
    required_raw = schema.get("required")
    required = (
        {name for name in required_raw if isinstance(name, str)}
        if isinstance(required_raw, list)
        else set()
    )
    parameters = (
        ", ".join(f"{name} (required)" if name in required else name for name in names)
        if names
        else "no parameters"
    )
    description = tool.description_text.replace("\n", " ") or "(none given)"
    return f"- name: {tool.name}\n  description: {description}\n  parameters: {parameters}"


def build_generation_prompt(
    tools: Sequence[Tool],
    tasks_per_tool: int = DEFAULT_TASKS_PER_TOOL,
    distractors: int = DEFAULT_DISTRACTORS,
) -> str:
    """The fixed drafting instructions, listing every tool with its parameters."""
    listing = "\n\n".join(_describe_tool(tool) for tool in tools)
    return f"""We are writing a routing test for the tools of an MCP server: for each user request,
which single tool should an assistant call, if any?

The server offers these tools:

{listing}

Write {tasks_per_tool} user requests for EACH tool, and {distractors} distractors.

Requests:
- Phrase them the way a person types to an assistant. Never use a tool name, parameter names,
  JSON or API words: "who is in my team?", not "call list_members".
- Mix the forms: questions, commands, short ones, ones with background detail.
- Exactly one tool must be able to serve each request. Skip any request that two tools could
  reasonably serve.

Distractors (these matter most):
- A distractor is a request none of the tools can fulfil.
- Keep it inside this server's subject and just beyond its tools: if the tools only read data,
  ask to change or remove something.
- No unrelated filler such as weather or poems: every model declines those, so they measure
  nothing.

Answer with JSON only: no prose, no code fence. Use exactly this shape:

{{
  "tasks": [
    {{ "id": "short.dotted.id", "prompt": "what the user says", "expected": "tool_name",
       "tags": ["read"] }},
    {{ "id": "distractor.example", "prompt": "what the user says", "expected": null,
       "tags": ["distractor"] }}
  ]
}}

"expected" is the exact name of the tool for a request, or null for a distractor. Ids are unique,
lowercase and dotted."""


def extract_json(text: str) -> Any:
    """The JSON object in a reply: first fenced block if any, from its first ``{`` to last ``}``."""
    fenced = _FENCE.search(text)
    candidate = fenced.group(1) if fenced else text
    start = candidate.find("{")
    end = candidate.rfind("}")
    if start == -1 or end <= start:
        raise WhichtoolError(
            "generate/no-json",
            "The model's reply contains no JSON object",
            f"It began: {text[:200]!r}",
        )
    try:
        return json.loads(candidate[start : end + 1])
    except json.JSONDecodeError as exc:
        raise WhichtoolError(
            "generate/invalid-json",
            f"The model's reply is not valid JSON: {exc.msg} at line {exc.lineno}",
            "Generate again, or try a stronger model or a lower --temperature.",
        ) from None


def _dropped(code: str, message: str, severity: str = "warning", **extra: Any) -> Diagnostic:
    return Diagnostic.model_validate(
        {"code": code, "severity": severity, "message": message, **extra}
    )


def _unique_id(proposed: str, seen: set[str]) -> str:
    if proposed not in seen:
        return proposed
    suffix = 2
    while f"{proposed}.{suffix}" in seen:
        suffix += 1
    return f"{proposed}.{suffix}"


def parse_generated_tasks(
    payload: Any, tool_names: Sequence[str]
) -> tuple[list[Task], list[Diagnostic]]:
    """Keep the usable entries of a generated ``{"tasks": [...]}``; say why each other one went."""
    entries = payload.get("tasks") if isinstance(payload, dict) else None
    if not isinstance(entries, list):
        raise WhichtoolError(
            "generate/wrong-shape",
            "The model's reply has no `tasks` array",
            'Expected {"tasks": [{"id", "prompt", "expected", "tags"}, ...]}.',
        )
    known = set(tool_names)
    diagnostics: list[Diagnostic] = []
    tasks: list[Task] = []
    seen_ids: set[str] = set()
    seen_prompts: set[str] = set()
    for index, raw in enumerate(entries):
        if not isinstance(raw, dict):
            diagnostics.append(
                _dropped("generate/malformed-task", f"Entry {index} is not an object; dropped.")
            )
            continue
        prompt = raw.get("prompt")
        if not isinstance(prompt, str) or not prompt.strip():
            diagnostics.append(
                _dropped("generate/no-prompt", f"Entry {index} has no prompt; dropped.")
            )
            continue
        expected = raw.get("expected")
        if expected is not None and not isinstance(expected, str):
            diagnostics.append(
                _dropped(
                    "generate/no-expected",
                    f'Entry {index} ("{prompt[:40]}") has no usable `expected`; dropped.',
                )
            )
            continue
        if isinstance(expected, str) and expected not in known:
            diagnostics.append(
                _dropped(
                    "generate/invented-tool",
                    f"Entry {index} expects `{expected}`, which this surface does not have; "
                    "dropped.",
                    detail={"expected": expected, "prompt": prompt[:80]},
                )
            )
            continue
        prompt_key = prompt.strip().lower()
        if prompt_key in seen_prompts:
            diagnostics.append(
                _dropped(
                    "generate/duplicate-prompt",
                    f"Entry {index} repeats an earlier prompt; dropped.",
                    severity="info",
                )
            )
            continue
        seen_prompts.add(prompt_key)
        raw_id = raw.get("id")
        proposed = raw_id.strip() if isinstance(raw_id, str) and raw_id.strip() else None
        task_id = _unique_id(proposed or f"{expected or 'distractor'}.{len(tasks)}", seen_ids)
        seen_ids.add(task_id)
        raw_tags = raw.get("tags")
        if isinstance(raw_tags, list) and all(isinstance(tag, str) for tag in raw_tags):
            tags = list(raw_tags)
        else:
            tags = ["distractor"] if expected is None else []
        if expected is None and "distractor" not in tags:
            tags.append("distractor")
        tasks.append(Task(id=task_id, prompt=prompt.strip(), expected=expected, tags=tags))
    diagnostics += _set_warnings(tasks, known)
    return tasks, diagnostics


def _set_warnings(tasks: list[Task], known: set[str]) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    covered = {task.expected for task in tasks if task.expected is not None}
    uncovered = sorted(known - covered)
    if uncovered:
        found.append(
            _dropped(
                "generate/uncovered-tools",
                f"No task was drafted for {len(uncovered)} tools: {', '.join(uncovered)}. Write "
                "those by hand or generate again.",
                tools=uncovered,
            )
        )
    if not any(task.expected is None for task in tasks):
        found.append(
            _dropped(
                "generate/no-distractors",
                "The draft has no distractors, so it cannot measure over-triggering; add some by "
                "hand before running it.",
            )
        )
    return found


def check_tool_limit(tool_count: int, max_tools: int) -> None:
    """Refuse to draft for more tools than the limit (a big surface makes a poor, costly draft)."""
    if not 1 <= max_tools <= ABSOLUTE_MAX_TOOLS:
        raise WhichtoolError(
            "generate/invalid-max-tools",
            f"--max-tools must be between 1 and {ABSOLUTE_MAX_TOOLS}, got {max_tools}",
        )
    if tool_count > max_tools:
        raise WhichtoolError(
            "generate/tool-limit",
            f"The surface has {tool_count} tools, above the generator limit of {max_tools}",
            f"Review it with `inspect` first; pass --max-tools {tool_count} if drafting for the "
            "whole surface is intended.",
        )


@dataclass(frozen=True)
class GenerationResult:
    """The drafted set, why entries were dropped, and the raw reply (kept for inspection)."""

    task_set: TaskSet
    diagnostics: list[Diagnostic]
    raw: str


async def generate_task_set(
    provider: object,
    surface: NormalizedSurface,
    tasks_per_tool: int = DEFAULT_TASKS_PER_TOOL,
    distractors: int = DEFAULT_DISTRACTORS,
    temperature: float = DEFAULT_TEMPERATURE,
    max_output_tokens: int | None = None,
) -> GenerationResult:
    """Ask a text-capable provider for a draft over ``surface`` and validate what comes back."""
    generate = getattr(provider, "generate", None)
    if not callable(generate):
        identity = getattr(provider, "identity", None)
        name = getattr(identity, "name", "this")
        raise WhichtoolError(
            "generate/provider-cannot-generate",
            f"The `{name}` provider cannot write free text, so it cannot draft a task set",
            "Use a provider backed by a chat endpoint, or write the task set by hand.",
        )
    prompt = build_generation_prompt(surface.tools, tasks_per_tool, distractors)
    raw = await generate(prompt, temperature, max_output_tokens)
    if not isinstance(raw, str):
        raise WhichtoolError("generate/no-json", "The provider returned no text")
    tasks, diagnostics = parse_generated_tasks(
        extract_json(raw), [tool.name for tool in surface.tools]
    )
    task_set = TaskSet(version=TASK_SET_VERSION, surface=surface.hash, tasks=tasks)
    return GenerationResult(task_set=task_set, diagnostics=diagnostics, raw=raw)

"""``protocol.server_requests``: does the server ask the client for what it never offered?

The house declares no client capabilities, so ``sampling/createMessage``, ``elicitation/create``
and ``roots/list`` are requests it never enabled (MCP lifecycle: each needs its capability
declared in ``initialize``). The atom lists, calls the task once, and reads what the server sent;
an elicitation asking for a password, token or key fails ``secret_ask`` as well.
"""

from __future__ import annotations

import json
import re
from typing import Any

from whichtool_tui.arcade.atoms.common import (
    AtomContext,
    CallLog,
    WireLike,
    atom_result,
    check,
    menu_and_task,
)
from whichtool_tui.arcade.hidden_text import visible
from whichtool_tui.arcade.receipt import AtomResult, Verdict

CAPABILITY_OF = {
    "sampling/createMessage": "sampling",
    "elicitation/create": "elicitation",
    "roots/list": "roots",
}
SECRET_WORDS = re.compile(
    r"pass(word|phrase|code)|secret|token|api[ _-]?key|private[ _-]?key|credential|\bpin\b|"
    r"\bseed phrase\b|\botp\b|2fa|ssh",
    re.IGNORECASE,
)


def server_requests(wire: Any) -> list[dict[str, Any]]:
    """Inbound requests (a method and an id) recorded on this session."""
    records = getattr(getattr(wire, "recorder", None), "records", [])
    return [
        r.message
        for r in records
        if r.direction == "in" and r.method is not None and r.rpc_id is not None
    ]


def secret_ask(message: dict[str, Any]) -> str | None:
    """The words of an elicitation that ask for a secret, or None."""
    params = message.get("params")
    if message.get("method") != "elicitation/create" or not isinstance(params, dict):
        return None
    text = json.dumps(params, ensure_ascii=False)
    found = sorted({m.group(0).lower() for m in SECRET_WORDS.finditer(text)})
    return ", ".join(found) if found else None


async def run(ctx: AtomContext, wire: WireLike) -> AtomResult:
    """List, call the task once, then judge every request the server made of the client."""
    tools, task, _skip = await menu_and_task(ctx, wire, "hello")
    log = CallLog(wire)
    if task.tool:
        await log(task.tool, task.arguments)
    asked = server_requests(wire)
    unasked = [
        f"{visible(str(m.get('method')))} (needs the "
        f"{CAPABILITY_OF.get(str(m.get('method')), 'unknown')} capability the house never "
        "declared)"
        for m in asked
    ]
    secrets = [
        f"{visible(str(m.get('method')))} asks for {visible(s)}"
        for m in asked
        if (s := secret_ask(m))
    ]
    checks = [
        check(
            "unrequested",
            "fail" if unasked else "pass",
            "; ".join(unasked) or "the server sent the client no request",
        ),
        check(
            "secret_ask",
            "fail" if secrets else "pass",
            "; ".join(secrets) or "no elicitation asked for a secret",
        ),
    ]
    verdict: Verdict = "fail" if unasked or secrets else "pass"
    fields: dict[str, Any] = {"calls": log.calls, "tools_before": tools, "tools_after": tools}
    if task.tool:
        fields.update(task=task, authorized_tools=[task.tool])
    return atom_result(ctx, verdict, checks, **fields)

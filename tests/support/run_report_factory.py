"""Build consistent ``whichtool.run/2`` report dicts from a compact trial script, for tests.

Each scripted trial names what the model answered (``pick`` names, or an error); the factory
derives verdicts, metrics, execution and ``ok`` the way the report format defines them, so the
strict reader accepts the result.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
from dataclasses import dataclass, field
from typing import Any

Z = 1.959963984540054
CLARIFY = re.compile(
    r"\b(which|what|could you (clarify|specify)|can you (clarify|specify)|do you mean|please "
    r"(clarify|specify)|need more (info|information|detail))\b",
    re.IGNORECASE,
)
NONE, PHANTOM, MULTI = "(none)", "(phantom)", "(multiple calls)"


def prop(k: int, n: int) -> dict[str, Any]:
    if n == 0:
        return {"numerator": k, "denominator": 0, "value": None, "ci95": None}
    p = k / n
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d
    return {
        "numerator": k,
        "denominator": n,
        "value": p,
        "ci95": [max(0.0, c - h), min(1.0, c + h)],
    }


@dataclass
class Task:
    id: str
    prompt: str
    expected: str | None
    tags: list[str] = field(default_factory=list)


# An answer: a list of call names (None = nameless call), or "error".
Answer = list[str | None] | str


def verdict_of(expected: str | None, answer: Answer, tools: set[str]) -> str:
    if answer == "error":
        return "error"
    assert isinstance(answer, list)
    if expected is None:
        return "over-triggered" if answer else "correct-abstention"
    if not answer or answer[0] is None:
        return "phantom" if answer else "abstained"
    if answer[0] == expected:
        return "unexpected-additional-calls" if len(answer) > 1 else "correct"
    return "wrong-tool" if answer[0] in tools else "phantom"


def build_run(
    tools: dict[str, int],
    tasks: list[Task],
    answers: dict[tuple[str, int], Answer],
    repeat: int,
    *,
    seed: int = 0,
    model: str = "scripted",
    min_accuracy: float | None = None,
    max_over_trigger: float | None = None,
    text_for: dict[tuple[str, int], str] | None = None,
) -> dict[str, Any]:
    """``tools`` maps tool name -> context tokens; ``answers`` maps (task, trial) -> calls."""
    names = sorted(tools)
    tool_set = set(names)
    rng = random.Random(seed)
    trials: list[dict[str, Any]] = []
    for task in tasks:
        for index in range(repeat):
            answer = answers.get((task.id, index), [task.expected] if task.expected else [])
            verdict = verdict_of(task.expected, answer, tool_set)
            order = names[:]
            rng.shuffle(order)
            position = order.index(task.expected) if task.expected else -1
            if verdict == "error":
                trial: dict[str, Any] = {
                    "taskId": task.id,
                    "trialIndex": index,
                    "expected": task.expected,
                    "pick": None,
                    "arguments": None,
                    "calls": [],
                    "text": "",
                    "callCount": 0,
                    "order": order,
                    "expectedPosition": position,
                    "latencyMs": 0,
                    "error": {"message": "provider returned 500", "retryable": True},
                    "verdict": "error",
                    "unexpectedAdditionalCalls": False,
                    "askedForClarification": False,
                }
            else:
                assert isinstance(answer, list)
                calls = [{"name": n, "arguments": {} if n else None} for n in answer]
                text = (text_for or {}).get((task.id, index), "" if calls else "I can't help.")
                trial = {
                    "taskId": task.id,
                    "trialIndex": index,
                    "expected": task.expected,
                    "pick": answer[0] if answer else None,
                    "arguments": calls[0]["arguments"] if calls else None,
                    "calls": calls,
                    "text": text,
                    "callCount": len(calls),
                    "order": order,
                    "expectedPosition": position,
                    "latencyMs": 12.5,
                    "usage": {"promptTokens": 100, "completionTokens": 5},
                    "verdict": verdict,
                    "unexpectedAdditionalCalls": len(calls) > 1,
                    "askedForClarification": not calls and bool(CLARIFY.search(text)),
                }
                if calls and calls[0]["name"] in tool_set:
                    trial["argumentCheck"] = {
                        "missingRequired": [],
                        "hallucinated": [],
                        "wrongType": [],
                        "parsed": True,
                        "vacuous": True,
                    }
            trials.append(trial)
    return assemble(
        tools,
        tasks,
        trials,
        repeat,
        seed=seed,
        model=model,
        min_accuracy=min_accuracy,
        max_over_trigger=max_over_trigger,
    )


def metrics_of(tools: dict[str, int], trials: list[dict[str, Any]]) -> dict[str, Any]:
    names = sorted(tools)
    scored = [t for t in trials if t["verdict"] != "error"]
    real = [t for t in scored if t["expected"] is not None]
    distractors = [t for t in scored if t["expected"] is None]

    def count(rows: list[dict[str, Any]], verdict: str) -> int:
        return sum(1 for t in rows if t["verdict"] == verdict)

    by_tool = []
    for name in names:
        mine = [t for t in scored if t["expected"] == name]
        confused: dict[str, int] = {}
        for t in mine:
            if t["verdict"] == "wrong-tool":
                confused[t["pick"]] = confused.get(t["pick"], 0) + 1
        correct_checked = [
            t
            for t in mine
            if t["verdict"] == "correct"
            and t.get("argumentCheck")
            and not t["argumentCheck"]["vacuous"]
        ]
        valid = sum(
            1
            for t in correct_checked
            if not (
                t["argumentCheck"]["missingRequired"]
                or t["argumentCheck"]["hallucinated"]
                or t["argumentCheck"]["wrongType"]
            )
            and t["argumentCheck"]["parsed"]
        )
        by_tool.append(
            {
                "tool": name,
                "accuracy": prop(count(mine, "correct"), len(mine)),
                "confusedWith": [
                    {"tool": k, "count": v}
                    for k, v in sorted(confused.items(), key=lambda kv: (-kv[1], kv[0]))
                ],
                "abstained": count(mine, "abstained"),
                "phantom": count(mine, "phantom"),
                "errors": sum(
                    1 for t in trials if t["expected"] == name and t["verdict"] == "error"
                ),
                "argumentAccuracy": prop(valid, len(correct_checked)),
                "hallucinatedParameters": sum(
                    len(t["argumentCheck"]["hallucinated"]) for t in mine if t.get("argumentCheck")
                ),
                "contextTokens": tools[name],
            }
        )
    by_tool.sort(
        key=lambda r: (r["accuracy"]["value"] is None, r["accuracy"]["value"] or 0, r["tool"])
    )
    matrix: dict[str, dict[str, int]] = {}
    for t in scored:
        row = t["expected"] or NONE
        if t["callCount"] > 1:
            col = MULTI
        elif t["callCount"] == 0:
            col = NONE
        elif t["pick"] is None or t["pick"] not in tools:
            col = PHANTOM
        else:
            col = t["pick"]
        matrix.setdefault(row, {})
        matrix[row][col] = matrix[row].get(col, 0) + 1
    pairs: dict[tuple[str, str], list[int]] = {}
    for t in scored:
        if t["verdict"] == "wrong-tool":
            a, b = sorted((t["expected"], t["pick"]))
            entry = pairs.setdefault((a, b), [0, 0])
            entry[0 if t["pick"] == a else 1] += 1
    expecting = {n: sum(1 for t in scored if t["expected"] == n) for n in names}
    confusion_pairs = [
        {
            "tools": [a, b],
            "swaps": v[0] + v[1],
            "rate": prop(v[0] + v[1], expecting[a] + expecting[b]),
            "aChosenWhenBExpected": v[0],
            "bChosenWhenAExpected": v[1],
        }
        for (a, b), v in pairs.items()
    ]
    confusion_pairs.sort(key=lambda p: (-p["swaps"], p["tools"][0], p["tools"][1]))
    positions = sorted({t["expectedPosition"] for t in real})
    buckets = [
        {
            "position": p,
            "accuracy": prop(
                sum(1 for t in real if t["expectedPosition"] == p and t["verdict"] == "correct"),
                sum(1 for t in real if t["expectedPosition"] == p),
            ),
        }
        for p in positions
    ]
    spreads = []
    for task_id in sorted({t["taskId"] for t in real}):
        rows = [t for t in real if t["taskId"] == task_id]
        by_pos: dict[int, list[int]] = {}
        for t in rows:
            by_pos.setdefault(t["expectedPosition"], []).append(t["verdict"] == "correct")
        if len(by_pos) >= 2:
            rates = [sum(v) / len(v) for v in by_pos.values()]
            spreads.append(max(rates) - min(rates))
    return {
        "trials": {
            "planned": len(trials),
            "scored": len(scored),
            "errored": len(trials) - len(scored),
        },
        "accuracy": prop(count(real, "correct"), len(real)),
        "abstention": prop(count(real, "abstained"), len(real)),
        "overTrigger": prop(count(distractors, "over-triggered"), len(distractors)),
        "phantom": prop(count(real, "phantom"), len(real)),
        "multiCallRate": prop(sum(1 for t in scored if t["callCount"] > 1), len(scored)),
        "clarification": prop(sum(1 for t in scored if t["askedForClarification"]), len(scored)),
        "byTool": by_tool,
        "confusionMatrix": matrix,
        "confusionPairs": confusion_pairs,
        "position": {
            "buckets": buckets,
            "spread": sum(spreads) / len(spreads) if spreads else None,
            "comparableTasks": len(spreads),
            "method": "within-task-range",
        },
        "minTrialsPerTool": 5,
    }


def assemble(
    tools: dict[str, int],
    tasks: list[Task],
    trials: list[dict[str, Any]],
    repeat: int,
    *,
    seed: int,
    model: str,
    min_accuracy: float | None,
    max_over_trigger: float | None,
) -> dict[str, Any]:
    metrics = metrics_of(tools, trials)
    diagnostics: list[dict[str, Any]] = []
    thresholds = []
    if min_accuracy is not None:
        actual = metrics["accuracy"]["value"] or 0
        ok = metrics["accuracy"]["value"] is not None and actual >= min_accuracy
        thresholds.append(
            {"name": "minAccuracy", "limit": min_accuracy, "actual": actual, "ok": ok}
        )
    if max_over_trigger is not None:
        value = metrics["overTrigger"]["value"]
        actual = 1 if value is None else value
        ok = value is not None and value <= max_over_trigger
        thresholds.append(
            {"name": "maxOverTrigger", "limit": max_over_trigger, "actual": actual, "ok": ok}
        )
    for th in thresholds:
        if not th["ok"]:
            diagnostics.append(
                {
                    "code": f"threshold/{th['name']}",
                    "severity": "error",
                    "message": f"{th['name']}: {th['actual']:.3f} against a limit of {th['limit']}",
                }
            )
    for pair in metrics["confusionPairs"][:5]:
        diagnostics.append(
            {
                "code": "run/confusion-pair",
                "severity": "warning",
                "tools": pair["tools"],
                "message": f"{pair['tools'][0]} and {pair['tools'][1]} were swapped "
                f"{pair['swaps']} times",
            }
        )
    order = {"error": 0, "warning": 1, "info": 2}
    diagnostics.sort(
        key=lambda d: (
            order[d["severity"]],
            d["code"],
            d.get("tool") or ",".join(d.get("tools") or []),
            d["message"],
        )
    )
    planned = len(trials)
    scored = metrics["trials"]["scored"]
    errored = planned - scored
    error_rate = prop(errored, planned)
    execution_ok = planned > 0 and scored >= 1 and (error_rate["value"] or 0) <= 0.1
    thresholds_ok = all(t["ok"] for t in thresholds)
    surface_hash = "sha256:" + hashlib.sha256(json.dumps(sorted(tools)).encode()).hexdigest()
    by_cost = {
        n: {"total": c, "name": 2, "description": c - 12, "schema": 6, "envelope": 4}
        for n, c in tools.items()
    }
    return {
        "schemaVersion": "whichtool.run/2",
        "reproducibility": {
            "whichtoolVersion": "0.1.0",
            "provider": "mock",
            "model": model,
            "endpoint": None,
            "requestFingerprint": None,
            "providerCapabilities": {
                "seed": True,
                "temperatureZero": True,
                "logprobs": False,
                "disableThinking": False,
            },
            "temperature": 0,
            "reasoningEffort": None,
            "seed": seed,
            "repeat": repeat,
            "permuted": True,
            "concurrency": 4,
            "surfaceHash": surface_hash,
            "taskSetVersion": 1,
            "taskSetSource": "whichtool.tasks.yaml",
            "taskSetSurface": None,
        },
        "target": {"transport": "snapshot", "ref": "snapshots/demo.json"},
        "tasks": {
            "inFile": len(tasks),
            "selected": len(tasks),
            "distractors": sum(1 for t in tasks if t.expected is None),
            "only": [],
            "skip": [],
            "list": [
                {"id": t.id, "prompt": t.prompt, "expected": t.expected, "tags": t.tags}
                for t in tasks
            ],
        },
        "metrics": metrics,
        "contextCost": {
            "tokenizer": {
                "id": "heuristic-bpe-v1",
                "exact": False,
                "approximates": "generic BPE",
                "note": "an estimate",
            },
            "serialization": "mcp-neutral-compact",
            "total": sum(tools.values()),
            "byTool": by_cost,
        },
        "diagnostics": diagnostics,
        "thresholds": thresholds,
        "thresholdsOk": thresholds_ok,
        "execution": {
            "ok": execution_ok,
            "planned": planned,
            "completed": planned,
            "scored": scored,
            "errored": errored,
            "errorRate": error_rate,
            "maxErrorRate": 0.1,
            "minScored": 1,
        },
        "ok": execution_ok
        and thresholds_ok
        and not any(d["severity"] == "error" for d in diagnostics),
        "durationMs": 0,
        "trials": trials,
    }


def demo_run(**kwargs: Any) -> dict[str, Any]:
    """A small fixed run: four tools, five tasks (one distractor), repeat 3, a confusion."""
    tools = {"list_users": 120, "search_users": 140, "get_user": 90, "count_users": 80}
    tasks = [
        Task("list-all", "Show me every user", "list_users", ["core"]),
        Task("find-bob", "Find users named Bob", "search_users", ["core"]),
        Task("get-42", "Get user 42", "get_user"),
        Task("how-many", "How many users are there?", "count_users"),
        Task("weather", "What's the weather in Paris?", None, ["distractor"]),
    ]
    answers: dict[tuple[str, int], Answer] = {
        ("find-bob", 0): ["list_users"],
        ("find-bob", 1): ["list_users"],
        ("list-all", 2): ["search_users"],
        ("get-42", 1): ["get_user", "count_users"],
        ("how-many", 0): [],
        ("how-many", 2): "error",
        ("weather", 1): ["search_users"],
        ("get-42", 2): ["fetch_user"],
    }
    text_for = {("how-many", 0): "Which users do you mean? <b>&amp;</b>"}
    return build_run(tools, tasks, answers, 3, seed=7, text_for=text_for, **kwargs)

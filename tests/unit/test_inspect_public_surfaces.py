"""No false alarms: what the rules beyond upstream say about four well-kept public servers.

Each expected finding is written down with the reason it is right. A rule that starts firing
on most tools of one of these servers needs its threshold rethought, not this list updated;
``test_no_new_rule_fires_on_most_tools`` guards exactly that.
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from tests.support.paths import REPO
from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.surface.inspect import inspect_surface
from whichtool_tui.surface.load import load_snapshot
from whichtool_tui.surface.report_model import InspectReport

NEW_RULES = (
    "names/",
    "descriptions/restates-name",
    "descriptions/placeholder",
    "descriptions/overlap-without-preference",
    "parameters/",
    "annotations/missing-idempotent-hint",
    "budget/",
)
Finding = tuple[str, str, str | None]  # (code, tool or "a,b", parameter)

EXPECTED: dict[str, set[Finding]] = {
    "everything": {
        # `resourceType` has an enum and a default but no description: a model sees "Text" or
        # "Blob" with nothing saying what the choice changes.
        ("parameters/missing-description", "get-resource-reference", "resourceType"),
        # The name promises a message; the description only talks about annotations and
        # metadata, never what message comes back.
        ("names/subject-not-in-description", "get-annotated-message", None),
    },
    "filesystem": {
        # overlap scores the pair >= 0.6 and neither text says "use the other when you need
        # sizes / do not need sizes": the one thing that tells them apart is left implicit.
        (
            "descriptions/overlap-without-preference",
            "list_directory,list_directory_with_sizes",
            None,
        ),
        # Glob, regex or literal names? Relative to what? Nothing in the schema says.
        ("parameters/missing-description", "directory_tree", "excludePatterns"),
        ("parameters/missing-description", "search_files", "excludePatterns"),
        # An array of {oldText, newText} objects with no description of its own (the tool's
        # text explains edits in general, not this parameter).
        ("parameters/missing-description", "edit_file", "edits"),
        # "media" never appears: the text says image and audio, a reader must infer the link.
        ("names/subject-not-in-description", "read_media_file", None),
    },
    # Two tools, every parameter described with examples ('America/New_York') or a format
    # (HH:MM), fully annotated: nothing to say.
    "time": set(),
    "git": {
        # A free string whose description enumerates 'local', 'remote' and 'all': an enum would
        # stop a model from sending "both".
        ("parameters/closed-set-not-enum", "git_branch", "branch_type"),
        # `revision` is required free text (a sha? HEAD~1? a tag?) and neither the schema nor
        # the description shows one.
        ("parameters/required-without-example", "git_show", None),
    },
}
# Why other rules stay silent on these servers, in brief: names are consistent per server
# (kebab-case for everything, snake_case elsewhere; one-word `echo` fits any), no two names
# reduce to the same words, no name is only generic words, every state-changing tool declares
# idempotentHint, no tool passes a quarter of its surface's tokens and twice its fair share,
# git's `repo_path`-style parameters carry titles and self-explanatory names, and the git
# `git_` prefix is a namespace, not a subject each description must repeat.


def _review(name: str) -> InspectReport:
    return inspect_surface(load_snapshot(REPO / "snapshots" / f"{name}.json", cwd=REPO))


def _key(diagnostic: Diagnostic) -> Finding:
    target = diagnostic.tool if diagnostic.tool is not None else ",".join(diagnostic.tools or [])
    detail = diagnostic.detail if isinstance(diagnostic.detail, dict) else {}
    parameter = detail.get("parameter")
    return diagnostic.code, target, parameter if isinstance(parameter, str) else None


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_new_rules_on_public_servers(name: str) -> None:
    report = _review(name)
    found = {_key(d) for d in report.diagnostics if d.code.startswith(NEW_RULES)}
    assert found == EXPECTED[name]
    # The new rules add no error: a clean public server still exits 0 on them alone.
    assert not any(
        d.severity == "error" for d in report.diagnostics if d.code.startswith(NEW_RULES)
    )


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_no_new_rule_fires_on_most_tools(name: str) -> None:
    report = _review(name)
    tools_by_rule: dict[str, set[str]] = defaultdict(set)
    for diagnostic in report.diagnostics:
        if diagnostic.code.startswith(NEW_RULES):
            tools_by_rule[diagnostic.code].update(
                [diagnostic.tool] if diagnostic.tool else diagnostic.tools or []
            )
    for code, tools in tools_by_rule.items():
        assert len(tools) * 2 <= report.surface.tool_count, (code, sorted(tools))


def test_filesystem_lists_parameter_and_naming_findings_with_fixes() -> None:
    report = _review("filesystem")
    codes = {d.code.split("/")[0] for d in report.diagnostics}
    assert {"parameters", "names"} <= codes
    assert all(d.hint for d in report.diagnostics)

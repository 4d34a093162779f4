"""Rule rewrites quote example requests without their task values, and overlap families are
formed without the docstring boilerplate generated tools share."""

from __future__ import annotations

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.improve.briefs import confusable, gather_briefs, without_boilerplate
from whichtool_tui.improve.model import TuningFailure
from whichtool_tui.improve.rules import rule_proposals
from whichtool_tui.surface.normalize import normalize_surface

BOILERPLATE = """

Args:
    issue_key: The key of the item, e.g. PROJ-123.
    comment: Optional text to add with the change.
    notify: Whether to notify watchers.

Returns:
    A JSON string with the result of the operation and any warnings.

Raises:
    ValueError: If the item is not found or the caller lacks permission.
"""


def test_example_requests_replace_task_values_with_placeholders() -> None:
    surface = normalize_surface(
        [{"name": "list_pulls", "description": "List pull requests of a repository."}]
    )
    failure = TuningFailure(
        task_id="t1",
        prompt="List the open PRs in acme/api opened since #512 by bob@acme.io",
        expected="list_pulls",
        picked=[None],
    )
    (brief,) = gather_briefs(surface, [], [failure])
    examples = [p for p in rule_proposals(brief) if p.rule == "example-requests"]
    assert examples
    text = examples[0].description
    assert "acme" not in text and "512" not in text and "bob" not in text
    assert '"List the open PRs in <owner>/<repo> opened since #<n> by <email>"' in text


def test_docstring_boilerplate_forms_no_overlap_family() -> None:
    assert without_boilerplate("Assign an issue to a user." + BOILERPLATE).strip() == (
        "Assign an issue to a user."
    )
    surface = normalize_surface(
        [
            {
                "name": "jira_assign_issue",
                "description": "Assign a Jira issue to a user." + BOILERPLATE,
            },
            {
                "name": "confluence_add_comment",
                "description": "Comment on a Confluence page." + BOILERPLATE,
            },
            {
                "name": "jira_unassign_issue",
                "description": "Unassign a Jira issue from its user." + BOILERPLATE,
            },
        ]
    )
    by_name = {tool.name: tool for tool in surface.tools}
    assert not confusable(by_name["jira_assign_issue"], by_name["confluence_add_comment"])
    assert confusable(by_name["jira_assign_issue"], by_name["jira_unassign_issue"])
    finding = Diagnostic(
        code="overlap/high",
        severity="warning",
        message="three tools overlap",
        tools=["jira_assign_issue", "confluence_add_comment", "jira_unassign_issue"],
    )
    briefs = {brief.tool.name: brief for brief in gather_briefs(surface, [finding], [])}
    assert "confluence_add_comment" not in briefs  # its only overlap is the boilerplate
    assert [t.name for t in briefs["jira_assign_issue"].siblings] == ["jira_unassign_issue"]

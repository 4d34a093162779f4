"""Author-safe hints: task values are never suggested, one-prompt words are set apart, and each
suggestion names the searches it would help."""

from __future__ import annotations

from typing import Any

from whichtool_tui.discovery.deferral import predict_deferral
from whichtool_tui.discovery.documents import build_document
from whichtool_tui.discovery.findability import assess_findability
from whichtool_tui.discovery.hints import prompt_frequency, split_missing, task_value_words
from whichtool_tui.discovery.review import build_retriever
from whichtool_tui.discovery.text import prompt_vocabulary
from whichtool_tui.evaluation.plan import TaskSpec


def test_task_values_are_ids_numbers_hashes_emails_owner_repo_files_and_quotes() -> None:
    prompt = (
        "Merge PR 512 of octo/webapp at commit 3f2a9c1, tell bob@example.com, "
        "attach README.md and label it 'hotfix later'"
    )
    values = task_value_words(prompt)
    assert {"512", "octo", "webapp", "3f2a9c1", "bob", "example", "readme", "hotfix"} <= values
    assert {"merge", "commit", "label", "attach"}.isdisjoint(values)


def test_split_missing_keeps_capability_words_sets_apart_single_prompt_words() -> None:
    prompts = [
        "Merge pull request 512 of octo/webapp",
        "Merge the pull request for octo/api",
        "Stage README.md",
    ]
    frequency = prompt_frequency(prompts)
    vocabulary = prompt_vocabulary(prompts[0])
    suggestion = split_missing(prompts[0], list(vocabulary), frequency)
    assert suggestion.safe == ("merge", "pull", "request")
    assert suggestion.withheld == ("512", "octo", "webapp")
    staged = split_missing(prompts[2], list(prompt_vocabulary(prompts[2])), frequency)
    assert staged.single == ("stage",) and staged.withheld == ("readme",)


def _schema(*names: str) -> dict[str, Any]:
    return {"type": "object", "properties": {name: {"type": "string"} for name in names}}


def test_missed_finding_suggests_only_safe_words_and_which_searches_they_help() -> None:
    documents = [
        build_document("git_merge", "Combine two lines of development.", _schema("repo"), 0),
        build_document("merge_request_list", "List merge requests.", _schema("repo"), 1),
        build_document("pull_list", "List pull requests.", _schema("repo"), 2),
    ]
    tasks = [
        TaskSpec(id="one", prompt="Merge pull request 512 of octo/webapp", expected="git_merge"),
        TaskSpec(id="two", prompt="Merge the pull request for octo/api", expected="git_merge"),
    ]
    names = ["bm25", "codex", "fastmcp"]
    section = assess_findability(
        documents,
        tasks,
        [build_retriever(documents, name, 0.3) for name in names],
        predict_deferral(100, 3),
        task_source="t",
        top_k=1,
    )
    missed = [f for f in section.findings if f.code == "findability/missed"]
    assert missed
    first = next(f for f in missed if f.detail["task"] == "one")
    assert first.detail["withheldWords"] == ["512", "octo", "webapp"]
    assert set(first.detail["absentWords"]) <= {"merge", "pull", "request"}
    assert all(set(searches) <= set(names) for searches in first.detail["helps"].values())
    assert "octo" not in first.hint.split("Not suggested")[0]
    assert "helps" in first.hint and "Not suggested: '512', 'octo', 'webapp'" in first.hint

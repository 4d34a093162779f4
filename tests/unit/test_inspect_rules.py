"""Each lint rule beyond upstream: a surface that fires it and a near miss that must not."""

from __future__ import annotations

from typing import Any

import pytest

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.surface.inspect import inspect_surface
from whichtool_tui.surface.listing import ServedListing
from whichtool_tui.surface.rule_catalog import RULES
from whichtool_tui.surface.rule_text import covered_by, mentions, text_words

ANNOTATED = {"readOnlyHint": True, "idempotentHint": True}


def tool(
    name: str,
    description: str = "A tool that does one specific, documented thing for the caller.",
    properties: dict[str, Any] | None = None,
    required: list[str] | None = None,
    annotations: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One served tool; read-only and idempotent unless told otherwise."""
    schema: dict[str, Any] = {"type": "object", "properties": properties or {}}
    if required:
        schema["required"] = required
    return {
        "name": name,
        "description": description,
        "inputSchema": schema,
        "annotations": ANNOTATED if annotations is None else annotations,
    }


def findings(raw: list[dict[str, Any]], code: str) -> list[Diagnostic]:
    """The findings with ``code`` when the whole inspect runs over ``raw``."""
    report = inspect_surface(ServedListing("snapshot", "rules.json", raw), max_tools=1000)
    return [d for d in report.diagnostics if d.code == code]


def param(description: str | None = None, **schema: Any) -> dict[str, Any]:
    """A parameter schema (a string unless ``type`` says otherwise)."""
    out: dict[str, Any] = {"type": "string", **schema}
    if description is not None:
        out["description"] = description
    return out


# --- names -----------------------------------------------------------------------------------


def test_same_words_fires_on_case_separator_order_and_plural() -> None:
    fired = findings(
        [tool("get_user"), tool("getUser"), tool("user-get"), tool("get_users")],
        "names/same-words",
    )
    assert {tuple(d.tools or []) for d in fired} == {
        ("getUser", "get_user"),
        ("getUser", "get_users"),
        ("getUser", "user-get"),
        ("get_user", "get_users"),
        ("get_user", "user-get"),
        ("get_users", "user-get"),
    }
    assert all(d.severity == "warning" and d.hint for d in fired)


def test_same_words_near_miss_one_extra_word() -> None:
    assert findings([tool("get_user"), tool("get_user_profile")], "names/same-words") == []


def test_generic_name_fires_only_when_every_word_is_generic() -> None:
    fired = findings([tool("run_tool"), tool("handle"), tool("do_it_2")], "names/generic")
    assert sorted(d.tool or "" for d in fired) == ["do_it_2", "handle", "run_tool"]
    assert findings([tool("run_tests"), tool("handle_refund")], "names/generic") == []


def test_subject_missing_from_description() -> None:
    fired = findings(
        [tool("get_invoice", "Return one customer order with its line items.")],
        "names/subject-not-in-description",
    )
    assert [d.detail for d in fired] == [{"subjects": ["invoice"]}]
    assert "`invoice`" in fired[0].message and fired[0].severity == "info"


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("get_invoices", "Return one invoice with its line items."),  # plural
        ("get_repo_info", "Return repository information and settings."),  # abbreviations
        ("diff_unstaged", "Show changes not yet staged."),  # un- read as "not"
        ("echo", "Return the message unchanged."),  # the only word is the action
    ],
)
def test_subject_near_misses(name: str, description: str) -> None:
    assert findings([tool(name, description)], "names/subject-not-in-description") == []


def test_namespace_prefix_is_not_a_subject() -> None:
    raw = [
        tool("acme_status", "Show the working status."),
        tool("acme_log", "Show the log lines."),
        tool("acme_tags", "List the tags."),
    ]
    assert findings(raw, "names/subject-not-in-description") == []


def test_mixed_conventions_names_each_outlier() -> None:
    raw = [tool("get_user"), tool("list_users"), tool("deleteUser"), tool("search.users")]
    fired = findings(raw, "names/mixed-conventions")
    assert {(d.tool, d.detail["convention"]) for d in fired} == {
        ("deleteUser", "camelCase"),
        ("search.users", "dotted"),
    }
    assert all(d.detail["main"] == "snake_case" for d in fired)


def test_mixed_conventions_near_miss_single_words_fit_any_convention() -> None:
    assert (
        findings([tool("get_user"), tool("list_users"), tool("echo")], "names/mixed-conventions")
        == []
    )


# --- descriptions ----------------------------------------------------------------------------


def test_description_restating_the_name() -> None:
    fired = findings([tool("get_user", "Get the user.")], "descriptions/restates-name")
    assert [d.tool for d in fired] == ["get_user"]
    near = tool("get_user", "Get the user by id, with profile fields and last login.")
    assert findings([near], "descriptions/restates-name") == []


@pytest.mark.parametrize(
    "text",
    ["TODO", "Lorem ipsum dolor sit amet.", "Description here.", "Fetch rows. FIXME: paging"],
)
def test_placeholder_text_fires(text: str) -> None:
    assert len(findings([tool("get_rows", text)], "descriptions/placeholder")) == 1


def test_placeholder_in_a_parameter_names_the_parameter() -> None:
    raw = [tool("get_rows", properties={"table": param("TBD")})]
    fired = findings(raw, "descriptions/placeholder")
    assert fired[0].detail == {"parameter": "table", "text": "TBD"}
    assert "`table`" in fired[0].message


def test_placeholder_near_miss_lowercase_todo_is_a_word() -> None:
    raw = [tool("add_todo", "Add a todo item to the user's list, with an optional due date.")]
    assert findings(raw, "descriptions/placeholder") == []


_PAIR_TEXT = "List orders for a customer, newest first, with their status and their total."


def test_overlapping_pair_without_preference() -> None:
    raw = [tool("list_orders", _PAIR_TEXT), tool("list_orders_all", _PAIR_TEXT + " All of them.")]
    fired = findings(raw, "descriptions/overlap-without-preference")
    assert [d.tools for d in fired] == [["list_orders", "list_orders_all"]]
    # Reuses overlap's result: the same pair is an overlap/high finding.
    assert findings(raw, "overlap/high")[0].tools == ["list_orders", "list_orders_all"]


@pytest.mark.parametrize(
    "extra",
    [
        " Use list_orders for one customer instead.",  # names the other tool
        " Prefer this for exports.",  # a preference phrase
    ],
)
def test_overlapping_pair_near_misses(extra: str) -> None:
    raw = [tool("list_orders", _PAIR_TEXT), tool("list_orders_all", _PAIR_TEXT + extra)]
    assert findings(raw, "overlap/high")  # still overlapping...
    assert findings(raw, "descriptions/overlap-without-preference") == []  # ...but guided


def test_overlapping_pair_contrast_by_negation() -> None:
    raw = [
        tool("diff_staged", "Shows changes in the working tree that are staged for commit."),
        tool("diff_unstaged", "Shows changes in the working tree that are not yet staged."),
    ]
    assert findings(raw, "overlap/high")
    assert findings(raw, "descriptions/overlap-without-preference") == []


# --- parameters ------------------------------------------------------------------------------


def test_parameter_without_description() -> None:
    raw = [tool("get_rows", properties={"table": param(), "owner": param(title="Owner")})]
    fired = findings(raw, "parameters/missing-description")
    assert [d.detail["parameter"] for d in fired] == ["table"]  # a title counts as a label
    assert "`table`" in fired[0].message and "`get_rows`" in fired[0].message


def test_parameter_without_description_near_miss_self_explanatory_name() -> None:
    raw = [tool("read_text", properties={"path": param(), "repo_path": param()})]
    assert findings(raw, "parameters/missing-description") == []


def test_parameter_description_restating_its_name() -> None:
    raw = [tool("get_order", properties={"order_id": param("Order identifier.")})]
    assert len(findings(raw, "parameters/description-restates-name")) == 1
    near = [tool("get_order", properties={"order_id": param("Order number as printed, A-1042.")})]
    assert findings(near, "parameters/description-restates-name") == []


def test_closed_set_in_a_free_string() -> None:
    described = "Whether to list local branches ('local'), remote ('remote') or all ('all')."
    fired = findings(
        [tool("list_branches", properties={"kind": param(described)})],
        "parameters/closed-set-not-enum",
    )
    assert fired[0].detail["values"] == ["local", "remote", "all"]
    one_of = [tool("sort_rows", properties={"order": param("One of: asc, desc")})]
    assert len(findings(one_of, "parameters/closed-set-not-enum")) == 1


def test_a_parameter_many_tools_share_is_found_in_each_and_only_where_it_is_the_same() -> None:
    described = "Whether to list local branches ('local'), remote ('remote') or all ('all')."
    raw = [
        tool(f"list_branches_{index}", properties={"kind": param(described)}) for index in range(3)
    ]
    raw.append(tool("list_tags", properties={"kind": param(described, enum=["local", "all"])}))
    raw.append(tool("list_heads", properties={"mode": param(described)}))  # another name
    fired = findings(raw, "parameters/closed-set-not-enum")
    assert sorted(d.tool or "" for d in fired) == [
        "list_branches_0",
        "list_branches_1",
        "list_branches_2",
        "list_heads",
    ]
    assert {d.message.split(",")[0] for d in fired} == {f"Tool `{d.tool}`" for d in fired}
    values = [d.detail["values"] for d in fired]
    assert values == [["local", "remote", "all"]] * 4
    assert len({id(item) for item in values}) == 4  # each finding its own list


@pytest.mark.parametrize(
    "schema",
    [
        param("IANA name (e.g. 'Europe/Lisbon' or 'UTC')."),  # examples, not a closed set
        param("Sort order: 'asc' or 'desc'.", enum=["asc", "desc"]),  # already an enum
        param("The sort order to apply to the rows."),  # no values listed
    ],
)
def test_closed_set_near_misses(schema: dict[str, Any]) -> None:
    raw = [tool("sort_rows", properties={"order": schema})]
    assert findings(raw, "parameters/closed-set-not-enum") == []


def test_date_email_url_without_format() -> None:
    raw = [
        tool(
            "create_invite",
            properties={
                "due_date": param("When the invite expires."),
                "email": param("Who to invite."),
                "homepageUrl": param("Their site."),
                "callback_uri": param("Where to post.", format="uri"),
                "start_date": param("First day.", pattern="^\\d{4}-\\d{2}-\\d{2}$"),
            },
        )
    ]
    fired = findings(raw, "parameters/missing-format")
    assert sorted(d.detail["parameter"] for d in fired) == ["due_date", "email", "homepageUrl"]


def test_untyped_parameter_and_open_object() -> None:
    raw = [
        tool(
            "put_rows",
            properties={
                "rows": {"description": "Rows to write."},
                "options": {"type": "object", "description": "Write options."},
                "labels": {
                    "type": "object",
                    "description": "Labels by key.",
                    "additionalProperties": {"type": "string"},
                },
                "filter": {
                    "type": "object",
                    "description": "Filter.",
                    "properties": {"status": param("Row status text.")},
                },
                "maybe": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "x y"},
                "tags": {"type": "array", "items": {}, "description": "Tags to attach."},
            },
        )
    ]
    assert sorted(d.detail["parameter"] for d in findings(raw, "parameters/untyped")) == [
        "rows",
        "tags[]",
    ]
    assert [d.detail["parameter"] for d in findings(raw, "parameters/open-object")] == ["options"]


def test_required_free_text_without_example() -> None:
    bare = [
        tool("get_commit", properties={"revision": param("Which revision.")}, required=["revision"])
    ]
    fired = findings(bare, "parameters/required-without-example")
    assert fired and fired[0].detail == {"parameters": ["revision"]}


@pytest.mark.parametrize(
    "schema",
    [
        param("Which revision, e.g. HEAD~1."),
        param("Which revision.", examples=["HEAD~1"]),
        param("Which revision.", default="HEAD"),
        param("Which revision.", enum=["HEAD", "main"]),
    ],
)
def test_required_free_text_near_misses(schema: dict[str, Any]) -> None:
    raw = [tool("get_commit", properties={"revision": schema}, required=["revision"])]
    assert findings(raw, "parameters/required-without-example") == []


def test_required_self_explanatory_or_optional_parameters_do_not_fire() -> None:
    raw = [
        tool("read_text", properties={"path": param("File to read.")}, required=["path"]),
        tool("get_commit", properties={"revision": param("Which revision.")}),
    ]
    assert findings(raw, "parameters/required-without-example") == []


# --- annotations and budget ------------------------------------------------------------------


def test_state_changing_tool_without_idempotent_hint() -> None:
    raw = [
        tool("create_user", annotations={"readOnlyHint": False}),
        tool("rotate_key", annotations={"readOnlyHint": False, "idempotentHint": False}),
        tool("lookup_user", annotations={"readOnlyHint": True}),
        tool("refresh_cache", annotations={"readOnlyHint": True}),  # declared read-only
    ]
    fired = findings(raw, "annotations/missing-idempotent-hint")
    assert [d.tool for d in fired] == ["create_user"]


def test_idempotent_rule_waits_for_a_surface_that_annotates() -> None:
    raw = [tool("create_user", annotations={}), tool("delete_user", annotations={})]
    assert findings(raw, "annotations/missing-idempotent-hint") == []
    assert findings(raw, "annotations/absent-surface-wide")  # the one warning covers it


def test_dominant_tool_share() -> None:
    long = "Search the archive by many criteria. " + " ".join(f"word{i}" for i in range(400))
    raw = [tool("search_archive", long), *(tool(f"get_item_{i}") for i in range(4))]
    fired = findings(raw, "budget/dominant-tool")
    assert [d.tool for d in fired] == ["search_archive"]
    assert fired[0].detail["share"] > fired[0].detail["limit"]


def test_dominant_tool_near_misses_balanced_and_tiny_surfaces() -> None:
    assert findings([tool(f"get_item_{i}") for i in range(5)], "budget/dominant-tool") == []
    long = "Search the archive. " + " ".join(f"word{i}" for i in range(400))
    assert findings([tool("search_archive", long), tool("get_item")], "budget/dominant-tool") == []


# --- shared pieces ---------------------------------------------------------------------------


def test_every_new_rule_is_catalogued_with_a_fix() -> None:
    families = ("names/", "descriptions/", "parameters/", "annotations/", "budget/")
    for code, rule in RULES.items():
        assert rule.severity in ("error", "warning", "info")
        assert rule.summary and rule.help, code
        if code.startswith(families):
            assert rule.configurable


def test_mentions_forgives_inflections_not_different_words() -> None:
    words = text_words("Shows the annotations of repository logs")
    assert mentions("annotated", words) and mentions("repo", words) and mentions("log", words)
    assert not mentions("invoice", words)
    assert covered_by(frozenset(["identifier"]), frozenset(["customer", "id"]))
    assert not covered_by(frozenset(["newest"]), frozenset(["customer", "id"]))


def test_rule_catalog_markdown_lists_every_code() -> None:
    from whichtool_tui.reports.inspect_rules_doc import render_rule_catalog_markdown

    text = render_rule_catalog_markdown()
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == sorted(RULES)
    assert all(row.count(" | ") == 4 for row in rows)


def test_placeholder_near_miss_format_mask() -> None:
    raw = [tool("call_phone", properties={"number": param("Phone number as XXX-XXX-XXXX.")})]
    assert findings(raw, "descriptions/placeholder") == []


def test_unvalidated_pair_findings_equal_validated_ones() -> None:
    raw = [tool("list_orders", _PAIR_TEXT), tool("list_orders_all", _PAIR_TEXT + " All of them.")]
    for code in ("descriptions/overlap-without-preference", "overlap/high"):
        (item,) = findings(raw, code)
        again = Diagnostic.model_validate(item.to_json())
        assert again == item and again.model_fields_set == item.model_fields_set
        assert item.model_copy(update={"severity": "error"}).severity == "error"

"""Seeded mutations with exact expected strings, derived by hand from the rules.

Random streams (mulberry32 seeded with FNV-1a of "seed:id:mutation"), first values:
  0:t1:typo   0.619685 0.622043 0.544403 0.421727 0.609881
  2:t1:typo   0.177887 0.096182 0.363310 0.953215
  7:t1:typo   0.325381 0.691275 0.704378
  0:t2:typo   0.850006 0.994913 0.003077 0.955596 0.614700
  0:t4:typo   0.8072   0.1617   0.9521   0.8603   0.8695
  0:t1:polite 0.360245   1:t1:polite 0.773639   4:t1:polite 0.212963
"""

from __future__ import annotations

import pytest

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.evaluation.seeds import fnv1a, mulberry32
from whichtool_tui.tasks.model import DerivedFrom, Task
from whichtool_tui.tasks.mutate import (
    MUTATION_NAMES,
    casual,
    imperative,
    interrogative,
    mutate_tasks,
    polite,
    typo,
)

ORIGINALS = [
    Task(id="t1", prompt="Show me the open invoices", expected="list_invoices"),
    Task(id="t2", prompt="Can you refund order 1234?", expected="refund_order", tags=["write"]),
    Task(id="t3", prompt="What is the status of ticket 42?", expected="get_ticket"),
    Task(id="t4", prompt="Please delete my account.", expected=None, tags=["distractor"]),
]


def stream(key: str) -> list[float]:
    random = mulberry32(fnv1a(key))
    return [random() for _ in range(5)]


def never(_: None = None) -> float:
    raise AssertionError("this mutation must not draw random numbers")


def test_random_streams_match_the_documented_values() -> None:
    assert [round(x, 6) for x in stream("0:t1:typo")] == [
        0.619685,
        0.622043,
        0.544403,
        0.421727,
        0.609881,
    ]
    assert round(stream("1:t1:polite")[0], 6) == 0.773639


def test_seed_0_whole_set_exact_output() -> None:
    result = mutate_tasks(ORIGINALS)
    assert result.tasks[:4] == ORIGINALS
    produced = [(task.id, task.prompt) for task in result.tasks[4:]]
    assert produced == [
        ("t1.casual", "show me the open invoices"),
        ("t1.interrogative", "Could you show me the open invoices?"),
        ("t1.polite", "Could you please show me the open invoices? I'd appreciate it."),
        # count 1+floor(.62*2)=2; 16 candidates; picks [9]=18 ('n' of invoices), [8]=15
        # ('n' of open); from the right: roll .42 -> double, roll .61 -> double
        ("t1.typo", "Show me the openn innvoices"),
        ("t2.casual", "refund order 1234"),
        ("t2.imperative", "Refund order 1234."),
        # count 2; 13 candidates; picks [12]=19 ('r' of order), [0]=1 ('a');
        # roll .96 -> swap with the following space; roll .61 -> double
        ("t2.typo", "Caan you refund orde r1234?"),
        ("t3.casual", "what is the status of ticket 42"),
        ("t3.imperative", "Tell me what is the status of ticket 42."),
        # count 1; 17 candidates; pick [11]=20 ('f' of of); roll .41 -> double
        ("t3.typo", "What is the status off ticket 42?"),
        ("t4.casual", "delete my account"),
        # count 2; 17 candidates; picks [2]=3 ('a'), [16]=23 ('t' before '.');
        # roll .86 -> swap 't' and '.'; roll .87 -> swap 'a' and 's'
        ("t4.typo", "Plesae delete my accoun.t"),
    ]
    variant = result.tasks[4 + 4]  # t2.casual
    assert variant.expected == "refund_order"
    assert variant.tags == ["write", "mutated", "casual"]
    assert variant.derived_from == DerivedFrom(task_id="t2", mutation="casual")
    assert {name: (s.produced, s.skipped) for name, s in result.applied.items()} == {
        "casual": (4, 0),
        "imperative": (2, 2),
        "interrogative": (1, 3),
        "polite": (1, 3),
        "typo": (4, 0),
    }
    assert [(d.code, d.detail) for d in result.diagnostics] == [
        ("mutate/produced", {"derived": 12, "originals": 4})
    ]


@pytest.mark.parametrize(
    ("seed", "expected"),
    [
        # count 1; pick [floor(.096*16)=1]=2 ('o' of Show); roll .36 -> neighbour of o
        # ("ipl")[floor(.953*3)=2] = 'l'
        (2, "Shlw me the open invoices"),
        # count 1; pick [floor(.691*16)=11]=20 ('o' of invoices); roll .704 -> swap with 'i'
        (7, "Show me the open invioces"),
    ],
)
def test_typo_branches_for_fixed_seeds(seed: int, expected: str) -> None:
    result = mutate_tasks(ORIGINALS[:1], ["typo"], seed=seed)
    assert result.tasks[1].prompt == expected
    assert result.tasks[1].id == "t1.typo"


@pytest.mark.parametrize(
    ("seed", "closer"),
    [(0, "? I'd appreciate it."), (1, ", if you don't mind?"), (4, "? Thanks.")],
)
def test_polite_closer_follows_the_seed(seed: int, closer: str) -> None:
    result = mutate_tasks(ORIGINALS[:1], ["polite"], seed=seed)
    assert result.tasks[1].prompt == f"Could you please show me the open invoices{closer}"


def test_typo_declines_short_words_and_unchanged_results() -> None:
    assert typo("a b c d", mulberry32(1)) is None  # no letter follows a letter
    assert typo("ab cd", mulberry32(1)) is None  # only 2 candidates
    assert typo("Go up now", mulberry32(1)) is not None  # o, p, o, w: 4 candidates


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("Hey, show the logs!", "show the logs"),
        ("I'm wondering who owns this?", "who owns this"),
        ("im wondering who owns this", "who owns this"),
        ("I am wondering who owns this", "who owns this"),
        ("  Could you   list users?!  ", "list users"),
        ("I need to reset a password.", "reset a password"),
        ("list users", None),  # nothing to change
        ("Please?", "please"),  # a filler only counts when followed by whitespace
    ],
)
def test_casual(prompt: str, expected: str | None) -> None:
    assert casual(prompt, never) == expected


def test_casual_of_only_punctuation_is_declined() -> None:
    assert casual("?!", never) is None


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("Could you please list the users?", "List the users."),
        ("will you   stop the job ?", "Stop the job."),
        ("HOW MANY users are there?", "Tell me how many users are there."),
        ("Which branch is default?", "Tell me which branch is default."),
        ("Whichever works?", None),  # \b: "which" must be a whole word
        ("Is it on?", None),
        ("List the users.", None),
    ],
)
def test_imperative(prompt: str, expected: str | None) -> None:
    assert imperative(prompt, never) == expected


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("Look up the order 12.", "Could you look up the order 12?"),
        ("FETCH the latest release!", "Could you fetch the latest release?"),
        ("Tell me the time", "Could you tell me the time?"),
        ("Listing is slow.", None),
        ("Show me the logs?", None),
        ("Delete the logs.", None),
    ],
)
def test_interrogative(prompt: str, expected: str | None) -> None:
    assert interrogative(prompt, never) == expected


def test_polite_declines_fillers_and_questions() -> None:
    assert polite("Please list users", mulberry32(0)) is None
    assert polite("list users?", mulberry32(0)) is None


def test_duplicates_are_skipped_and_counted() -> None:
    tasks = [
        Task(id="a", prompt="show me the open invoices", expected="x"),
        Task(id="b", prompt="Show me the open invoices", expected="x"),
    ]
    result = mutate_tasks(tasks, ["casual"])
    # a: already lowercase, nothing to strip -> declined; b -> equals a's prompt -> skipped
    assert result.applied["casual"].produced == 0
    assert result.applied["casual"].skipped == 2
    assert [d.code for d in result.diagnostics] == ["mutate/never-applied"]
    assert result.diagnostics[0].detail == {"mutation": "casual", "skipped": 2}


def test_no_originals_and_derived_tasks_are_not_re_mutated() -> None:
    derived = Task(
        id="t1.casual",
        prompt="Show all the open invoices",
        expected="x",
        derived_from=DerivedFrom(task_id="t1", mutation="casual"),
    )
    result = mutate_tasks([ORIGINALS[0], derived], ["interrogative"], keep_originals=False)
    assert [task.id for task in result.tasks] == ["t1.interrogative"]
    assert result.applied["interrogative"].produced == 1
    assert result.applied["interrogative"].skipped == 0


def test_same_seed_same_output_and_names_are_sorted() -> None:
    assert mutate_tasks(ORIGINALS, seed=42).tasks == mutate_tasks(ORIGINALS, seed=42).tasks
    assert MUTATION_NAMES == ("casual", "imperative", "interrogative", "polite", "typo")


def test_unknown_mutation_is_refused() -> None:
    with pytest.raises(WhichtoolError) as caught:
        mutate_tasks(ORIGINALS, ["typo", "translate"])
    assert caught.value.code == "tasks/unknown-mutation"
    assert "translate" in caught.value.message

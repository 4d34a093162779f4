"""Findability: for each task prompt, would a host's tool search return the expected tool?

Pure over documents and retrievers: ranks per task and search, found@k per tool, tools never
found for their own prompts, distractors that retrieve a tool confidently, and findings whose
fixes name the words to add (prompt words absent from the tool's text, a name that hides the
subject, a first sentence that leaves out the task's key terms).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from whichtool_tui.diagnostics import Diagnostic, sort_diagnostics
from whichtool_tui.discovery.deferral import DeferralSection, deferral_findings
from whichtool_tui.discovery.documents import ToolDocument
from whichtool_tui.discovery.hints import prompt_frequency, searches_helped, split_missing
from whichtool_tui.discovery.ranking import (
    CURVE_KS,
    DEFAULT_K,
    FINDABILITY_KS,
    Ranking,
    Retriever,
)
from whichtool_tui.discovery.report_model import (
    DistractorRetrieval,
    FindabilitySection,
    SearchSummary,
    SemanticOverlap,
    TaskFindability,
    ToolFindability,
)
from whichtool_tui.discovery.text import names_in_text, prompt_vocabulary
from whichtool_tui.evaluation.plan import TaskSpec

METHODS = {
    "bm25": "BM25 (bm25s, Lucene, k1 1.2, b 0.75) over the raw name, name parts, titles, "
    "description and parameter names; confident when the best score is 1.5x the runner-up",
    "regex": "case-insensitive pattern of the prompt's word stems over the same text, scored "
    "by distinct words matched; confident at 2+ words and more than any other tool",
    "semantic": "cosine similarity of all-MiniLM-L6-v2 (int8 ONNX) vectors; confident at the "
    "minimum similarity",
}
TOP_SHOWN = 3


def method_of(name: str) -> str:
    """How a search ranks: the generic ones here, a host's from its search profile."""
    if name in METHODS:
        return METHODS[name]
    from whichtool_tui.discovery.profiles import profile_named

    return profile_named(name).method()


def search_k(name: str, top_k: int) -> int:
    """The k a search is judged at: a host profile's own (Codex and pi load 8), else top_k."""
    from whichtool_tui.discovery.profiles import profile_named
    from whichtool_tui.discovery.ranking import HOST_RETRIEVERS

    return profile_named(name).top_k if name in HOST_RETRIEVERS else top_k


def _words(vocabulary: Mapping[str, str], stems: set[str]) -> list[str]:
    return [vocabulary[stem] for stem in sorted(stems, key=list(vocabulary).index)]


def _quoted(words: Sequence[str]) -> str:
    return ", ".join(f"'{word}'" for word in words)


def _missed_finding(
    task: TaskSpec,
    document: ToolDocument,
    rankings: Mapping[str, Ranking],
    top_k: int,
    frequency: Mapping[str, int],
) -> Diagnostic | None:
    missed = {
        name: ranking.rank_of(document.name)
        for name, ranking in rankings.items()
        if (ranking.rank_of(document.name) or 10**9) > search_k(name, top_k)
    }
    if not missed:
        return None
    vocabulary = prompt_vocabulary(task.prompt)
    absent = _words(vocabulary, set(vocabulary) - document.term_set)
    stems = {word: stem for stem, word in vocabulary.items()}
    suggestion = split_missing(task.prompt, [stems[word] for word in absent], frequency)
    helps = {word: searches_helped(word, task.prompt, missed) for word in suggestion.safe}
    where = ", ".join(
        f"{name} ({'not returned' if rank is None else f'rank {rank}'}"
        + (f", k {search_k(name, top_k)})" if search_k(name, top_k) != top_k else ")")
        for name, rank in missed.items()
    )
    leaders = sorted({ranking.hits[0].name for ranking in rankings.values() if ranking.hits})
    if suggestion.safe:
        groups: dict[tuple[str, ...], list[str]] = {}
        for word, searches in helps.items():
            groups.setdefault(tuple(searches), []).append(word)
        parts = [
            f"{_quoted(words)} (helps {', '.join(searches) or 'none of them'})"
            for searches, words in groups.items()
        ]
        hint = (
            f"Use the prompt's words in `{document.name}`'s description: {'; '.join(parts)}; "
            "they never appear in its name, title, description or parameter names."
        )
    elif not (suggestion.single or suggestion.withheld):
        hint = (
            f"Every prompt word is already there; {', '.join(f'`{n}`' for n in leaders)} "
            f"match better. Say in the first sentence what sets `{document.name}` apart."
        )
    else:
        hint = f"Say in the first sentence what `{document.name}` does that the prompt asks for."
    if suggestion.single:
        hint += (
            f" In this prompt only (add them if they name the capability, not the request's "
            f"own values): {_quoted(suggestion.single)}."
        )
    if suggestion.withheld:
        hint += (
            f" Not suggested: {_quoted(suggestion.withheld)} are task values (ids, numbers, "
            "owner/repo, quoted text); describe the kind of value instead of pasting it."
        )
    return Diagnostic(
        code="findability/missed",
        severity="warning",
        message=(
            f"Task {task.id}: `{document.name}` is not in the top {top_k} of {where}"
            if all(search_k(name, top_k) == top_k for name in missed)
            else f"Task {task.id}: `{document.name}` is not within each search's k: {where}"
        ),
        tool=document.name,
        detail={
            "task": task.id,
            "absentWords": list(suggestion.safe),
            "singlePromptWords": list(suggestion.single),
            "withheldWords": list(suggestion.withheld),
            "helps": helps,
        },
        hint=hint,
    )


def _first_sentence_finding(task: TaskSpec, document: ToolDocument) -> Diagnostic | None:
    vocabulary = prompt_vocabulary(task.prompt)
    key_terms = set(vocabulary) & document.term_set
    if not key_terms or key_terms & document.first_sentence_terms:
        return None
    words = _words(vocabulary, key_terms)
    return Diagnostic(
        code="findability/first-sentence-misses-terms",
        severity="info",
        message=f"Task {task.id}: `{document.name}` matches {_quoted(words)} only after its "
        "first sentence, which is what hosts list and some searches weigh most",
        tool=document.name,
        detail={"task": task.id, "keyWords": words},
        hint=f"Move {_quoted(words)} into the first sentence of `{document.name}`.",
    )


def _name_finding(document: ToolDocument, own_tasks: Sequence[TaskSpec]) -> Diagnostic | None:
    counts: Counter[str] = Counter()
    surface_words: dict[str, str] = {}
    for task in own_tasks:
        vocabulary = prompt_vocabulary(task.prompt)
        for stem in set(vocabulary) & document.term_set:
            counts[stem] += 1
            surface_words.setdefault(stem, vocabulary[stem])
    if not counts or set(counts) & document.name_terms:
        return None
    subject = surface_words[min(counts, key=lambda stem: (-counts[stem], stem))]
    return Diagnostic(
        code="findability/name-hides-subject",
        severity="info",
        message=f"`{document.name}`'s name shares no word with its {len(own_tasks)} task "
        f"prompt(s); the subject ('{subject}') is only in its description",
        tool=document.name,
        detail={"subject": subject},
        hint=f"Name the subject: a name with '{subject}' in it is found by a name-only listing "
        "and weighs more in every search.",
    )


def _distractor_finding(task: TaskSpec, rankings: Mapping[str, Ranking]) -> Diagnostic:
    confident = {name: r.hits[0].name for name, r in rankings.items() if r.confident and r.hits}
    tools = sorted(set(confident.values()))
    vocabulary = prompt_vocabulary(task.prompt)
    by = ", ".join(f"{name} -> `{tool}`" for name, tool in confident.items())
    return Diagnostic(
        code="findability/distractor-retrieves",
        severity="info",
        message=f"Distractor {task.id} (no tool should answer) retrieves confidently: {by}",
        tools=tools,
        detail={"task": task.id, "words": list(vocabulary.values())},
        hint="A deferring host would load these tools for an off-topic request; say in their "
        "descriptions what they do not cover.",
    )


def _never_found_finding(name: str, retrievers: Sequence[str], top_k: int) -> Diagnostic:
    return Diagnostic(
        code="findability/never-found",
        severity="warning",
        message=f"`{name}` is never in the top {top_k} for its own prompts under "
        + ", ".join(
            f"{r} (k {search_k(r, top_k)})" if search_k(r, top_k) != top_k else r
            for r in retrievers
        )
        + ": a deferring host would not load it",
        tool=name,
        hint="See the findability/missed findings for the words its text lacks.",
    )


def _found_at(ranks: Sequence[int | None]) -> dict[str, float]:
    return {
        f"at{k}": round(sum(1 for rank in ranks if rank is not None and rank <= k) / len(ranks), 6)
        for k in FINDABILITY_KS
    }


def _within(rank: int | None, k: int) -> bool:
    return rank is not None and rank <= k


def _summaries(
    rows: Sequence[tuple[TaskSpec, Mapping[str, int | None]]], names: Sequence[str]
) -> list[SearchSummary]:
    """Per search: found within its host's k, the found@k curve, and exact-name recall."""
    from whichtool_tui.discovery.profiles import profile_named

    exact = [
        (task, ranks) for task, ranks in rows if names_in_text(task.prompt, [task.expected or ""])
    ]
    summaries: list[SearchSummary] = []
    for name in names:
        k = profile_named(name).top_k
        ranks = [row[name] for _, row in rows]
        exact_missed = [task.id for task, row in exact if not _within(row[name], 1)]
        summaries.append(
            SearchSummary(
                retriever=name,
                k=k,
                found_at_k=round(sum(_within(r, k) for r in ranks) / len(ranks), 6),
                curve=[round(sum(_within(r, c) for r in ranks) / len(ranks), 6) for c in CURVE_KS],
                missed=[task.id for task, row in rows if not _within(row[name], k)],
                exact_name_tasks=len(exact),
                exact_name_at1=(
                    round((len(exact) - len(exact_missed)) / len(exact), 6) if exact else None
                ),
                exact_name_missed=exact_missed,
            )
        )
    return summaries


def assess_findability(
    documents: Sequence[ToolDocument],
    tasks: Sequence[TaskSpec],
    retrievers: Sequence[Retriever],
    deferral: DeferralSection,
    *,
    task_source: str,
    top_k: int = DEFAULT_K,
    min_similarity: float | None = None,
    skipped: Mapping[str, str] | None = None,
    semantic_overlap: list[SemanticOverlap] | None = None,
) -> FindabilitySection:
    """Run every search for every task prompt and gather ranks, per-tool rates and findings."""
    by_name = {document.name: document for document in documents}
    names = [retriever.name for retriever in retrievers]
    task_rows: list[TaskFindability] = []
    distractors: list[DistractorRetrieval] = []
    findings: list[Diagnostic] = []
    ranks_by_tool: dict[str, dict[str, list[int | None]]] = {}
    own_tasks: dict[str, list[TaskSpec]] = {}
    ranked: list[tuple[TaskSpec, dict[str, int | None]]] = []
    frequency = prompt_frequency(task.prompt for task in tasks)
    for task in tasks:
        if task.expected is not None and task.expected not in by_name:
            continue  # tasks lint reports an expected tool the surface lacks
        rankings = {retriever.name: retriever.search(task.prompt) for retriever in retrievers}
        if task.expected is None:
            confident = [name for name, ranking in rankings.items() if ranking.confident]
            distractors.append(
                DistractorRetrieval(
                    id=task.id,
                    top={n: (r.hits[0].name if r.hits else None) for n, r in rankings.items()},
                    confident=confident,
                )
            )
            if confident:
                findings.append(_distractor_finding(task, rankings))
            continue
        document = by_name[task.expected]
        ranks = {name: ranking.rank_of(task.expected) for name, ranking in rankings.items()}
        ranked.append((task, ranks))
        task_rows.append(
            TaskFindability(
                id=task.id,
                expected=task.expected,
                ranks=ranks,
                top={name: list(ranking.top(TOP_SHOWN)) for name, ranking in rankings.items()},
            )
        )
        tool_ranks = ranks_by_tool.setdefault(task.expected, {name: [] for name in names})
        for name, rank in ranks.items():
            tool_ranks[name].append(rank)
        own_tasks.setdefault(task.expected, []).append(task)
        for finding in (
            _missed_finding(task, document, rankings, top_k, frequency),
            _first_sentence_finding(task, document),
        ):
            if finding is not None:
                findings.append(finding)
    tool_rows: list[ToolFindability] = []
    never_found: dict[str, list[str]] = {name: [] for name in names}
    for document in sorted(documents, key=lambda doc: doc.served_index):
        if document.name not in ranks_by_tool:
            continue
        per_tool = ranks_by_tool[document.name]
        missing = [
            name
            for name, ranks in per_tool.items()
            if all(rank is None or rank > search_k(name, top_k) for rank in ranks)
        ]
        for name in missing:
            never_found[name].append(document.name)
        tool_rows.append(
            ToolFindability(
                name=document.name,
                tasks=len(own_tasks[document.name]),
                found_at={name: _found_at(ranks) for name, ranks in per_tool.items()},
                never_found_by=missing,
            )
        )
        if missing:
            findings.append(_never_found_finding(document.name, missing, top_k))
        name_finding = _name_finding(document, own_tasks[document.name])
        if name_finding is not None:
            findings.append(name_finding)
    findings.extend(deferral_findings(deferral))
    return FindabilitySection(
        task_source=task_source,
        retrievers=names,
        methods={name: method_of(name) for name in names},
        ks=list(FINDABILITY_KS),
        top_k=top_k,
        min_similarity=min_similarity,
        skipped_retrievers=dict(skipped or {}),
        tasks=task_rows,
        distractors=distractors,
        tools=tool_rows,
        never_found=never_found,
        deferral=deferral,
        semantic_overlap=semantic_overlap,
        curve_ks=list(CURVE_KS),
        summary=_summaries(ranked, names) if ranked else [],
        findings=sort_diagnostics(findings),
    )

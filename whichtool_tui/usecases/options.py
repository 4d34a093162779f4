"""The one options merge: a face's own values over the config (Settings) over the defaults.

Every face builds an overrides object whose unset fields are None and calls the merge: the CLI
from its flags (``from_namespace``), the MCP server from the agent's arguments and the operator's
flags, the TUI from its form. Defaults and ceilings come from ``whichtool_tui/limits.py`` only.

How to add an option (say a run's ``--timeout``):

1. Put its default (and any ceiling) in ``limits.py``.
2. Add the field to what the engine takes (``RunOptions`` in ``evaluation/engine.py``, or the
   provider choice below) and, if a config may set it, to the config section in ``config.py``.
3. Add one line to the overrides class here, naming its config key and default::

       timeout: float | None = option("trials.timeout", limits.DEFAULT_TRIAL_TIMEOUT)

   The field name is the flag's argparse ``dest`` and the agent argument's Python name, so the
   CLI (``from_namespace``), the TUI form and the MCP server pick it up with no other change.
4. Declare the flag in ``commands/<command>.py`` (bounds from ``limits``); for agents, add the
   field to ``server/arguments.py`` (its JSON Schema is generated from the model).
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, TypeVar

from whichtool_tui import limits
from whichtool_tui.provenance import FaceSource, Source

if TYPE_CHECKING:
    from whichtool_tui.config import RuleSetting, Settings
    from whichtool_tui.discovery.options import DiscoveryOptions
    from whichtool_tui.evaluation.engine import RunOptions

OverridesT = TypeVar("OverridesT")


def option(config: str | None, default: Any, into: str | None = None) -> Any:
    """A field of an overrides class: None (not given), its config key and its default.

    ``config`` is a dotted path into Settings by Python attribute names (``trials.repeat``);
    ``into`` names the nested options object the value belongs to (``thresholds``).
    """
    return field(default=None, metadata={"config": config, "default": default, "into": into})


@dataclass(frozen=True)
class RunOverrides:
    """A face's values for a routing run; None means "not given here"."""

    repeat: int | None = option("trials.repeat", limits.DEFAULT_REPEAT)
    seed: int | None = option("trials.seed", limits.DEFAULT_SEED)
    permute: bool | None = option("trials.permute", limits.DEFAULT_PERMUTE)
    only: tuple[str, ...] | None = option(None, ())
    skip: tuple[str, ...] | None = option(None, ())
    concurrency: int | None = option("trials.concurrency", limits.DEFAULT_CONCURRENCY)
    temperature: float | None = option("trials.temperature", limits.DEFAULT_TEMPERATURE)
    reasoning_effort: str | None = option("trials.reasoning_effort", None)
    max_trials: int | None = option("trials.max_trials", limits.DEFAULT_MAX_TRIALS)
    max_tools: int | None = option("trials.max_tools", limits.DEFAULT_MAX_TOOLS)
    seconds_per_trial: float | None = option(None, None)
    timeout: float | None = option("trials.timeout", limits.DEFAULT_REQUEST_TIMEOUT_SECONDS)
    max_output_tokens: int | None = option(
        "trials.max_output_tokens", limits.DEFAULT_MAX_OUTPUT_TOKENS
    )
    detect: float | None = option(None, limits.DEFAULT_DETECT)
    baseline: str | None = option(None, None)
    max_accuracy_drop: float | None = option(None, None)
    min_accuracy: float | None = option("thresholds.min_accuracy", None, into="thresholds")
    max_over_trigger: float | None = option("thresholds.max_over_trigger", None, "thresholds")
    max_context_tokens: int | None = option("thresholds.max_context_tokens", None, "thresholds")
    max_error_rate: float | None = option(
        "thresholds.max_error_rate", limits.DEFAULT_MAX_ERROR_RATE, "thresholds"
    )
    min_scored: int | None = option(
        "thresholds.min_scored", limits.DEFAULT_MIN_SCORED, "thresholds"
    )


@dataclass(frozen=True)
class InspectOverrides:
    """A face's values for a static review; None means "not given here"."""

    max_tools: int | None = option("trials.max_tools", limits.DEFAULT_MAX_TOOLS)
    max_context_tokens: int | None = option("thresholds.max_context_tokens", None)
    provider: str | None = option("provider.name", None)


@dataclass(frozen=True)
class FindabilityOverrides:
    """A face's values for a findability review (``inspect --tasks``); None means not given.

    No config fallback: the config's ``tasks`` is the run's task set, and a review of every
    inspect would be a surprise.
    """

    tasks: str | None = option(None, None)
    retriever: tuple[str, ...] | None = option(None, ())
    min_similarity: float | None = option(None, limits.DEFAULT_MIN_SIMILARITY)


@dataclass(frozen=True)
class HostOverrides:
    """A face's values for the host compatibility review (``inspect --host``); None: not given."""

    host: tuple[str, ...] | None = option("inspect.hosts", ())
    require_host: tuple[str, ...] | None = option("inspect.require_hosts", ())
    host_server_name: str | None = option("inspect.host_server_name", None)
    host_fix_out: str | None = option(None, None)


@dataclass(frozen=True)
class HostOptions:
    """The merged host review: which hosts to check, which must pass, and the patch path."""

    hosts: tuple[str, ...]
    required: tuple[str, ...]
    server_name: str | None
    fix_out: str | None

    @property
    def wanted(self) -> bool:
        """True when any host is to be checked."""
        return bool(self.hosts or self.required)


def merge_host_options(overrides: HostOverrides, settings: Settings) -> HostOptions:
    """Hosts to check are those named plus those required; a patch needs at least one."""
    from whichtool_tui.errors import WhichtoolError

    values = merged_values(overrides, settings)
    required = tuple(values["require_host"])
    hosts = tuple(dict.fromkeys((*values["host"], *required)))
    if values["host_fix_out"] and not hosts:
        raise WhichtoolError(
            "cli/needs-host",
            "--host-fix-out needs --host or --require-host",
            "Name the hosts the patch should make the surface fit, e.g. --host anthropic.",
        )
    return HostOptions(hosts, required, values["host_server_name"], values["host_fix_out"])


@dataclass(frozen=True)
class DiscoveryOverrides:
    """A face's values for how a run discovers tools; None means "not given here"."""

    discovery: str | None = option(None, "upfront")
    discovery_variant: str | None = option(None, "search")
    retriever: str | None = option(None, "bm25")
    top_k: int | None = option(None, limits.DEFAULT_DISCOVERY_TOP_K)
    compare_upfront: bool | None = option(None, True)
    min_similarity: float | None = option(None, limits.DEFAULT_MIN_SIMILARITY)


def merge_discovery_options(
    overrides: DiscoveryOverrides, settings: Settings
) -> DiscoveryOptions | None:
    """The deferred-discovery settings, or None for an upfront run; settings that only apply
    to deferred discovery are refused on an upfront one, and semantic without its extra."""
    from whichtool_tui.discovery.options import DiscoveryOptions
    from whichtool_tui.errors import WhichtoolError

    values = merged_values(overrides, settings)
    if values["discovery"] != "deferred":
        stray = [
            spec.name
            for spec in fields(overrides)
            if spec.name not in ("discovery", "min_similarity")
            and getattr(overrides, spec.name) is not None
        ]
        if stray:
            flag = "--" + stray[0].replace("_", "-")
            raise WhichtoolError(
                "cli/needs-deferred-discovery",
                f"{flag} applies to deferred discovery only",
                "Add --discovery deferred, or drop the flag.",
            )
        return None
    from whichtool_tui.discovery.review import check_retriever_names

    if len(check_retriever_names([values["retriever"]])) != 1:  # semantic needs its extra
        raise WhichtoolError(
            "discovery/one-retriever",
            "A deferred run answers with one search; `hosts` names several",
            "Pass one --retriever (e.g. codex), or review them all with inspect --tasks.",
        )
    return DiscoveryOptions(
        variant=values["discovery_variant"],
        retriever=values["retriever"],
        top_k=int(values["top_k"]),
        compare_upfront=bool(values["compare_upfront"]),
        min_similarity=float(values["min_similarity"]),
    )


@dataclass(frozen=True)
class ProviderOverrides:
    """A face's choice of model back-end; None means "not given here"."""

    provider: str | None = option("provider.name", None)
    model: str | None = option("provider.model", None)
    # No config fallback here: the config's baseUrl belongs to the provider it was written
    # beside, which ``merge_provider`` applies.
    base_url: str | None = option(None, None)


@dataclass(frozen=True)
class InspectOptions:
    """What a static review runs under, merged; ``sources`` says where each value came from
    (keyed by ``InspectOverrides``' field names), and is not compared."""

    max_tools: int
    max_context_tokens: int | None
    approximates: str | None  # the provider the token estimate is labelled with
    rules: Mapping[str, RuleSetting]
    sources: Mapping[str, Source] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class ProviderChoice:
    """Which provider, model and base URL a run or a draft uses, merged (never a key).

    ``base_url`` is None when the provider's preset URL applies (``base_url_source`` "preset").
    ``base_url_source`` is what the key rule reads: a config's or an agent's URL cannot take a
    vendor key anywhere but its vendor; a typed one (flag, edited form field) can.
    """

    name: str | None
    model: str | None
    base_url: str | None
    base_url_source: Source = "preset"


def _configured(settings: Settings, path: str | None) -> Any:
    """The config's value at a dotted path, or None where any step is unset."""
    if path is None:
        return None
    value: Any = settings
    for step in path.split("."):
        value = getattr(value, step, None)
        if value is None:
            return None
    return value


def merged_values(overrides: Any, settings: Settings) -> dict[str, Any]:
    """Field by field: the face's value, else the config's, else the default (from limits)."""
    values: dict[str, Any] = {}
    for spec in fields(overrides):
        given = getattr(overrides, spec.name)
        if given is None:
            given = _configured(settings, spec.metadata["config"])
        values[spec.name] = spec.metadata["default"] if given is None else given
    return values


def merged_sources(
    overrides: Any,
    settings: Settings,
    face: FaceSource,
    given: Mapping[str, Source] | None = None,
) -> dict[str, Source]:
    """Field by field, where ``merged_values`` took each value from: the face, the config or
    the default (the same order, so the two can never disagree).

    ``given`` names the source of a given value that is not the face's own: the MCP server
    hands the operator's budgets (merged from its flags and config at start-up) in with the
    agent's arguments, and they stay the operator's.
    """
    sources: dict[str, Source] = {}
    for spec in fields(overrides):
        if getattr(overrides, spec.name) is not None:
            sources[spec.name] = (given or {}).get(spec.name, face)
        elif _configured(settings, spec.metadata["config"]) is not None:
            sources[spec.name] = "config"
        else:
            sources[spec.name] = "default"
    return sources


def from_namespace(kind: type[OverridesT], args: argparse.Namespace) -> OverridesT:
    """An overrides object from parsed flags: each field reads the flag with the same dest."""
    given: dict[str, Any] = {}
    for spec in fields(kind):  # type: ignore[arg-type]
        value = getattr(args, spec.name, None)
        if isinstance(value, list):
            value = tuple(value)
        given[spec.name] = value
    return kind(**given)


def from_mapping(kind: type[OverridesT], values: Mapping[str, Any]) -> OverridesT:
    """An overrides object from a mapping of field names (agent arguments, TUI form values)."""
    names = {spec.name for spec in fields(kind)}  # type: ignore[arg-type]
    return kind(**{name: value for name, value in values.items() if name in names})


def merge_run_options(
    overrides: RunOverrides,
    settings: Settings,
    provider: str | None = None,
    *,
    face: FaceSource,
    given: Mapping[str, Source] | None = None,
) -> RunOptions:
    """The options a run uses, whichever face asked for it, each value with its source
    (``face`` for the face's own values; see ``merged_sources``).

    With an offline ``provider`` (keyword, embedding, mock) nothing is spent, so a tool limit
    neither given nor configured is the absolute maximum (1,000), not the paid default of 6
    (still a ``default``).
    """
    from whichtool_tui.evaluation.engine import RunOptions
    from whichtool_tui.evaluation.thresholds import ThresholdSettings
    from whichtool_tui.providers.presets import OFFLINE_PROVIDERS

    values = merged_values(overrides, settings)
    unset = overrides.max_tools is None and _configured(settings, "trials.max_tools") is None
    if provider in OFFLINE_PROVIDERS and unset:
        values["max_tools"] = limits.ABSOLUTE_MAX_TOOLS
    nested: dict[str, dict[str, Any]] = {"thresholds": {}}
    top: dict[str, Any] = {}
    for spec in fields(overrides):
        into = spec.metadata["into"]
        (nested[into] if into else top)[spec.name] = values[spec.name]
    top["only"] = tuple(top["only"])
    top["skip"] = tuple(top["skip"])
    sources = merged_sources(overrides, settings, face, given)
    thresholds = ThresholdSettings(**nested["thresholds"])
    return RunOptions(**top, thresholds=thresholds, sources=sources)


def with_overrides(options: RunOptions, overrides: RunOverrides, face: FaceSource) -> RunOptions:
    """Already merged options with a later face's given values on top (a screen's fields, a
    confirmed raise of the limits); those values take ``face`` as their source, the rest keep
    theirs."""
    from whichtool_tui.evaluation.thresholds import ThresholdSettings

    top: dict[str, Any] = {}
    gates: dict[str, Any] = {}
    for spec in fields(overrides):
        value = getattr(overrides, spec.name)
        if value is not None:
            (gates if spec.metadata["into"] else top)[spec.name] = value
    thresholds: ThresholdSettings = dataclasses.replace(options.thresholds, **gates)
    sources = {**options.sources, **dict.fromkeys((*top, *gates), face)}
    return dataclasses.replace(options, **top, thresholds=thresholds, sources=sources)


def merge_inspect_options(
    overrides: InspectOverrides,
    settings: Settings,
    *,
    face: FaceSource,
    given: Mapping[str, Source] | None = None,
) -> InspectOptions:
    """The options a static review uses, whichever face asked for it, with their sources."""
    values = merged_values(overrides, settings)
    return InspectOptions(
        max_tools=int(values["max_tools"]),
        max_context_tokens=values["max_context_tokens"],
        approximates=values["provider"],
        rules=settings.inspect.rules,
        sources=merged_sources(overrides, settings, face, given),
    )


def config_key(name: str, kind: type[Any] = RunOverrides) -> str | None:
    """The key a config file sets an overrides field with (``trials.maxTrials``), or None.

    The config's keys are the camelCase of its attribute names (``config.py`` aliases them
    so; a unit test holds every option's key to it).
    """
    path = next(spec.metadata["config"] for spec in fields(kind) if spec.name == name)
    if path is None:
        return None
    return ".".join(_camel(step) for step in path.split("."))


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def from_config(options: RunOptions, skip: Collection[str] = ()) -> list[str]:
    """The values a config file decided, as ``trials.repeat 3`` (a plan's "from config" line;
    ``skip`` leaves out those a plan already marks in place)."""
    said: list[str] = []
    for spec in fields(RunOverrides):
        if options.sources.get(spec.name) != "config" or spec.name in skip:
            continue
        into = spec.metadata["into"]
        value = getattr(getattr(options, into) if into else options, spec.name)
        said.append(f"{config_key(spec.name)} {_shown(value)}")
    return said


def _shown(value: Any) -> str:
    """A config value as the file spells it: ``true``, ``0.8``, ``3``, ``a, b``."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, tuple):
        return ", ".join(map(str, value))
    return str(value)


def shown_sources(sources: Mapping[str, Source]) -> dict[str, Source]:
    """The sources a JSON plan carries, by camelCase name: every value not left at its
    default (an absent name is a default)."""
    return {_camel(name): source for name, source in sources.items() if source != "default"}


def merge_provider(
    overrides: ProviderOverrides, settings: Settings, face: FaceSource
) -> ProviderChoice:
    """The provider a run, a draft, a re-run or a seat uses, whichever face asked for it.

    ``face`` is the source of the face's own values (``flag`` for the CLI, ``form`` for a TUI
    field the user edited, ``agent`` for MCP arguments). The config's ``baseUrl`` applies only
    to the provider it was written beside and keeps its ``config`` source, so the key rule
    still sees that a file, not a person, chose it.
    """
    values = merged_values(overrides, settings)
    sources = merged_sources(overrides, settings, face)
    name = values["provider"]
    url: str | None
    url_source: Source
    configured = settings.provider
    if values["base_url"]:
        url, url_source = values["base_url"], sources["base_url"]
    elif configured is not None and configured.base_url and configured.name == name:
        url, url_source = configured.base_url, "config"
    else:
        url, url_source = None, "preset"
    return ProviderChoice(name, values["model"], url, url_source)

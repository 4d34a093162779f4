"""``whichtool.config.json`` / ``.yaml``: discovery, strict validation, one Settings object.

Precedence is flag > config > built-in default; callers apply flags over what this returns.
API keys are never config fields: they come from the environment only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, PrivateAttr, ValidationError, field_validator

from whichtool_tui import limits
from whichtool_tui.bounded_read import parse_json_text, read_input_text
from whichtool_tui.config_files import CONFIG_FILE_NAMES as CONFIG_FILE_NAMES
from whichtool_tui.config_files import discover_config
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.limits import (
    ABSOLUTE_MAX_TOOLS,
    ABSOLUTE_MAX_TRIALS,
    MAX_OUTPUT_TOKENS,
    MAX_REQUEST_TIMEOUT_SECONDS,
    MAX_SAFE_INTEGER,
)
from whichtool_tui.redact import redact_paths
from whichtool_tui.strict_model import StrictModel
from whichtool_tui.surface.rule_settings import RuleLevel as RuleLevel
from whichtool_tui.surface.rule_settings import RuleOverride as RuleOverride
from whichtool_tui.surface.rule_settings import RuleSetting as RuleSetting

_Strict = StrictModel


class SnapshotTarget(_Strict):
    """A saved ``tools/list`` file."""

    transport: Literal["snapshot"]
    path: Annotated[str, Field(min_length=1)]


class HttpTarget(_Strict):
    """A Streamable HTTP or legacy SSE endpoint."""

    transport: Literal["http", "legacy-sse", "sse"]
    url: Annotated[str, Field(min_length=1)]
    headers: dict[str, str] | None = None


class StdioTarget(_Strict):
    """A server started as a child process speaking MCP on stdio."""

    transport: Literal["stdio"]
    command: Annotated[str, Field(min_length=1)]
    args: list[str] | None = None
    env: dict[str, str] | None = None
    cwd: str | None = None


TargetConfig = Annotated[
    SnapshotTarget | HttpTarget | StdioTarget, Field(discriminator="transport")
]


class ProviderConfig(_Strict):
    """Which model back-end a run or a generate uses (never its key)."""

    name: Annotated[str, Field(min_length=1)]
    model: str | None = None
    base_url: str | None = Field(default=None, alias="baseUrl")


class TrialsConfig(_Strict):
    """Defaults for the routing run; every field can be overridden by a flag."""

    repeat: Annotated[int, Field(ge=limits.MIN_REPEAT, le=limits.MAX_REPEAT)] | None = None
    max_trials: Annotated[int, Field(ge=1, le=ABSOLUTE_MAX_TRIALS)] | None = Field(
        default=None, alias="maxTrials"
    )
    max_tools: Annotated[int, Field(ge=1, le=ABSOLUTE_MAX_TOOLS)] | None = Field(
        default=None, alias="maxTools"
    )
    permute: bool | None = None
    temperature: (
        Annotated[
            float,
            Field(ge=limits.MIN_TEMPERATURE, le=limits.MAX_TEMPERATURE, allow_inf_nan=False),
        ]
        | None
    ) = None
    concurrency: (
        Annotated[int, Field(ge=limits.MIN_CONCURRENCY, le=limits.MAX_CONCURRENCY)] | None
    ) = None
    seed: Annotated[int, Field(ge=-MAX_SAFE_INTEGER, le=MAX_SAFE_INTEGER)] | None = None
    reasoning_effort: str | None = Field(default=None, alias="reasoningEffort")
    timeout: (
        Annotated[float, Field(gt=0, le=MAX_REQUEST_TIMEOUT_SECONDS, allow_inf_nan=False)] | None
    ) = None
    max_output_tokens: Annotated[int, Field(ge=1, le=MAX_OUTPUT_TOKENS)] | None = Field(
        default=None, alias="maxOutputTokens"
    )


_Rate = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]


class ThresholdsConfig(_Strict):
    """Quality gates: a failed one makes the command exit 1."""

    min_accuracy: _Rate | None = Field(default=None, alias="minAccuracy")
    max_over_trigger: _Rate | None = Field(default=None, alias="maxOverTrigger")
    max_error_rate: _Rate | None = Field(default=None, alias="maxErrorRate")
    max_context_tokens: Annotated[int, Field(ge=0)] | None = Field(
        default=None, alias="maxContextTokens"
    )
    min_scored: Annotated[int, Field(ge=1)] | None = Field(default=None, alias="minScored")


class ReportConfig(_Strict):
    """Extra report files written beside the main output."""

    formats: list[Literal["terminal", "json", "markdown", "html", "junit", "badge"]] | None = None
    out: str | None = None


class InspectConfig(_Strict):
    """Per-rule settings for inspect, keyed by finding code (see the rule catalog)."""

    rules: dict[str, RuleSetting] = Field(default_factory=dict)
    # Host compatibility (docs/hosts.md): profiles to check, and those that must pass.
    hosts: list[str] | None = None
    require_hosts: list[str] | None = Field(default=None, alias="requireHosts")
    host_server_name: Annotated[str, Field(min_length=1)] | None = Field(
        default=None, alias="hostServerName"
    )

    @field_validator("hosts", "require_hosts")
    @classmethod
    def _known_hosts(cls, names: list[str] | None) -> list[str] | None:
        from whichtool_tui.hosts.registry import ALL, host_names

        for name in names or []:
            if name != ALL and name not in host_names():
                raise ValueError(f"unknown host `{name}` (known: {', '.join(host_names())}, all)")
        return names

    @field_validator("rules", mode="before")
    @classmethod
    def _known_codes(cls, rules: Any) -> Any:
        from whichtool_tui.surface.rule_catalog import RULES, SETTING_CHOICES

        if not isinstance(rules, dict):
            raise ValueError("expected a mapping of rule codes to settings")
        for code, setting in rules.items():
            rule = RULES.get(code)
            if rule is None:
                raise ValueError(f"unknown rule code `{code}`")
            if not rule.configurable:
                raise ValueError(f"rule `{code}` cannot be configured")
            if isinstance(setting, str) and setting in SETTING_CHOICES:
                continue
            if isinstance(setting, dict):
                try:
                    RuleOverride.model_validate(setting)
                except ValidationError as exc:
                    raise ValueError(f"`{code}`: {_describe_validation_error(exc)}") from None
                continue
            raise ValueError(
                f"`{code}`: use off, error, warning, info or {{severity, ignoreTools}}"
            )
        return rules


class Settings(_Strict):
    """Everything a config file may say; empty when there is no config file."""

    target: TargetConfig | None = None
    tasks: Annotated[str, Field(min_length=1)] | None = None
    provider: ProviderConfig | None = None
    trials: TrialsConfig = TrialsConfig()
    thresholds: ThresholdsConfig = ThresholdsConfig()
    report: ReportConfig = ReportConfig()
    inspect: InspectConfig = InspectConfig()
    _source: str | None = PrivateAttr(default=None)

    @property
    def source(self) -> str | None:
        """Where these settings came from (a redacted path), or None for built-in defaults."""
        return self._source


def _describe_validation_error(exc: ValidationError) -> str:
    first = exc.errors()[0]
    parts = [str(part) for part in first["loc"]]
    if (
        len(parts) > 1
        and parts[0] == "target"
        and parts[1] in ("snapshot", "http", "stdio", "legacy-sse", "sse")
    ):
        del parts[1]
    location = ".".join(parts)
    if first["type"] == "extra_forbidden":
        return f"`{location}` is not a recognised option"
    message = str(first["msg"]).removeprefix("Value error, ")
    return f"`{location}`: {message}" if location else message


def parse_config(raw: Any, source: str) -> Settings:
    """Validate parsed config data; unknown keys and out-of-range values are errors."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise WhichtoolError(
            "config/invalid", f"{source}: the config must be a mapping of options", None
        )
    try:
        settings = Settings.model_validate(raw)
    except ValidationError as exc:
        raise WhichtoolError(
            "config/invalid",
            f"{source}: {_describe_validation_error(exc)}",
            "Keys: target, tasks, provider, trials, thresholds, report, inspect. API keys belong "
            "in the environment, never in the config.",
        ) from None
    settings._source = source
    return settings


def load_settings(explicit: str | None = None, cwd: Path | None = None) -> Settings:
    """Load ``--config`` if given, else the discovered config in ``cwd``, else empty Settings."""
    folder = cwd or Path.cwd()
    if explicit is not None:
        path = Path(explicit)
        if not path.exists():  # a folder, FIFO or device is refused by the bounded reader
            raise WhichtoolError(
                "config/not-found",
                f"Config file not found: {redact_paths(str(path))}",
                "Pass an existing .json or .yaml file to --config.",
            )
    else:
        found = discover_config(folder)
        if found is None:
            return Settings()
        path = found
    shown = redact_paths(str(path))
    if path.suffix.lower() not in (".json", ".yaml", ".yml"):
        raise WhichtoolError(
            "config/unsupported-format",
            f"{shown}: config files must be .json, .yaml or .yml",
            "Executable configs are not supported; write the same keys as JSON or YAML.",
        )
    text = read_input_text(path, prefix="config", what="config file", code="config/unreadable")
    if path.suffix.lower() == ".json":
        raw = parse_json_text(text, shown, prefix="config")
    else:
        from whichtool_tui.strict_yaml import load_strict_yaml

        raw = load_strict_yaml(text, shown, "config/invalid-yaml")
    return parse_config(raw, shown)

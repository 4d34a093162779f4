"""GitHub code scanning's ingestion rules for SARIF, as checks over a parsed log.

These follow the rules of the Microsoft SARIF multitool's GitHub rule set (`--rule-kinds Ghas`):
GH1001-GH1007, GH1011, GH1013-GH1018 and GH2012, each written here from its documented
behaviour. A check returns one problem per violation, as (rule id, JSON pointer, what is wrong);
an empty list means GitHub would ingest the log and display every result.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

Problem = tuple[str, str, str]
FINAL_SCHEMA_ENDINGS = ("2.1.0", "2.1.0.json", "2.1.0-rtm.6", "2.1.0-rtm.6.json")
# GH1004: what code scanning displays by default, per array.
ARRAY_LIMITS = {"runs": 5, "rules": 1000, "results": 1000, "locations": 10, "codeFlows": 100}
MAX_RUNS = 20  # GH1013


def _runs(log: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for index, run in enumerate(log.get("runs") or []):
        yield f"/runs/{index}", run


def _results(log: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    for run_pointer, run in _runs(log):
        for index, result in enumerate(run.get("results") or []):
            yield f"{run_pointer}/results/{index}", result, run


def _locations(result: dict[str, Any], pointer: str) -> Iterator[tuple[str, dict[str, Any]]]:
    for key in ("locations", "relatedLocations"):
        for index, location in enumerate(result.get(key) or []):
            yield f"{pointer}/{key}/{index}", location


def gh1001_location_uri(log: dict[str, Any]) -> list[Problem]:
    """Every result has a location with ``physicalLocation.artifactLocation.uri``."""
    found: list[Problem] = []
    for pointer, result, _ in _results(log):
        if "locations" not in result:
            found.append(("GH1001", pointer, "no 'locations' array"))
            continue
        if not result["locations"]:
            found.append(("GH1001", f"{pointer}/locations", "the 'locations' array is empty"))
        for where, location in _locations(result, pointer):
            physical = location.get("physicalLocation")
            if physical is None:
                found.append(("GH1001", where, "no 'physicalLocation'"))
            elif physical.get("artifactLocation") is None:
                found.append(("GH1001", where, "no 'artifactLocation'"))
            elif not physical["artifactLocation"].get("uri"):
                found.append(("GH1001", where, "no artifact 'uri'"))
    return found


def gh1002_inline_thread_flow_locations(log: dict[str, Any]) -> list[Problem]:
    """A thread flow location is written inline, never by ``index`` into the run's table."""
    found: list[Problem] = []
    for pointer, result, _ in _results(log):
        for c, flow in enumerate(result.get("codeFlows") or []):
            for t, thread in enumerate(flow.get("threadFlows") or []):
                for n, step in enumerate(thread.get("locations") or []):
                    if isinstance(step.get("index"), int) and step["index"] >= 0:
                        where = f"{pointer}/codeFlows/{c}/threadFlows/{t}/locations/{n}"
                        found.append(("GH1002", where, "refers to run.threadFlowLocations"))
    return found


def gh1003_region_start_line(log: dict[str, Any]) -> list[Problem]:
    """Every physical location of a result has a region with a ``startLine``."""
    found: list[Problem] = []
    for pointer, result, _ in _results(log):
        for index, location in enumerate(result.get("locations") or []):
            physical = location.get("physicalLocation")
            if physical is None:
                continue  # GH1001's business
            where = f"{pointer}/locations/{index}/physicalLocation"
            region = physical.get("region")
            if region is None:
                found.append(("GH1003", where, "no 'region'"))
            elif not isinstance(region.get("startLine"), int) or region["startLine"] < 1:
                found.append(("GH1003", f"{where}/region", "no 'startLine'"))
    return found


def gh1004_array_limits(log: dict[str, Any]) -> list[Problem]:
    """No array is longer than what code scanning shows by default."""
    found: list[Problem] = []

    def check(items: Any, limit_key: str, pointer: str) -> None:
        if isinstance(items, list) and len(items) > ARRAY_LIMITS[limit_key]:
            found.append(("GH1004", pointer, f"{len(items)} > {ARRAY_LIMITS[limit_key]}"))

    check(log.get("runs"), "runs", "/runs")
    for pointer, run in _runs(log):
        rules = ((run.get("tool") or {}).get("driver") or {}).get("rules")
        check(rules, "rules", f"{pointer}/tool/driver/rules")
        check(run.get("results"), "results", f"{pointer}/results")
    for pointer, result, _ in _results(log):
        check(result.get("locations"), "locations", f"{pointer}/locations")
        check(result.get("codeFlows"), "codeFlows", f"{pointer}/codeFlows")
    return found


def _working_directories(run: dict[str, Any]) -> list[str]:
    return [
        str(invocation["workingDirectory"]["uri"])
        for invocation in run.get("invocations") or []
        if (invocation.get("workingDirectory") or {}).get("uri")
    ]


def gh1005_relative_or_file_uris(log: dict[str, Any]) -> list[Problem]:
    """Artifact URIs are relative references or ``file:`` URIs (or under a working directory)."""
    found: list[Problem] = []
    for pointer, result, run in _results(log):
        roots = _working_directories(run)
        for where, location in _locations(result, pointer):
            uri = ((location.get("physicalLocation") or {}).get("artifactLocation") or {}).get(
                "uri"
            )
            if not uri:
                continue
            scheme = urlsplit(uri).scheme
            if scheme and scheme != "file" and not any(uri.startswith(r) for r in roots):
                found.append(("GH1005", where, f"{uri!r} is not a file path"))
    return found


def gh1006_checkout_path(log: dict[str, Any]) -> list[Problem]:
    """An absolute ``file:`` URI needs the checkout path in ``invocations[].workingDirectory``."""
    found: list[Problem] = []
    for pointer, result, run in _results(log):
        roots = [r if r.endswith("/") else r + "/" for r in _working_directories(run)]
        for where, location in _locations(result, pointer):
            uri = ((location.get("physicalLocation") or {}).get("artifactLocation") or {}).get(
                "uri"
            )
            if uri and urlsplit(uri).scheme == "file" and not any(uri.startswith(r) for r in roots):
                found.append(("GH1006", where, "absolute file URI without a checkout path"))
    return found


def gh1007_flattened_messages(log: dict[str, Any]) -> list[Problem]:
    """Every result message carries its final ``text`` (no argument templates only)."""
    return [
        ("GH1007", f"{pointer}/message", "no 'message.text'")
        for pointer, result, _ in _results(log)
        if not (result.get("message") or {}).get("text")
    ]


def gh1011_final_schema(log: dict[str, Any]) -> list[Problem]:
    """``$schema`` names the final SARIF 2.1.0 schema."""
    schema = log.get("$schema")
    if schema is None or str(schema).endswith(FINAL_SCHEMA_ENDINGS):
        return []
    return [("GH1011", "/$schema", f"{schema!r} is not the final 2.1.0 schema")]


def gh1013_log_properties(log: dict[str, Any]) -> list[Problem]:
    """The log has ``runs`` (at most 20), a ``$schema`` and version 2.1.0."""
    if not isinstance(log.get("runs"), list):
        return [("GH1013", "", "no 'runs' array")]
    found: list[Problem] = []
    if "$schema" not in log:
        found.append(("GH1013", "", "no '$schema'"))
    if log.get("version") != "2.1.0":
        found.append(("GH1013", "", "version is not 2.1.0"))
    if len(log["runs"]) > MAX_RUNS:
        found.append(("GH1013", "", f"{len(log['runs'])} runs > {MAX_RUNS}"))
    return found


def gh1014_run_properties(log: dict[str, Any]) -> list[Problem]:
    """Every run has ``results`` and a ``tool``."""
    found: list[Problem] = []
    for pointer, run in _runs(log):
        if not isinstance(run.get("results"), list):
            found.append(("GH1014", pointer, "no 'results' array"))
        if run.get("tool") is None:
            found.append(("GH1014", pointer, "no 'tool'"))
    return found


def gh1015_result_properties(log: dict[str, Any]) -> list[Problem]:
    """Every result has message text, a non-empty ``locations`` and ``partialFingerprints``."""
    found: list[Problem] = []
    for pointer, result, _ in _results(log):
        message = result.get("message")
        if message is None:
            found.append(("GH1015", pointer, "no 'message'"))
        elif not str(message.get("text") or "").strip():
            found.append(("GH1015", f"{pointer}/message", "no message 'text'"))
        if not result.get("locations"):
            found.append(("GH1015", pointer, "no or empty 'locations'"))
        if result.get("partialFingerprints") is None:
            found.append(("GH1015", pointer, "no 'partialFingerprints'"))
    return found


def gh1016_location_properties(log: dict[str, Any]) -> list[Problem]:
    """Every location (result or related) has a ``physicalLocation``."""
    return [
        ("GH1016", where, "no 'physicalLocation'")
        for pointer, result, _ in _results(log)
        for where, location in _locations(result, pointer)
        if location.get("physicalLocation") is None
    ]


def gh1017_physical_location_properties(log: dict[str, Any]) -> list[Problem]:
    """Every physical location has an artifact and a consistent, anchored region."""
    found: list[Problem] = []
    for pointer, result, _ in _results(log):
        for where, location in _locations(result, pointer):
            physical = location.get("physicalLocation")
            if physical is None:
                continue
            where = f"{where}/physicalLocation"
            if physical.get("artifactLocation") is None:
                found.append(("GH1017", where, "no 'artifactLocation'"))
            region = physical.get("region")
            if region is None:
                found.append(("GH1017", where, "no 'region'"))
                continue
            if not any(key in region for key in ("startLine", "charOffset", "byteOffset")):
                found.append(("GH1017", f"{where}/region", "no startLine/charOffset/byteOffset"))
            start_line = region.get("startLine", 0)
            if "endLine" in region and region["endLine"] < start_line:
                found.append(("GH1017", f"{where}/region", "endLine before startLine"))
            one_line = region.get("endLine", start_line) == start_line
            backwards = region.get("endColumn", 1 << 30) < region.get("startColumn", 1)
            if one_line and backwards:
                found.append(("GH1017", f"{where}/region", "endColumn before startColumn"))
    return found


def gh1018_tool_properties(log: dict[str, Any]) -> list[Problem]:
    """Every tool has a driver with a ``name`` and a ``rules`` array."""
    found: list[Problem] = []
    for pointer, run in _runs(log):
        tool = run.get("tool")
        if tool is None:
            continue  # GH1014's business
        driver = tool.get("driver")
        if driver is None:
            found.append(("GH1018", f"{pointer}/tool", "no 'driver'"))
            continue
        if not str(driver.get("name") or "").strip():
            found.append(("GH1018", f"{pointer}/tool/driver", "no driver 'name'"))
        if not isinstance(driver.get("rules"), list):
            found.append(("GH1018", f"{pointer}/tool/driver", "no 'rules' array"))
    return found


def gh2012_rule_properties(log: dict[str, Any]) -> list[Problem]:
    """Every rule has a short and a full description and help text."""
    found: list[Problem] = []
    for pointer, run in _runs(log):
        rules = ((run.get("tool") or {}).get("driver") or {}).get("rules") or []
        for index, rule in enumerate(rules):
            where = f"{pointer}/tool/driver/rules/{index}"
            for key in ("shortDescription", "fullDescription"):
                if not str((rule.get(key) or {}).get("text") or "").strip():
                    found.append(("GH2012", where, f"no '{key}'"))
            if rule.get("help") is None:
                found.append(("GH2012", where, "no 'help'"))
            elif not str(rule["help"].get("text") or "").strip():
                found.append(("GH2012", f"{where}/help", "no help 'text'"))
    return found


CHECKS: dict[str, Callable[[dict[str, Any]], list[Problem]]] = {
    "GH1001": gh1001_location_uri,
    "GH1002": gh1002_inline_thread_flow_locations,
    "GH1003": gh1003_region_start_line,
    "GH1004": gh1004_array_limits,
    "GH1005": gh1005_relative_or_file_uris,
    "GH1006": gh1006_checkout_path,
    "GH1007": gh1007_flattened_messages,
    "GH1011": gh1011_final_schema,
    "GH1013": gh1013_log_properties,
    "GH1014": gh1014_run_properties,
    "GH1015": gh1015_result_properties,
    "GH1016": gh1016_location_properties,
    "GH1017": gh1017_physical_location_properties,
    "GH1018": gh1018_tool_properties,
    "GH2012": gh2012_rule_properties,
}


def github_problems(log: dict[str, Any]) -> list[Problem]:
    """Every GitHub ingestion problem of ``log``, in rule order."""
    return [problem for check in CHECKS.values() for problem in check(log)]

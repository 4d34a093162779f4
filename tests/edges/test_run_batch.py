"""`run --batch` against loopback servers speaking the real batch API shapes (OpenAI Files +
Batches, Anthropic Message Batches): a batch run scores like a direct run of the same answers,
re-runs send nothing twice, failed and expired lines are errored trials, batches split at the
limit, and the key goes only where the direct endpoint's requests go."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.fake_apis import fake_api_server
from tests.support.fake_batch_apis import BatchServer, fake_batch_server
from tests.support.run_project import write_project
from whichtool_tui.cli import main

pytestmark = pytest.mark.slow  # starts loopback servers

KEYS = {"OPENAI_API_KEY": "sk-batch-test-0123456789", "ANTHROPIC_API_KEY": "sk-ant-test-0123456789"}
PROVIDERS = ("openai", "openai-chat", "anthropic")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    write_project(tmp_path)
    for name, value in KEYS.items():
        monkeypatch.setenv(name, value)
    return tmp_path


def base_url(server: BatchServer, provider: str) -> str:
    return server.api.base_url if provider == "anthropic" else server.api.base_url + "/v1"


def run(server: BatchServer, provider: str, out: str, *extra: str) -> int:
    return main(
        [
            "--no-ui",
            "run",
            "surface.json",
            "--provider",
            provider,
            "--model",
            "m",
            "--base-url",
            base_url(server, provider),
            "--repeat",
            "3",
            "--format",
            "json",
            "--out",
            out,
            *extra,
        ]
    )


def batch(server: BatchServer, provider: str, out: str, *extra: str) -> int:
    return run(server, provider, out, "--batch", "--batch-poll", "0.02", *extra)


def without_latency(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in trial.items() if k != "latencyMs"} for trial in report["trials"]]


def scored_parts(report: dict[str, Any]) -> dict[str, Any]:
    """What the answers decide: every metric, statistic, trial verdict and gate."""
    return {
        key: report[key]
        for key in ("metrics", "statistics", "execution", "thresholds", "ok", "tasks")
    } | {"trials": without_latency(report)}


def load(path: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_batch_run_scores_like_a_direct_run(project: Path, provider: str) -> None:
    with fake_batch_server() as server:
        assert run(server, provider, "direct.json", "--no-cache") == 0
        sent_direct = len(server.direct_requests())
        assert sent_direct == 12
        assert batch(server, provider, "batch.json", "--cache-dir", "cache") == 0
        assert len(server.direct_requests()) == sent_direct  # nothing went to the direct endpoint
        batches = server.submitted()
    direct, batched = load("direct.json"), load("batch.json")
    assert scored_parts(batched) == scored_parts(direct)
    assert 0 < direct["metrics"]["accuracy"]["value"] < 1  # the model is not trivially right
    block = batched["batch"]
    assert block["batchIds"] == [b.id for b in batches] and len(batches) == 1
    assert block["linesSent"] == 12 and block["discount"] == 0.5
    assert block["verifiedOn"] == "2026-12-03"
    assert "batch" not in direct
    # Each line is exactly the direct request body, keyed by the trial cache key.
    direct_bodies = sorted(json.dumps(r.json, sort_keys=True) for r in server.direct_requests())
    batch_bodies = sorted(json.dumps(body, sort_keys=True) for _, body in batches[0].lines)
    assert batch_bodies == direct_bodies
    assert all(len(custom_id) == 64 for custom_id, _ in batches[0].lines)
    assert not (project / "batch.batch.json").exists()  # a finished run leaves no state


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_the_key_travels_with_batch_requests_as_with_direct_ones(
    project: Path, provider: str
) -> None:
    with fake_batch_server() as server:
        assert batch(server, provider, "batch.json", "--no-cache") == 0
        requests = list(server.api.requests)
    assert requests
    for request in requests:
        if provider == "anthropic":
            assert request.headers["x-api-key"] == KEYS["ANTHROPIC_API_KEY"]
            assert request.headers["anthropic-version"] == "2023-06-01"
        else:
            assert request.headers["authorization"] == f"Bearer {KEYS['OPENAI_API_KEY']}"
    text = Path("batch.json").read_text(encoding="utf-8")
    assert all(value not in text for value in KEYS.values())


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_rerun_sends_nothing_twice(project: Path, provider: str) -> None:
    with fake_batch_server() as server:
        assert batch(server, provider, "first.json", "--cache-dir", "cache") == 0
        before = len(server.api.requests)
        assert batch(server, provider, "second.json", "--cache-dir", "cache") == 0
        assert len(server.api.requests) == before  # every answer came from the trial cache
    first, second = load("first.json"), load("second.json")
    assert second["metrics"] == first["metrics"]
    assert second["batch"]["linesSent"] == 0 and second["batch"]["batchIds"] == []
    assert second["batch"]["answeredFromCache"] == 12


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_failed_and_expired_lines_are_errored_trials_counted_by_the_error_rate(
    project: Path, provider: str
) -> None:
    def fate(_custom_id: str, body: dict[str, Any]) -> str:
        text = json.dumps(body)
        if "Search the source" in text:
            return "error"
        return "expire" if "penguins" in text else "ok"

    with fake_batch_server(fate=fate) as server:
        code = batch(server, provider, "batch.json", "--no-cache", "--max-error-rate", "0.2")
    report = load("batch.json")
    assert code == 2  # 6 of 12 trials errored: above --max-error-rate, the run is invalid
    assert report["execution"]["ok"] is False
    errored = {t["taskId"]: t["error"]["message"] for t in report["trials"] if t.get("error")}
    assert set(errored) == {"find-foo", "joke"}
    assert "expired" in errored["joke"]
    assert ("Invalid tool schema" if provider == "openai" else "Bad tool schema") in errored[
        "find-foo"
    ]
    assert sum(1 for t in report["trials"] if t["verdict"] == "error") == 6
    assert report["batch"]["erroredLines"] == 3 and report["batch"]["expiredLines"] == 3


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_requests_above_the_per_batch_limit_are_split(
    project: Path, provider: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with fake_batch_server(max_lines=5) as server:
        # Without a lower limit the 12 lines go as one batch, which this server refuses.
        assert batch(server, provider, "refused.json", "--no-cache") == 2
        assert "above 5" in capsys.readouterr().err
        assert batch(server, provider, "split.json", "--no-cache", "--batch-max-lines", "5") == 0
        sizes = [len(b.lines) for b in server.submitted()]
    assert sizes == [5, 5, 2]
    report = load("split.json")
    assert len(report["batch"]["batchIds"]) == 3
    assert not any(t.get("error") for t in report["trials"])


def test_anthropic_results_on_another_origin_never_get_the_key(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with fake_api_server() as elsewhere:
        with fake_batch_server(results_base=elsewhere.base_url) as server:
            code = batch(server, "anthropic", "batch.json", "--no-cache")
        assert elsewhere.requests == []
    err = capsys.readouterr().err
    assert code == 2 and "nothing was sent there" in err and "Traceback" not in err
    assert not Path("batch.json").exists()


def test_batch_refusals_are_one_line_errors(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with fake_batch_server() as server:
        assert batch(server, "openai-compatible", "x.json") == 2
        assert "no batch API" in capsys.readouterr().err
        assert (
            main(
                [
                    "--no-ui",
                    "run",
                    "surface.json",
                    "--provider",
                    "openai",
                    "--model",
                    "m",
                    "--batch-detach",
                ]
            )
            == 2
        )
        assert "--batch-detach needs --out" in capsys.readouterr().err
        assert run(server, "openai", "x.json", "--batch-poll", "1") == 2
        assert "applies only with --batch" in capsys.readouterr().err
        Path("junk.batch.json").write_text("{}", encoding="utf-8")
        assert run(server, "openai", "x.json", "--resume-batch", "junk.batch.json") == 2
        err = capsys.readouterr().err
        assert "not a batch state file" in err and "Traceback" not in err
    assert server.submitted() == []


def test_the_dry_run_prices_the_batch_next_to_direct(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "--no-ui",
            "run",
            "surface.json",
            "--provider",
            "openai",
            "--model",
            "m",
            "--batch",
            "--dry-run",
            "--repeat",
            "3",
            "--batch-max-lines",
            "5",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "OpenAI Batch API: 12 requests in 3 batch(es) of at most 5" in out
    assert "direct ~2,412 prompt tokens; batch billed at 50% = the price of ~1,206" in out
    assert "verified 2026-12-03" in out


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_detached_run_resumes_to_the_attached_report(
    project: Path, provider: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with fake_batch_server() as server:
        assert batch(server, provider, "attached.json", "--no-cache") == 0
        assert batch(server, provider, "later.json", "--cache-dir", "cache", "--batch-detach") == 0
        err = capsys.readouterr().err
        assert "--resume-batch later.batch.json" in err
        assert not Path("later.json").exists()
        state = load("later.batch.json")
        assert state["schemaVersion"] == "whichtool.batch/1"
        assert len(state["requestFingerprints"]) == 12 and len(state["batches"]) == 1
        text = Path("later.batch.json").read_text(encoding="utf-8")
        assert all(value not in text for value in KEYS.values())
        submitted = len(server.submitted())
        assert main(["--no-ui", "cache", "info", "--dir", "cache"]) == 0
        info = capsys.readouterr().out
        assert "batches   1 pending" in info and "later.batch.json" in info
        assert (
            run(
                server,
                provider,
                "later.json",
                "--cache-dir",
                "cache",
                "--resume-batch",
                "later.batch.json",
                "--batch-poll",
                "0.02",
            )
            == 0
        )
        assert len(server.submitted()) == submitted  # resuming submits nothing
        capsys.readouterr()
        assert main(["--no-ui", "cache", "info", "--dir", "cache"]) == 0
        assert "batches   0 pending" in capsys.readouterr().out
    assert scored_parts(load("later.json")) == scored_parts(load("attached.json"))
    assert load("later.json")["batch"]["batchIds"] == [b["id"] for b in state["batches"]]
    assert not Path("later.batch.json").exists()


def test_resuming_under_another_plan_is_refused(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with fake_batch_server() as server:
        assert batch(server, "openai", "later.json", "--no-cache", "--batch-detach") == 0
        capsys.readouterr()
        code = run(
            server, "openai", "later.json", "--seed", "7", "--resume-batch", "later.batch.json"
        )
    err = capsys.readouterr().err
    assert code == 2 and "plan differs from the one submitted" in err
    assert len(err.strip().splitlines()) <= 3 and "Traceback" not in err


def test_a_run_killed_while_its_batch_runs_resumes_to_the_same_report(
    project: Path, cli_env: dict[str, str]
) -> None:
    import signal
    import subprocess

    from tests.support.cli import binary_path
    from tests.support.processes import wait_for

    env = cli_env | KEYS
    with fake_batch_server() as server:
        assert batch(server, "anthropic", "attached.json", "--no-cache") == 0
        server.hold.set()  # the next batch stays in progress until released
        args = [
            "--no-ui",
            "run",
            "surface.json",
            "--provider",
            "anthropic",
            "--model",
            "m",
            "--base-url",
            server.api.base_url,
            "--repeat",
            "3",
            "--no-cache",
            "--batch",
            "--batch-poll",
            "0.05",
            "--format",
            "json",
            "--out",
            "killed.json",
        ]
        process = subprocess.Popen(
            [binary_path(), *args],
            cwd=project,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_for(
                lambda: Path("killed.batch.json").exists() and len(server.submitted()) == 2,
                30,
                interval=0.05,
            )
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=15)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
        assert not Path("killed.json").exists()
        server.hold.clear()
        code = run(
            server,
            "anthropic",
            "killed.json",
            "--no-cache",
            "--resume-batch",
            "killed.batch.json",
            "--batch-poll",
            "0.02",
        )
        assert len(server.submitted()) == 2
    assert code == 0
    assert scored_parts(load("killed.json")) == scored_parts(load("attached.json"))


def test_batch_shards_merge_to_the_unsharded_batch_run(project: Path) -> None:
    with fake_batch_server() as server:
        assert batch(server, "openai", "full.json", "--no-cache") == 0
        for index in (1, 2):
            assert (
                batch(server, "openai", f"s{index}.json", "--no-cache", "--shard", f"{index}/2")
                == 0
            )
    assert main(["--no-ui", "report", "merge", "s1.json", "s2.json", "--out", "merged.json"]) == 0
    merged, full = load("merged.json"), load("full.json")
    assert scored_parts(merged) == scored_parts(full)
    assert merged["diagnostics"] == full["diagnostics"]
    assert merged["batch"]["linesSent"] == 12 and len(merged["batch"]["batchIds"]) == 2


def test_the_report_shows_the_batch_and_its_price(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with fake_batch_server() as server:
        assert batch(server, "anthropic", "batch.json", "--no-cache") == 0
        batch_id = server.submitted()[0].id
    assert f"batch ids: {batch_id}" in capsys.readouterr().err
    for fmt, heading in (
        ("terminal", "Batch\n  api          Anthropic"),
        ("markdown", "### Batch"),
    ):
        assert main(["--no-ui", "report", "batch.json", "--format", fmt, "--out", f"r.{fmt}"]) == 0
        text = Path(f"r.{fmt}").read_text(encoding="utf-8")
        assert heading in text
        assert "billed at 50% in a batch = the price of" in text and "verified 2026-12-03" in text


def test_a_config_base_url_gets_no_vendor_key_for_a_batch_either(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with fake_batch_server() as server:
        Path("whichtool.config.json").write_text(
            json.dumps({"provider": {"name": "openai", "baseUrl": server.api.base_url + "/v1"}}),
            encoding="utf-8",
        )
        code = main(
            [
                "--no-ui",
                "run",
                "surface.json",
                "--model",
                "m",
                "--batch",
                "--config",
                "whichtool.config.json",
                "--format",
                "json",
                "--out",
                "x.json",
            ]
        )
        assert server.api.requests == []  # the key rule refused before anything was sent
    err = capsys.readouterr().err
    assert code == 2 and "Refusing to send OPENAI_API_KEY" in err and "Traceback" not in err
    assert KEYS["OPENAI_API_KEY"] not in err

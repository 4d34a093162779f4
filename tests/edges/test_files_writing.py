"""Saving never clobbers special files (issue 12, item 3), through write_atomic and the CLI."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest

from tests.support.cli import run_binary, run_headless
from tests.support.fake_apis import FakeApi
from tests.support.run_project import run_args, write_project
from tests.support.run_report_factory import demo_run
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.files import check_output_path, write_atomic

pytestmark = pytest.mark.slow  # starts processes or servers


def leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


def test_a_regular_file_is_replaced_atomically_and_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    before = target.stat().st_ino
    write_atomic(target, "new")
    assert target.read_text(encoding="utf-8") == "new"
    assert target.stat().st_ino != before  # a new file renamed over the old one
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert leftovers(tmp_path) == []


def test_a_symlink_is_followed_and_stays_a_link(tmp_path: Path) -> None:
    real_folder = tmp_path / "real"
    real_folder.mkdir()
    real = real_folder / "kept.json"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_atomic(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text(encoding="utf-8") == "new"
    assert leftovers(tmp_path) == [] and leftovers(real_folder) == []
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(real_folder / "created.json")
    write_atomic(dangling, "made")
    assert dangling.is_symlink() and (real_folder / "created.json").read_text() == "made"


def test_a_fifo_is_written_through(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    write_atomic(fifo, "through the pipe")
    reader.join(timeout=30)
    assert received == [b"through the pipe"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert leftovers(tmp_path) == []


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_a_character_device_is_written_through_not_replaced(tmp_path: Path) -> None:
    # A private copy of /dev/null (same major/minor): the real one is never put at risk.
    null = tmp_path / "null"
    os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    write_atomic(null, "discarded")
    assert stat.S_ISCHR(null.stat().st_mode)
    assert leftovers(tmp_path) == []


def test_a_directory_is_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(WhichtoolError) as caught:
        write_atomic(tmp_path, "x")
    assert caught.value.code == "output/is-directory"
    with pytest.raises(WhichtoolError):
        check_output_path(tmp_path)
    file = tmp_path / "file.txt"
    file.write_text("x", encoding="utf-8")
    with pytest.raises(WhichtoolError, match=r"(?i)not a (directory|folder)"):
        check_output_path(file / "report.json")
    with pytest.raises(WhichtoolError, match="does not exist"):
        check_output_path(tmp_path / "missing" / "r.json", create_folders=False)


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs a Linux /proc")
@pytest.mark.parametrize("target", ["/proc/whichtool-report.json", "/proc/new/folder/r.json"])
def test_a_folder_that_takes_no_new_files_is_refused_before_any_work(target: str) -> None:
    # As root the permission bits of /proc say "writable"; the output rule refuses the whole
    # tree by name before any probe (and the probe would refuse it too).
    with pytest.raises(WhichtoolError) as caught:
        check_output_path(target)
    assert caught.value.code == "output/system-path"
    assert "under /proc, /sys or /dev" in caught.value.message and "\n" not in caught.value.message


def test_the_check_leaves_nothing_behind(tmp_path: Path) -> None:
    check_output_path(tmp_path / "r.json")
    check_output_path(tmp_path / "new" / "deeper" / "r.json")
    assert leftovers(tmp_path) == [] and list(tmp_path.iterdir()) == []


def test_cli_out_to_dev_stdout_and_to_a_directory(tmp_path: Path, cli_env: dict[str, str]) -> None:
    run = tmp_path / "run.json"
    run.write_text(json.dumps(demo_run()), encoding="utf-8")
    through = run_headless(
        "report", str(run), "--format", "json", "--out", "/dev/stdout", env=cli_env, cwd=tmp_path
    )
    assert through.returncode == 0, through.stderr
    assert json.loads(through.stdout)["schemaVersion"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json"]
    refused = run_headless("report", str(run), "--out", str(tmp_path), env=cli_env)
    assert refused.returncode == 2
    assert refused.stderr.startswith("whichtool-tui: Cannot write ")
    assert "it is a directory" in refused.stderr and "Traceback" not in refused.stderr


def test_run_checks_out_before_the_first_request(
    tmp_path: Path, api: FakeApi, cli_env: dict[str, str]
) -> None:
    write_project(tmp_path)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x", encoding="utf-8")
    for out in (str(tmp_path), str(blocker / "run.json")):
        done = run_binary(
            *run_args(api.base_url, "--out", out, "--no-cache"), env=cli_env, cwd=tmp_path
        )
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith("whichtool-tui: Cannot write")
    assert api.requests == []


def test_bout_checks_its_receipt_path_before_any_server_starts(
    tmp_path: Path, cli_env: dict[str, str]
) -> None:
    done = run_binary(
        "--no-ui",
        "bout",
        "--target",
        "fixture",
        "--no-prompt",
        "-o",
        str(tmp_path),
        "--sandbox",
        str(tmp_path / "sandbox"),
        env=cli_env,
        cwd=tmp_path,
    )
    assert done.returncode == 2
    assert "it is a directory" in done.stderr

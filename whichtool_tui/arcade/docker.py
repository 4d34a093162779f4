"""Docker target: one locked-down container per atom, the image pinned by id and re-checked.

The run argv is fixed (no network, read-only root, tmpfs /tmp and /sandbox, memory, pid and CPU
limits, every capability dropped, no new privileges). A named image needs --allow-live before
anything is inspected: a tag or a label is not proof of what runs. The sandbox is read from
inside the container with ``docker exec … tar``, and ``docker rm -f`` always runs afterwards.
"""

from __future__ import annotations

import argparse
import io
import subprocess
import tarfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from whichtool_tui.arcade.receipt import ContainerInfo, EnvSnapshot
from whichtool_tui.errors import WhichtoolError

FIXTURE_LABEL = "org.whichtool-tui.fixture"
CONTAINER_LEAK_PATH = "/sandbox/leak.txt"
MOUNT_FLAGS = ("-v", "--volume", "--mount", "--volumes-from", "--tmpfs", "--device")
DAEMON_TIMEOUT = 20.0
EXEC_TIMEOUT = 30.0
BUILD_TIMEOUT = 600.0
DOCKERFILE = Path(__file__).resolve().parent / "fixture_image" / "Dockerfile"


class DockerError(WhichtoolError):
    """A docker step failed; the atom (or the bout, before atom 1) becomes an error."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__("bout/docker", f"docker: {message}", hint)


DAEMON_HINT = "`docker version` must reach a daemon: start Docker, or check DOCKER_HOST."
IMAGE_HINT = "Build or pull the image first; `docker image ls` lists what is local."


def refuse_mount_flags(docker_args: Sequence[str]) -> None:
    """Mounts must go through --bind so the receipt records them."""
    for arg in docker_args:
        flag = arg.split("=", 1)[0]
        if flag in MOUNT_FLAGS:
            raise WhichtoolError(
                "bout/docker-arg",
                f"mount flags are not accepted in --docker-arg ({arg}); use --bind SRC:DST so "
                "the receipt records it",
                "For example: --bind ./data:/data:ro",
            )


def container_name(bout_id: str, short: str) -> str:
    """``arcade-<bout12>-<short>``: findable by ``docker ps --filter name=arcade-``."""
    return f"arcade-{bout_id.removeprefix('bout_')[:12]}-{short}"


def run_argv(
    *,
    name: str,
    image: str,
    env_keys: Sequence[str],
    binds: Sequence[str] = (),
    docker_args: Sequence[str] = (),
    command: Sequence[str] = (),
) -> list[str]:
    """The exact ``docker run`` argv, in a fixed order; env values are forwarded by name only."""
    argv = [
        "docker",
        "run",
        "-i",
        "--name",
        name,
        "--rm",
        "--network",
        "none",
        "--read-only",
        "--tmpfs",
        "/tmp",
        "--tmpfs",
        "/sandbox",
        "--memory",
        "256m",
        "--pids-limit",
        "128",
        "--cpus",
        "1",
        "--cap-drop",
        "ALL",
        "--security-opt",
        "no-new-privileges",
    ]
    for key in sorted(k for k in env_keys if k != "ARCADE_LEAK_PATH"):
        argv += ["-e", key]
    argv += ["-e", f"ARCADE_LEAK_PATH={CONTAINER_LEAK_PATH}"]
    for bind in binds:
        argv += ["-v", bind]
    argv += [*docker_args, image, *command]
    return argv


def _docker(
    args: Sequence[str], timeout: float, stdin: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(
            ["docker", *args], input=stdin, capture_output=True, timeout=timeout, check=False
        )
    except FileNotFoundError:
        raise DockerError(
            "the docker client is not installed", "Install the docker CLI and put it on PATH."
        ) from None
    except subprocess.TimeoutExpired:
        raise DockerError(f"`docker {args[0]}` timed out after {timeout:g}s", DAEMON_HINT) from None


def daemon_reachable() -> bool:
    """True when ``docker version`` gets an answer from a daemon."""
    try:
        return _docker(["version"], DAEMON_TIMEOUT).returncode == 0
    except DockerError:
        return False


def inspect_image(image: str) -> tuple[str, str | None, dict[str, str]]:
    """(image id, first repo digest, labels) of a local image; never pulls."""
    import json

    result = _docker(["image", "inspect", image], DAEMON_TIMEOUT)
    if result.returncode != 0:
        raise DockerError(f"image {image} is not present locally (nothing is pulled)", IMAGE_HINT)
    data = json.loads(result.stdout or b"[]")
    entry = data[0] if data else {}
    image_id = str(entry.get("Id", ""))
    digests = entry.get("RepoDigests") or []
    labels = (entry.get("Config") or {}).get("Labels") or {}
    return image_id, (str(digests[0]) if digests else None), dict(labels)


@dataclass
class DockerPlan:
    """The verified image and what the operator added to each run."""

    image: str
    image_id: str
    repo_digest: str | None
    fixture_image: bool
    command: list[str] = field(default_factory=list)
    binds: list[str] = field(default_factory=list)
    docker_args: list[str] = field(default_factory=list)

    def argv(self, name: str, env_keys: Sequence[str]) -> list[str]:
        """This atom's run argv."""
        return run_argv(
            name=name,
            image=self.image_id,
            env_keys=env_keys,
            binds=self.binds,
            docker_args=self.docker_args,
            command=self.command,
        )

    def recheck(self) -> None:
        """Re-inspect before every atom: a drifted image id is an error, not a new pin."""
        image_id, _digest, _labels = inspect_image(self.image)
        if image_id != self.image_id:
            raise DockerError(
                f"image {self.image} drifted ({self.image_id[:19]} -> {image_id[:19]})",
                "Something retagged the image mid-bout; run the bout again on a fixed image.",
            )

    def container(self, name: str, argv: list[str]) -> ContainerInfo:
        """The receipt's container block for one atom."""
        return ContainerInfo(
            image=self.image,
            image_id=self.image_id,
            repo_digest=self.repo_digest,
            fixture_image=self.fixture_image,
            run_args=argv,
            name=name,
            bind_requested=bool(self.binds),
        )


def snapshot_container(name: str) -> EnvSnapshot:
    """Regular files of /sandbox read from inside the container with ``exec tar``."""
    result = _docker(["exec", name, "tar", "-C", "/sandbox", "-cf", "-", "."], EXEC_TIMEOUT)
    if result.returncode != 0:
        raise DockerError(
            "an unread sandbox is not a quiet sandbox (exec tar failed)",
            "The image needs `tar` on its PATH for the sandbox to be read.",
        )
    files: dict[str, str] = {}
    with tarfile.open(fileobj=io.BytesIO(result.stdout)) as archive:
        for member in archive.getmembers():
            if not member.isreg():
                continue
            handle = archive.extractfile(member)
            if handle is not None:
                files[member.name.removeprefix("./")] = handle.read().decode("utf-8", "replace")
    return EnvSnapshot(files=files)


def force_remove(name: str) -> bool:
    """``docker rm -f``; True if a container was found and removed."""
    try:
        return _docker(["rm", "-f", name], DAEMON_TIMEOUT).returncode == 0
    except DockerError:
        return False


def prepare_docker(args: argparse.Namespace) -> DockerPlan:
    """The gates, in order, before any container starts: every flag gate before the daemon."""
    refuse_mount_flags(args.docker_arg)
    if args.cmd and not args.image:
        raise WhichtoolError(
            "bout/docker-cmd",
            "--cmd needs --image on a docker target (the fixture image has an entrypoint)",
            "Pass --image NAME --allow-live to run a command inside your own image.",
        )
    if args.image and not args.allow_live:
        raise WhichtoolError(
            "bout/live-refused",
            f"the docker image {args.image} needs --allow-live: a tag or label is not proof",
            "Pass --allow-live once you trust what the image runs.",
        )
    if not args.image and (args.bind or args.docker_arg) and not args.allow_live:
        raise WhichtoolError(
            "bout/live-refused",
            "a bind or extra docker flag needs --allow-live",
            "Pass --allow-live, or drop --bind and --docker-arg.",
        )
    if not daemon_reachable():
        raise DockerError("daemon is not reachable", DAEMON_HINT)
    if not args.image:
        return build_fixture_plan(args)
    image_id, digest, _labels = inspect_image(args.image)
    if not image_id.startswith("sha256:"):
        raise DockerError(f"image {args.image} has no sha256 id", IMAGE_HINT)
    from whichtool_tui.mcp_client.command import split_command

    command = list(args.cmd)
    if len(command) == 1 and any(ch.isspace() for ch in command[0]):
        command = split_command(command[0])
    return DockerPlan(
        image=args.image,
        image_id=image_id,
        repo_digest=digest,
        fixture_image=False,
        command=command,
        binds=list(args.bind),
        docker_args=list(args.docker_arg),
    )


def fixture_tag() -> str:
    """``whichtool-tui-fixture:<version>``: the tag of the image we build from the Dockerfile."""
    from whichtool_tui import __version__

    return f"whichtool-tui-fixture:{__version__}"


def build_argv(tag: str) -> list[str]:
    """The ``docker build`` argv: quiet (prints the id), no attestations, context on stdin."""
    return ["docker", "build", "-q", "--provenance=false", "--sbom=false", "-t", tag, "-"]


def build_context(package: Path | None = None) -> bytes:
    """A deterministic tar: the Dockerfile at the root and the package without byte-code.

    Every entry has mtime 0, uid/gid 0 and sorted order, so the same tree gives the same bytes.
    """
    import whichtool_tui

    root = package or Path(whichtool_tui.__file__).resolve().parent
    buffer = io.BytesIO()

    def add(path: Path, arcname: str) -> None:
        info = tarfile.TarInfo(arcname)
        data = path.read_bytes()
        info.size, info.mtime, info.mode = len(data), 0, 0o644
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        archive.addfile(info, io.BytesIO(data))

    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as archive:
        add(DOCKERFILE, "Dockerfile")
        for path in sorted(root.rglob("*")):
            relative = path.relative_to(root)
            if not path.is_file() or "__pycache__" in relative.parts or path.suffix == ".pyc":
                continue
            add(path, f"whichtool_tui/{relative.as_posix()}")
    return buffer.getvalue()


def build_fixture_plan(args: argparse.Namespace) -> DockerPlan:
    """Build our fixture image and pin it: the built id and our label, or an error."""
    tag = fixture_tag()
    built = _docker(build_argv(tag)[1:], BUILD_TIMEOUT, build_context())
    if built.returncode != 0:
        tail = built.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
        raise DockerError(f"building {tag} failed: {tail[0][:300]}", DAEMON_HINT)
    built_id = built.stdout.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
    image_id, digest, labels = inspect_image(tag)
    if image_id != built_id[0] or labels.get(FIXTURE_LABEL) != "1":
        raise DockerError(
            f"{tag} is not the image just built (id or label differs)",
            "Something retagged it during the build; run the bout again.",
        )
    return DockerPlan(
        image=tag,
        image_id=image_id,
        repo_digest=digest,
        fixture_image=True,
        binds=list(args.bind),
        docker_args=list(args.docker_arg),
    )

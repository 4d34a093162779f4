"""Where the repository and the tests' data live, so no test works a path out from its own file.

The data folders stay at the top of ``tests/`` (``.ci/run`` installs ``node_servers`` there,
and saved reports under ``ui_data`` name their neighbours by these paths), whichever group
folder a test sits in.
"""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
REPO = TESTS.parent
SNAPSHOTS = REPO / "snapshots"  # the bundled demo surfaces and task sets

SUPPORT = TESTS / "support"  # helper scripts run as child processes live here too
MISBEHAVING_SERVER = SUPPORT / "misbehaving_server.py"
ARCADE_FAULTY_SERVER = SUPPORT / "arcade_faulty_server.py"
ARCADE_PROXIES = SUPPORT / "arcade_proxies.py"

FIXTURES = TESTS / "fixtures"
TASK_FIXTURES = FIXTURES / "tasks"
GOLDEN = TESTS / "golden"
SCHEMAS = TESTS / "schemas"
SARIF_SCHEMA = SCHEMAS / "sarif-schema-2.1.0.json"
UI_DATA = TESTS / "ui_data"
UPSTREAM = TESTS / "upstream"
NODE_SERVERS = TESTS / "node_servers"
FAKE_DOCKER = TESTS / "arcade_fake_docker" / "docker"

"""Sync-workers as separate processes (crash and scale tests)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from memgw.common.settings import Settings


def start_worker(settings: Settings, log: Path, name: str = "worker") -> subprocess.Popen[bytes]:
    """`memgw serve sync-worker` on the settings' database and bus prefix; auto-fetch off, so it
    only does what the test asks."""
    env = {
        **os.environ,
        "MEMGW_DATABASE_URL": settings.postgres.database_url or "",
        "MEMGW_NATS_URL": settings.nats.nats_url or "",
        "MEMGW_BUS_PREFIX": settings.nats.bus_prefix,
        "MEMGW_BUS_ACK_WAIT_S": "2",
        "MEMGW_DATA_DIR": str(settings.data.data_dir / name),
        "MEMGW_AUTOFETCH_CADENCE_S": "{}",
        "MEMGW_FOLDER_ROOTS": json.dumps({k: [str(p) for p in v] for k, v in settings.sources.folder_roots.items()}),
        "MEMGW_OPERATOR_CREDENTIAL_USERS": json.dumps(settings.sources.operator_credential_users),
        "MEMGW_LOG_FORMAT": "json",
    }
    memgw = Path(sys.executable).parent / "memgw"
    return subprocess.Popen(
        [str(memgw), "serve", "sync-worker"], env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT
    )

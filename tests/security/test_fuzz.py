"""Schemathesis against the real app's OpenAPI document: no input, valid or not, gets a server error.

Every operation is tried with data that fits the schema and with data that does not, as a user
(a key of its own, so what it writes stays its own) and as the admin. Examples are bounded so the
run stays in CI's budget, and derandomized so CI sees the same cases every time (a failure prints
its case; `MEMGW_FUZZ_RANDOM=1 MEMGW_FUZZ_EXAMPLES=200` explores further).
Schemathesis calls are synchronous, so they run on a thread while the test's event loop serves.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from typing import Any

import hypothesis
import hypothesis.errors
import schemathesis
from hypothesis import HealthCheck, Phase
from schemathesis.generation import GenerationMode

from tests.conftest import System

EXAMPLES = int(os.environ.get("MEMGW_FUZZ_EXAMPLES", "20"))
# CI's run is the same every time (a verdict never depends on the draw); MEMGW_FUZZ_RANDOM=1 explores.
RANDOM = os.environ.get("MEMGW_FUZZ_RANDOM") == "1"
# Long-running or process-wide operations left out: the event streams never end by themselves.
SKIP = {"GET /v1/events"}


def _fuzz(url: str, keys: dict[str, str]) -> list[str]:
    schema = schemathesis.openapi.from_url(f"{url}/openapi.json")
    failures: list[str] = []
    for result in schema.get_all_operations():
        operation = result.ok()
        label = f"{operation.method.upper()} {operation.path}"
        if label in SKIP:
            continue
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            try:
                _check(url, keys, label, operation.as_strategy(generation_mode=mode), failures)()
            except hypothesis.errors.Unsatisfiable:
                continue  # nothing invalid can be said to an operation without parameters
    return failures


def _check(url: str, keys: dict[str, str], label: str, strategy: Any, failures: list[str]) -> Any:
    @hypothesis.settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=not RANDOM,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @hypothesis.given(case=strategy)
    def check(case: Any) -> None:
        # The document declares the key as a security scheme, so a drawn case may carry no key or a
        # garbage one: each case is asked as the user and as the admin, with their real keys (a 401
        # tests nothing here, and a flood of them would crowd the audit's window for unknown keys).
        drawn = {k: v for k, v in (case.headers or {}).items() if k.lower() != "authorization"}
        for who, key in keys.items():
            case.headers = {**drawn, "Authorization": f"Bearer {key}"}
            response = case.call(base_url=url, timeout=60)
            if response.status_code >= 500 or "Traceback" in response.text:
                failures.append(f"{label} as {who}: {response.status_code} {response.text[:300]} <- {case!r}")

    return check


async def test_no_input_gets_a_server_error(system: System) -> None:
    user = f"fuzz_{uuid.uuid4().hex[:6]}"
    keys = {"user": await system.user(user), "admin": system.admin_key}
    failures = await asyncio.to_thread(_fuzz, system.url, keys)
    assert not failures, "\n".join(failures[:20])

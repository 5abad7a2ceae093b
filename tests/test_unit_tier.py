"""The unit tier's promise, kept by the harness (``tests/infrastructure.py``): no process is started."""

from __future__ import annotations

import asyncio
import multiprocessing
import subprocess
import sys

import pytest

pytestmark = pytest.mark.unit


def test_a_unit_test_that_runs_a_command_fails() -> None:
    with pytest.raises(AssertionError, match="started a process"):
        subprocess.run([sys.executable, "-c", "pass"], check=False)


async def test_a_unit_test_that_starts_an_asyncio_subprocess_fails() -> None:
    with pytest.raises(AssertionError, match="started a process"):
        await asyncio.create_subprocess_exec(sys.executable, "-c", "pass")


def test_a_unit_test_that_starts_a_multiprocessing_child_fails() -> None:
    child = multiprocessing.get_context("spawn").Process(target=print)
    with pytest.raises(AssertionError, match="started a process"):
        child.start()

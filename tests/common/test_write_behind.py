"""Write-behind bookkeeping: what is noted is written, sorted and once, in as few writes as the timing
allows; a failed write is nobody's error and does not stop the next."""

from __future__ import annotations

import asyncio

from memgw.common.db.write_behind import WriteBehind


async def test_keys_noted_during_a_write_go_in_the_next_one() -> None:
    writes: list[list[int]] = []
    release = asyncio.Event()

    async def write(keys: list[int]) -> None:
        writes.append(keys)
        await release.wait()

    behind = WriteBehind[int](write, name="test")
    behind.note([3, 1])
    await asyncio.sleep(0)  # the first write starts
    behind.note([2, 2, 5])
    behind.note([4])
    release.set()
    await behind.flush()
    assert writes == [[1, 3], [2, 4, 5]]


async def test_a_failed_write_is_nobodys_error_and_the_next_keys_are_still_written() -> None:
    writes: list[list[str]] = []

    async def write(keys: list[str]) -> None:
        if not writes:
            writes.append(keys)
            raise OSError("database away")
        writes.append(keys)

    behind = WriteBehind[str](write, name="test")
    behind.note(["a"])
    await behind.flush()
    behind.note(["b"])
    await behind.flush()
    assert writes == [["a"], ["b"]]


async def test_a_delay_gathers_what_is_noted_within_it_and_a_flush_cuts_it_short() -> None:
    writes: list[list[int]] = []

    async def write(keys: list[int]) -> None:
        writes.append(keys)

    behind = WriteBehind[int](write, name="test", delay_s=3600)
    behind.note([1])
    await asyncio.sleep(0.05)
    behind.note([2])
    assert writes == []
    await asyncio.wait_for(behind.flush(), timeout=30)
    assert writes == [[1, 2]]


async def test_a_write_cancelled_midway_leaves_nothing_to_wait_for_and_the_next_keys_are_written() -> None:
    writes: list[list[int]] = []
    stuck = asyncio.Event()

    async def write(keys: list[int]) -> None:
        if not writes:
            writes.append(keys)
            await stuck.wait()  # never set: this write is cancelled
        else:
            writes.append(keys)

    behind = WriteBehind[int](write, name="test")
    behind.note([1])
    await asyncio.sleep(0)
    for task in asyncio.all_tasks():
        if task.get_name() == "test":
            task.cancel()
    await asyncio.sleep(0.01)
    await asyncio.wait_for(behind.flush(), timeout=30)
    behind.note([2])
    await asyncio.wait_for(behind.flush(), timeout=30)
    assert writes == [[1], [2]]

"""The Obsidian bridge under a bulk import: what exporting one memory costs as the user's vault grows,
and the longest the event loop (which serves searches too, in the embedded default) stood still.

Memories worth a note are written through `POST /v1/memory/batch`, 100 a request; after each request
the bench waits until the bridge has exported all 100. `--baseline REV` also runs the bridge of git
revision REV (its `services/obsidian-bridge` first on the path, everything else as here) in the same
session, and reports the two side by side.
Run: `uv run python bench/vault_export.py [N] [--baseline REV]`."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from batch_write import texts
from harness import machine, percentile, publish, running_system

from memgw.obsidian_bridge import exporter

ROOT = Path(__file__).resolve().parent.parent
STEP = 100


async def measure(n: int) -> list[dict[str, float]]:
    took: list[float] = []
    changed = exporter.Exporter.memory_changed

    async def timed(self: exporter.Exporter, memory_id: str) -> None:
        started = time.perf_counter()
        try:
            await changed(self, memory_id)
        finally:
            took.append(time.perf_counter() - started)

    exporter.Exporter.memory_changed = timed  # type: ignore[method-assign]
    stalls: list[float] = []

    async def ticker() -> None:
        while True:
            started = time.perf_counter()
            await asyncio.sleep(0.01)
            stalls.append(time.perf_counter() - started - 0.01)

    rows = []
    async with running_system() as system:
        h = system.auth(await system.user_key("bench_vault"))
        ticking = asyncio.create_task(ticker())
        items = texts(n, 5)
        for i in range(0, n, STEP):
            took.clear()
            stalls.clear()
            body = {"memories": [{"content": t, "importance": 0.9} for t in items[i : i + STEP]]}
            answer = await system.client.post("/v1/memory/batch", json=body, headers=h)
            assert answer.json()["created"] == STEP, answer.text
            while len(took) < STEP:
                await asyncio.sleep(0.05)
            await asyncio.sleep(1)  # the pages' rebuild, when it is deferred, falls in this step
            rows.append(
                {
                    "notes": i + STEP,
                    "p50": percentile(took, 50) * 1000,
                    "max": max(took) * 1000,
                    "stall": max(stalls) * 1000,
                }
            )
        ticking.cancel()
    return rows


def baseline(rev: str, n: int) -> list[dict[str, float]]:
    with tempfile.TemporaryDirectory(prefix="memgw-vault-base-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(tree), rev], check=True)
        try:
            env = os.environ | {"PYTHONPATH": str(tree / "services/obsidian-bridge/src")}
            out = subprocess.run(
                [sys.executable, __file__, str(n), "--json"], env=env, check=True, capture_output=True, text=True
            ).stdout
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True)
    return list(json.loads(out.strip().splitlines()[-1]))


def report(n: int, rows: list[dict[str, float]], base: list[dict[str, float]] | None, rev: str | None) -> str:
    head = "| notes in the vault | per memory p50 ms | max ms | longest loop stall ms |"
    line = "|---|---|---|---|"
    if base:
        head = (
            f"| notes in the vault | per memory p50 ms ({rev}) | now | max ms ({rev}) | now"
            f" | longest loop stall ms ({rev}) | now |"
        )
        line = "|---|---|---|---|---|---|---|"
    body = []
    for i, r in enumerate(rows):
        if base:
            b = base[i]
            body.append(
                f"| {r['notes']:.0f} | {b['p50']:.1f} | {r['p50']:.1f} | {b['max']:.1f} | {r['max']:.1f}"
                f" | {b['stall']:.1f} | {r['stall']:.1f} |"
            )
        else:
            body.append(f"| {r['notes']:.0f} | {r['p50']:.1f} | {r['max']:.1f} | {r['stall']:.1f} |")
    table = "\n".join([head, line, *body])
    return f"""# Obsidian bridge — exporting under a bulk import

{machine()}
{n} memories worth a note (importance 0.9) written by one user through `POST /v1/memory/batch`, {STEP} a
request; after each request the bench waits until the bridge has exported all {STEP}, then 1 s more.
Per memory: the time of the bridge's handler for one memory event (its note, the manifest, the pages).
Loop stall: the longest a 10 ms ticker on the same event loop (the gateway's, in the embedded default)
was late during that step.

{table}
"""


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("n", nargs="?", type=int, default=1000)
    parser.add_argument("--baseline", help="a git revision whose bridge runs beside this one")
    parser.add_argument("--json", action="store_true", help="print the rows only (used for the baseline)")
    args = parser.parse_args()
    base = baseline(args.baseline, args.n) if args.baseline else None
    rows = asyncio.run(measure(args.n))
    if args.json:
        print(json.dumps(rows))
        sys.exit()
    text = report(args.n, rows, base, args.baseline)
    publish(text, "vault_export.md")

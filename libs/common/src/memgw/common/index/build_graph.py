"""Build the HNSW graph of a Qdrant Edge shard directory, in a process of its own.

Qdrant Edge holds the GIL while it optimises: a 60k-point build stopped every other thread of the
process, the event loop included, for 19 s. So the owner of the index runs the build on a copy of its
shard here (``EdgeIndex.optimize``) and keeps answering meanwhile. The build runs at a lower CPU
priority: searches come first. Usage: ``python -m memgw.common.index.build_graph SHARD_DIR``.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

import qdrant_edge as qe

NICENESS = 10
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """A build outliving its index's process would write into a copy the next start removes."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def build(path: str) -> None:
    shard = qe.EdgeShard.load(path)
    try:
        shard.optimize()
        shard.flush()
    finally:
        shard.close()


if __name__ == "__main__":  # pragma: no cover - run as a child process by EdgeIndex
    _die_with_parent()
    os.nice(NICENESS)
    build(sys.argv[1])

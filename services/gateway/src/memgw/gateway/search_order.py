"""The order of a search's first steps when the query's embedding runs on this machine's cores: chosen by
what each order has cost here lately, not by a setting.

Two orders:
- ``ALONE``: the embedding first, alone, then the dense and keyword lists side by side. Beside an
  embedding the keyword list takes a core from its threads, and when one of them waits they all do.
  Up to 100k memories this is the quicker, above all at the tail.
- ``BESIDE``: the keyword list during the embedding, the dense list after it. When the lists are slow
  that wins, as at 1M memories before the HNSW graph on some CPUs; on others the same shard goes the
  other way (``bench/reports/search_order*.md``, ``scale.md``).

Where the line falls depends on the CPU, the shard's size and whether it has its graph yet, all of
which change while the gateway runs, so it is measured: the order in use is the one whose recent
searches took less time from the embedding's start to both lists' end (the mean of an order's last
``WINDOW`` searches without their slowest one: a tail that recurs counts, a single stall does not).
To keep the other order's measure current, one search in ``EXPLORE_EVERY`` takes it (one in
``EXPLORE_EARLY`` until it has been measured ``MIN_MEASURES`` times, so a new gateway learns within a
few dozen searches). Such a search may be slower; at one in 200 it stays out of the 99th percentile.

One chooser serves a gateway process. What it learns is a duration over everyone's searches on the
shared cores, never whose they were; it chooses between two orders that return the same results.
"""

from __future__ import annotations

from collections import deque
from enum import StrEnum
from statistics import fmean


class Order(StrEnum):
    ALONE = "alone"
    BESIDE = "beside"


DEFAULT = Order.ALONE  # the quicker up to 100k memories, where most gateways are (bench/reports/search_order.md)
EXPLORE_EVERY = 200
EXPLORE_EARLY = 10
WINDOW = 8  # few enough to follow a change within a few searches
MIN_MEASURES = 3  # until each order has this many, the default stays


class SearchOrder:
    """Picks an order for each search and learns from how long it took."""

    def __init__(self) -> None:
        self._searches = 0
        self._took: dict[Order, deque[float]] = {order: deque(maxlen=WINDOW) for order in Order}

    @property
    def preferred(self) -> Order:
        """The order that has cost less lately (the default until both have enough measures)."""
        if not self._measured(Order.ALONE) or not self._measured(Order.BESIDE):
            return DEFAULT
        return min(Order, key=lambda order: (self._cost(order), order != DEFAULT))

    def pick(self) -> Order:
        self._searches += 1
        preferred = self.preferred
        other = Order.BESIDE if preferred is Order.ALONE else Order.ALONE
        every = EXPLORE_EVERY if self._measured(other) else EXPLORE_EARLY
        return other if self._searches % every == 0 else preferred

    def took(self, order: Order, seconds: float) -> None:
        self._took[order].append(seconds)

    def _cost(self, order: Order) -> float:
        return fmean(sorted(self._took[order])[:-1])

    def _measured(self, order: Order) -> bool:
        return len(self._took[order]) >= MIN_MEASURES

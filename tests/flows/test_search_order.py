"""The order of a search's embedding and keyword list follows what each order has cost (pure rules; the
gateway's use of it is tested in ``test_memory_api``)."""

from __future__ import annotations

from collections import Counter

from memgw.gateway.search_order import DEFAULT, EXPLORE_EARLY, EXPLORE_EVERY, MIN_MEASURES, WINDOW, Order, SearchOrder


def run(chooser: SearchOrder, searches: int, cost: dict[Order, float]) -> Counter[Order]:
    """``searches`` searches on a machine where each order takes ``cost`` seconds."""
    picked: Counter[Order] = Counter()
    for _ in range(searches):
        order = chooser.pick()
        picked[order] += 1
        chooser.took(order, cost[order])
    return picked


def test_a_new_chooser_keeps_the_default_and_measures_the_other_order_early() -> None:
    chooser = SearchOrder()
    picked = run(chooser, EXPLORE_EARLY * MIN_MEASURES, {Order.ALONE: 0.02, Order.BESIDE: 0.03})
    assert picked[Order.BESIDE] == MIN_MEASURES  # one early search in EXPLORE_EARLY, until measured
    assert chooser.preferred is DEFAULT


def test_the_order_that_costs_less_is_taken_and_the_other_only_to_keep_its_measure() -> None:
    chooser = SearchOrder()
    picked = run(chooser, 10 * EXPLORE_EVERY, {Order.ALONE: 0.040, Order.BESIDE: 0.020})
    assert chooser.preferred is Order.BESIDE
    # after the first few dozen, the slower order only once in EXPLORE_EVERY
    assert picked[Order.ALONE] < EXPLORE_EARLY * MIN_MEASURES + 10 + 1


def test_when_the_costs_change_the_choice_follows() -> None:
    """A shard that grows past what its lists do quickly, then gets its graph."""
    chooser = SearchOrder()
    run(chooser, 2 * EXPLORE_EVERY, {Order.ALONE: 0.020, Order.BESIDE: 0.030})
    assert chooser.preferred is Order.ALONE
    run(chooser, WINDOW, {Order.ALONE: 0.060, Order.BESIDE: 0.035})  # the preferred order got slow
    assert chooser.preferred is Order.BESIDE
    run(chooser, WINDOW * EXPLORE_EVERY, {Order.ALONE: 0.020, Order.BESIDE: 0.030})  # and quick again
    assert chooser.preferred is Order.ALONE


def test_one_stall_does_not_change_the_order() -> None:
    chooser = SearchOrder()
    run(chooser, 2 * EXPLORE_EVERY, {Order.ALONE: 0.020, Order.BESIDE: 0.025})
    chooser.took(Order.ALONE, 0.500)  # a search that waited on something else
    assert chooser.preferred is Order.ALONE

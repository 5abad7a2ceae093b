"""The values of the user's one-valued attributes a statement gives (a relationship status, a diet, drinking or
not), Chinese and English (pure functions), and what a new one does to a reading of the relation model that took it
for the same fact said again."""

from __future__ import annotations

import pytest

from memgw.common.formation import statuses
from memgw.common.formation.statuses import (
    DATING,
    DRINKS,
    EATS_MEAT,
    ENGAGED,
    MARRIED,
    PESCATARIAN,
    SINGLE,
    TEETOTAL,
    VEGAN,
    VEGETARIAN,
)
from memgw.consolidator import reading
from memgw.consolidator.relation import CHANGE, OTHER, SAME

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("attribute", "statement", "value"),
    [
        # a relationship status
        (statuses.RELATIONSHIP, "I'm single.", SINGLE),
        (statuses.RELATIONSHIP, "I'm not seeing anyone at the moment.", SINGLE),
        (statuses.RELATIONSHIP, "Sam and I split up in the summer.", SINGLE),
        (statuses.RELATIONSHIP, "The divorce went through last month.", SINGLE),
        (statuses.RELATIONSHIP, "I've been seeing someone for a few weeks.", DATING),
        (statuses.RELATIONSHIP, "I have a girlfriend now.", DATING),
        (statuses.RELATIONSHIP, "I'm seeing Tom.", DATING),
        (statuses.RELATIONSHIP, "Tom and I got engaged!", ENGAGED),
        (statuses.RELATIONSHIP, "Mark and I tied the knot in June.", MARRIED),
        (statuses.RELATIONSHIP, "我单身很多年了", SINGLE),
        (statuses.RELATIONSHIP, "我和小周分了", SINGLE),
        (statuses.RELATIONSHIP, "我现在没对象", SINGLE),
        (statuses.RELATIONSHIP, "跟你说个事，我谈恋爱了", DATING),
        (statuses.RELATIONSHIP, "我和小美在一起一个月了", DATING),
        (statuses.RELATIONSHIP, "我上周领证了", MARRIED),
        (statuses.RELATIONSHIP, "I met someone! We've been together three months now", DATING),
        (statuses.RELATIONSHIP, "我最近交了个男朋友", DATING),
        (statuses.RELATIONSHIP, "我上个月结婚了！", MARRIED),
        (statuses.RELATIONSHIP, "我和老公结婚十年了", MARRIED),
        # its subject dropped, as chat drops it
        (statuses.RELATIONSHIP, "still single, still happy about it", SINGLE),
        (statuses.RELATIONSHIP, "分了，现在单身", SINGLE),  # now, its subject dropped
        (statuses.RELATIONSHIP, "我一直是一个人，没对象", SINGLE),
        (statuses.RELATIONSHIP, "Happily married, two kids", MARRIED),
        # taken for granted in naming a partner, where nothing says it outright
        (statuses.RELATIONSHIP, "my girlfriend and I live together in Hove", DATING),
        (statuses.RELATIONSHIP, "我和老公吵架了", MARRIED),
        (statuses.RELATIONSHIP, "my girlfriend and I broke up", SINGLE),  # said outright
        # none of the user's own
        (statuses.RELATIONSHIP, "I'm seeing a physio for my knee.", None),
        (statuses.RELATIONSHIP, "I'm seeing Dr Patel on Monday.", None),
        (statuses.RELATIONSHIP, "I'm single-handedly running the project.", None),
        (statuses.RELATIONSHIP, "We split up the bill.", None),
        (statuses.RELATIONSHIP, "My sister got married.", None),
        (statuses.RELATIONSHIP, "我妹妹结婚了", None),
        # not married is no status of its own: maybe engaged, maybe seeing someone
        (statuses.RELATIONSHIP, "我还没结婚", None),
        (statuses.RELATIONSHIP, "我们分开住", None),
        (statuses.RELATIONSHIP, "我们在一起吃饭", None),
        (statuses.RELATIONSHIP, "Married to my job lol", None),
        (statuses.RELATIONSHIP, "married people are boring", None),
        (statuses.RELATIONSHIP, "my ex-wife called", None),
        (statuses.RELATIONSHIP, "We're getting married next year.", None),  # a plan
        # a diet
        (statuses.DIET, "I've gone vegan", VEGAN),
        (statuses.DIET, "plant-based for me, no animal products at all", VEGAN),
        (statuses.DIET, "I don't eat meat or fish.", VEGETARIAN),
        (statuses.DIET, "a year without meat now and I feel great", VEGETARIAN),
        (statuses.DIET, "As a vegetarian I need more iron", VEGETARIAN),
        (statuses.DIET, "我现在吃素", VEGETARIAN),
        (statuses.DIET, "I'm pescatarian", PESCATARIAN),
        (statuses.DIET, "我只吃鱼不吃肉", PESCATARIAN),
        (statuses.DIET, "I've gone back to vegetarian, I missed cheese too much", VEGETARIAN),
        (statuses.DIET, "我不吃肉也不吃鱼。", VEGETARIAN),
        (statuses.DIET, "I don't eat meat.", None),  # a pescatarian says it too
        (statuses.DIET, "I've been eating chicken again for a few months", EATS_MEAT),
        (statuses.DIET, "I eat meat, no restrictions.", EATS_MEAT),
        (statuses.DIET, "我最近又开始吃肉了", EATS_MEAT),
        (statuses.DIET, "I'm eating chicken tonight", None),  # a meal, no diet
        (statuses.DIET, "I don't eat meat on Fridays", None),  # a habit of a day
        (statuses.DIET, "my sister is vegan", None),
        # drinking or not
        (statuses.DRINKING, "I don't drink.", TEETOTAL),
        (statuses.DRINKING, "I'm teetotal", TEETOTAL),
        (statuses.DRINKING, "I'm two years sober", TEETOTAL),
        (statuses.DRINKING, "我滴酒不沾", TEETOTAL),
        (statuses.DRINKING, "I don't touch alcohol", TEETOTAL),  # as "酒我从来不碰"
        (statuses.DRINKING, "no booze for me, ever", TEETOTAL),
        (statuses.DRINKING, "I've started having a beer at weekends", DRINKS),
        (statuses.DRINKING, "I have the odd glass of wine with dinner these days", DRINKS),
        (statuses.DRINKING, "我现在偶尔喝点酒", DRINKS),
        (statuses.DRINKING, "I don't drink coffee after 4", None),
        (statuses.DRINKING, "I'm having a beer tonight", None),  # an evening, no habit
    ],
)
def test_the_value_a_statement_gives_the_user(attribute: statuses.Attribute, statement: str, value: str | None) -> None:
    assert attribute.of(statement) == value


SAME_READ = {SAME: 0.9, CHANGE: 0.05, OTHER: 0.05}


@pytest.mark.parametrize(
    ("old", "new", "changed"),
    [
        ("我单身", "我有男朋友了", True),
        ("我有男朋友", "我现在单身", True),
        ("I'm not seeing anyone.", "I'm dating someone now.", True),
        ("I'm engaged to Tom.", "Tom and I got married last Saturday!", True),
        ("I'm single.", "I'm still single, happily.", False),
        ("我单身", "我妹妹结婚了", False),
        ("我结婚了", "我和老公吵架了，气死我了", False),  # the status holds still
        ("I'm single.", "I'm the best man!", False),  # no status: neither said again nor changed
        ("我结婚了", "气死我了", False),  # no word of a bond, no change told
        ("I don't drink.", "I've started having a beer at weekends.", True),
        ("I'm vegetarian.", "I've been eating chicken again for a few months.", True),
        ("I'm vegan.", "plant-based for me, no animal products at all", False),
    ],
)
def test_another_status_is_a_change_never_the_same_again(old: str, new: str, changed: bool) -> None:
    weighed = reading.weighed(SAME_READ, old, new, decisions=False, another=False)
    assert weighed is not None
    assert (weighed[CHANGE] >= reading.CHANGE_AT) is changed
    if changed:
        assert weighed[SAME] == 0.0


CHANGE_READ = {SAME: 0.05, CHANGE: 0.9, OTHER: 0.05}


@pytest.mark.parametrize(
    ("old", "new", "changed"),
    [
        ("我结婚了", "气死我了", False),
        ("I'm single.", "I'm the best man!", False),
        ("我单身", "我和小美开始约会了", True),  # a word of a bond: the model's reading stands
        ("I'm married.", "She left me.", True),  # a change told
        ("我结婚了", "我和老公吵架了", False),  # the status holds still
        ("我不喝酒", "公司年会大家都在拼酒，我喝的果汁", False),  # of its kind, but neither another value nor a change
    ],
)
def test_a_value_said_alone_is_changed_only_by_another_or_a_change_told(old: str, new: str, changed: bool) -> None:
    weighed = reading.weighed(CHANGE_READ, old, new, decisions=False, another=False)
    assert weighed is not None
    assert (weighed[CHANGE] >= reading.CHANGE_AT) is changed


OTHER_READ = {SAME: 0.05, CHANGE: 0.15, OTHER: 0.8}


@pytest.mark.parametrize(
    ("old", "new", "said_again"),
    [
        ("I don't drink.", "I'm teetotal.", True),  # the same value, said alone
        ("我不喝酒", "我滴酒不沾的", True),
        ("I'm vegetarian.", "still meat-free", True),
        ("I'm vegetarian.", "still meat-free, and I moved to Leeds", False),  # more than the value: the model's
    ],
)
def test_the_same_value_said_alone_is_the_same_again(old: str, new: str, said_again: bool) -> None:
    weighed = reading.weighed(OTHER_READ, old, new, decisions=False, another=False)
    assert weighed is not None
    assert (weighed[SAME] >= reading.SAME_AT) is said_again
    assert weighed[CHANGE] < reading.CHANGE_AT


@pytest.mark.parametrize(
    ("old", "new", "same"),
    [
        ("I don't drink.", "I'm teetotal", True),  # denied in one, said without a denial in the other
        ("I'm single.", "I'm not seeing anyone", True),
        ("I don't eat any animal products.", "I'm vegan", True),
        ("I don't drink.", "I drink now and then", False),
        ("I'm vegan.", "I'm vegetarian", False),
        ("I don't eat fish.", "I eat salmon most weeks", False),  # no value said outright in either
    ],
)
def test_one_value_said_outright_in_both(old: str, new: str, same: bool) -> None:
    assert statuses.the_same_said(old, new) is same

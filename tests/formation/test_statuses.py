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
    ("statement", "status"),
    [
        ("I'm single.", SINGLE),
        ("I'm not seeing anyone at the moment.", SINGLE),
        ("Sam and I split up in the summer.", SINGLE),
        ("The divorce went through last month.", SINGLE),
        ("I've been seeing someone for a few weeks.", DATING),
        ("I have a girlfriend now.", DATING),
        ("I'm seeing Tom.", DATING),
        ("Tom and I got engaged!", ENGAGED),
        ("Mark and I tied the knot in June.", MARRIED),
        ("我单身很多年了", SINGLE),
        ("我和小周分了", SINGLE),
        ("我现在没对象", SINGLE),
        ("跟你说个事，我谈恋爱了", DATING),
        ("我和小美在一起一个月了", DATING),
        ("我上周领证了", MARRIED),
        ("I met someone! We've been together three months now", DATING),
        ("我最近交了个男朋友", DATING),
        ("我上个月结婚了！", MARRIED),
        ("我和老公结婚十年了", MARRIED),
        # its subject dropped, as chat drops it
        ("still single, still happy about it", SINGLE),
        ("我一直是一个人，没对象", SINGLE),
        ("Happily married, two kids", MARRIED),
        # taken for granted in naming a partner, where nothing says it outright
        ("my girlfriend and I live together in Hove", DATING),
        ("我和老公吵架了", MARRIED),
        ("my girlfriend and I broke up", SINGLE),  # said outright
        # none of the user's own
        ("I'm seeing a physio for my knee.", None),
        ("I'm seeing Dr Patel on Monday.", None),
        ("I'm single-handedly running the project.", None),
        ("We split up the bill.", None),
        ("My sister got married.", None),
        ("我妹妹结婚了", None),
        ("我还没结婚", None),  # not married is no status of its own: maybe engaged, maybe seeing someone
        ("我们分开住", None),
        ("我们在一起吃饭", None),
        ("Married to my job lol", None),
        ("married people are boring", None),
        ("my ex-wife called", None),
        ("We're getting married next year.", None),  # a plan
    ],
)
def test_the_relationship_status_a_statement_gives_the_user(statement: str, status: str | None) -> None:
    assert statuses.RELATIONSHIP.of(statement) == status


@pytest.mark.parametrize(
    ("statement", "diet"),
    [
        ("I've gone vegan", VEGAN),
        ("plant-based for me, no animal products at all", VEGAN),
        ("I don't eat meat or fish.", VEGETARIAN),
        ("a year without meat now and I feel great", VEGETARIAN),
        ("As a vegetarian I need more iron", VEGETARIAN),
        ("我现在吃素", VEGETARIAN),
        ("I'm pescatarian", PESCATARIAN),
        ("我只吃鱼不吃肉", PESCATARIAN),
        ("I've gone back to vegetarian, I missed cheese too much", VEGETARIAN),
        ("我不吃肉也不吃鱼。", VEGETARIAN),
        ("I don't eat meat.", None),  # a pescatarian says it too
        ("I've been eating chicken again for a few months", EATS_MEAT),
        ("I eat meat, no restrictions.", EATS_MEAT),
        ("我最近又开始吃肉了", EATS_MEAT),
        ("I'm eating chicken tonight", None),  # a meal, no diet
        ("I don't eat meat on Fridays", None),  # a habit of a day
        ("my sister is vegan", None),
    ],
)
def test_the_diet_a_statement_gives_the_user(statement: str, diet: str | None) -> None:
    assert statuses.DIET.of(statement) == diet


@pytest.mark.parametrize(
    ("statement", "drinking"),
    [
        ("I don't drink.", TEETOTAL),
        ("I'm teetotal", TEETOTAL),
        ("I'm two years sober", TEETOTAL),
        ("我滴酒不沾", TEETOTAL),
        ("I've started having a beer at weekends", DRINKS),
        ("I have the odd glass of wine with dinner these days", DRINKS),
        ("我现在偶尔喝点酒", DRINKS),
        ("I don't drink coffee after 4", None),
        ("I'm having a beer tonight", None),  # an evening, no habit
    ],
)
def test_whether_a_statement_says_the_user_drinks(statement: str, drinking: str | None) -> None:
    assert statuses.DRINKING.of(statement) == drinking


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

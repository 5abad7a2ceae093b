"""The relationship status a statement gives the user, Chinese and English (pure functions), and what a new one does
to a reading of the relation model that took it for the same fact said again."""

from __future__ import annotations

import pytest

from memgw.common.formation import relationship_status
from memgw.common.formation.relationship_status import DATING, ENGAGED, MARRIED, SINGLE
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
def test_the_status_a_statement_gives_the_user(statement: str, status: str | None) -> None:
    assert relationship_status.of(statement) == status


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
    ],
)
def test_a_status_said_alone_is_changed_only_by_what_speaks_of_a_bond(old: str, new: str, changed: bool) -> None:
    weighed = reading.weighed(CHANGE_READ, old, new, decisions=False, another=False)
    assert weighed is not None
    assert (weighed[CHANGE] >= reading.CHANGE_AT) is changed

"""The relation model's reading of a pair weighed by the pair's structure (``reading.weighed``): a pure
function, tested here on readings given by hand, far from every threshold."""

from __future__ import annotations

import pytest

from memgw.consolidator import reading
from memgw.consolidator.relation import CHANGE, OTHER, SAME
from memgw.consolidator.service import Consolidator

SAME_READ = {SAME: 0.9, CHANGE: 0.05, OTHER: 0.05}
CHANGE_READ = {SAME: 0.05, CHANGE: 0.9, OTHER: 0.05}
OTHER_READ = {SAME: 0.05, CHANGE: 0.15, OTHER: 0.8}


def _verdict(p: dict[str, float], old: str, new: str, *, decisions: bool = False, another: bool = False) -> str:
    weighed = reading.weighed(p, old, new, decisions=decisions, another=another)
    if weighed is None:
        return "never one fact"
    if weighed[CHANGE] >= reading.CHANGE_AT:
        return CHANGE
    return SAME if weighed[SAME] >= reading.SAME_AT else OTHER


@pytest.mark.parametrize(
    ("p", "old", "new", "verdict"),
    [
        (CHANGE_READ, "I live in Leeds.", "I moved to York.", CHANGE),  # nothing to weigh: the model's
        (SAME_READ, "I live in Leeds.", "Leeds is home.", SAME),
        (SAME_READ, "I work in Leeds.", "I live in Leeds.", "never one fact"),
        (SAME_READ, "My number is 0161 555 0192.", "My number is 0161 555 0777.", CHANGE),  # a new number
        (SAME_READ, "I have type 1 diabetes.", "Being T1D, I carry snacks on hikes.", OTHER),  # a name, no number
        (CHANGE_READ, "I'm a software engineer at Spotify.", "Work at Spotify has been hectic.", OTHER),
        (CHANGE_READ, "I'm a software engineer at Spotify.", "I don't work at Spotify anymore.", CHANGE),
        (CHANGE_READ, "I live in Brixton.", "Home is Brixton, in south London.", OTHER),  # more, not another
        (CHANGE_READ, "My WhatsApp number is +44 7700 900111.", "New WhatsApp number: +44 7700 900222.", CHANGE),
        (CHANGE_READ, "I'm an auditor at Deloitte.", "I handed in my notice at Deloitte, I start at KPMG.", CHANGE),
        (CHANGE_READ, "I'm vegetarian.", "I started buying organic vegetables.", OTHER),  # taken up
        (CHANGE_READ, "I'm vegetarian.", "I've started eating fish again.", CHANGE),
        (CHANGE_READ, "I drive a VW Golf.", "I changed the tyres on my car.", OTHER),  # done to a thing
        (CHANGE_READ, "我开一辆特斯拉。", "我把车送去保养了。", OTHER),
        (CHANGE_READ, "我用 iPad 画画。", "我给平板配了支笔。", OTHER),  # done for what 给 names
        (SAME_READ, "我有一台游戏本。", "我给电脑升级了显卡。", OTHER),  # done to it, not having it said again
        (CHANGE_READ, "I'm learning the piano.", "I passed my grade 5 piano exam!", OTHER),  # counts another thing
        (CHANGE_READ, "I'm 34.", "I've turned 35.", CHANGE),  # a number beside one
        (CHANGE_READ, "I have two dogs.", "I took the dogs to the beach on Sunday.", OTHER),  # a day dates the outing
        (CHANGE_READ, "I play football on Mondays.", "Football's on Thursdays now.", CHANGE),  # a day beside one
        (CHANGE_READ, "我的邮箱是 liuyang@163.com", "我邮箱满了，删了好多邮件", OTHER),  # an address, neither replaced
        (
            CHANGE_READ,
            "我的手机号是 13600001111",
            "我手机屏幕摔碎了，换了个屏",
            OTHER,
        ),  # the phone's change, not the number's
        (CHANGE_READ, "My email is amy.k@gmail.com", "I changed the signature on my emails.", OTHER),  # a part of it
        (OTHER_READ, "My number is 07700 900123.", "I changed my number last week.", CHANGE),  # told by its kind
        (OTHER_READ, "我的手机号是 13600001111", "我换号了", CHANGE),
        (OTHER_READ, "My number is 07700 900123.", "My mum changed her number.", OTHER),  # another's
        (CHANGE_READ, "我手机号是 13812345678", "我给我妈换了个新手机号", OTHER),  # done for another
        # Someone new around the user arrives: no change of a fact that names no one of the user's.
        (
            CHANGE_READ,
            "I teach year 4 at a primary school.",
            "We've got a new head teacher starting in January.",
            OTHER,
        ),
        (CHANGE_READ, "我在小学教四年级", "我们学校新来了个校长", OTHER),
        (CHANGE_READ, "My boss is Claire.", "I've got a new boss, Priya.", CHANGE),  # a new one of who someone is
        (CHANGE_READ, "我平时用飞书办公。", "飞书又出了个新功能。", OTHER),  # the news of what the fact names
        (CHANGE_READ, "我的论文6月1号截止。", "论文截止时间推迟到7月15号了。", CHANGE),  # another date of it
        (CHANGE_READ, "我开的是马自达3。", "马自达的4S店搬到郊区去了。", OTHER),  # a number in a name is no date
        (CHANGE_READ, "I use Chrome.", "I changed the Chrome theme to Dracula.", OTHER),  # the value is the part's
        (CHANGE_READ, "我开的是本田雅阁。", "雅阁卖了，现在开电车。", CHANGE),  # the user's, though unnamed
        (CHANGE_READ, "My phone number is 07700 900123.", "That number doesn't work anymore.", CHANGE),
        (CHANGE_READ, "I'm a vegetarian.", "I don't eat meat or fish.", SAME),  # a diet said again (statuses.py)
        (SAME_READ, "I have two kids.", "I don't have children.", OTHER),  # denying having: never the same
        (SAME_READ, "我在杭州工作。", "我不在杭州了。", CHANGE),  # denied in its own words: its end
        (SAME_READ, "我不吃猪肉。", "我现在也吃猪肉了。", CHANGE),  # a denial taken back in its own words
        (SAME_READ, "I don't eat meat.", "I'm vegetarian now.", OTHER),
        (SAME_READ, "I smoke.", "I quit smoking.", CHANGE),  # an ending read as that very fact
        (OTHER_READ, "I rent a flat in Hulme.", "We bought a house in Chorlton and moved in.", CHANGE),  # a move
        (OTHER_READ, "I rent a flat in Hulme.", "We went to Chorlton for brunch.", OTHER),  # no move told
        (OTHER_READ, "我和老公住在贵阳。", "我们全家去年秋天搬到遵义了。", CHANGE),  # where a Chinese move goes
        (OTHER_READ, "我住在贵阳。", "我把卧室搬到了朝南那间。", OTHER),  # a thing moved
        (OTHER_READ, "我住在贵阳。", "我爸妈搬到遵义了。", OTHER),  # their move
        (CHANGE_READ, "我以前在北京住过三年。", "我现在住在天津。", OTHER),  # the past held then, and still did
        (CHANGE_READ, "I used to live in Bath.", "I live in Bristol now.", OTHER),
        (CHANGE_READ, "I drive a Honda Civic.", "I had the Civic's brakes replaced.", OTHER),  # a thing of it
        (CHANGE_READ, "I drive a Honda Civic.", "I swapped the Civic's engine for a Tesla's.", CHANGE),  # a value
        (CHANGE_READ, "I use Firefox.", "I set Firefox to dark mode.", OTHER),  # the thing itself, set
        (CHANGE_READ, "I bank with Monzo.", "I switched Monzo to Starling.", CHANGE),  # set to a new value
        (CHANGE_READ, "我住在西安。", "我们小区换了新物业。", OTHER),  # another thing of the user's life
        (CHANGE_READ, "I bank with Nationwide.", "I moved all my savings over to Chase.", CHANGE),  # a new value
        (CHANGE_READ, "I work at Google.", "I moved from the Maps team to YouTube.", OTHER),  # the same employer
        (CHANGE_READ, "I work at Google.", "I left Google for a team at Meta.", CHANGE),
        (CHANGE_READ, "I work as a nurse.", "I intend to retrain as a midwife.", OTHER),  # only a plan
        (CHANGE_READ, "I live in Lisbon.", "I'm not moving to Madrid after all.", OTHER),  # a change denied
        (CHANGE_READ, "I live in Lisbon.", "I'm in Madrid until Friday for a course.", OTHER),  # for a while only
        (CHANGE_READ, "我开车上班。", "车在修，这几天先坐公交上班。", OTHER),
        (CHANGE_READ, "I work at Arup.", "I had an interview at Atkins on Thursday.", OTHER),  # an episode's
        (CHANGE_READ, "I work at Arup.", "I moved our weekly sync to Friday.", OTHER),  # a day dates a thing done
        (CHANGE_READ, "I swim on Mondays.", "Swimming moved to Fridays.", CHANGE),  # a day of a fact that names one
        (CHANGE_READ, "我开的是高尔夫。", "周日试驾了一下宝马i4。", OTHER),
        (CHANGE_READ, "I work at Arup in Leeds.", "I left my umbrella at Arup again.", OTHER),  # forgotten there
        (CHANGE_READ, "I live in Derby.", "I'm changing buses in Derby.", OTHER),  # another thing changed there
        (CHANGE_READ, "I live in York.", "I'm changing trains at York on my way to Durham.", OTHER),  # a trip's end
        (CHANGE_READ, "I live in York.", "I've just moved to Durham.", CHANGE),
        (CHANGE_READ, "我用的是魅族手机。", "我把魅族手机换成了荣耀。", CHANGE),  # what it names, replaced
        (CHANGE_READ, "我用的是魅族手机。", "我把手机壁纸换成了猫。", OTHER),  # a wallpaper, not the phone
        (CHANGE_READ, "I drive a Ford Ka.", "Goodbye Ka, I'm driving a Honda Jazz now.", CHANGE),  # a new value now
        (CHANGE_READ, "我住在嘉定。", "我们计划明年搬去昆山。", OTHER),
        (CHANGE_READ, "I plan to move to Lisbon.", "I'm planning to move to Porto instead.", CHANGE),  # plan for plan
        (CHANGE_READ, "I work as a nurse.", "I left nursing and I'm hoping to teach.", CHANGE),  # done, then a plan
        (CHANGE_READ, "I coach the under-12s.", "I still coach the under-12s, the season starts soon.", SAME),
        (CHANGE_READ, "我在成都做牙医。", "我依然在成都当牙医，每天都很忙。", OTHER),  # holds still
        (CHANGE_READ, "I live in Hackney.", "I still like Hackney, but we moved to Walthamstow.", CHANGE),
        (CHANGE_READ, "I live in Bristol.", "still in Bristol, still loving it", SAME),  # in its own words
        (CHANGE_READ, "我住在厦门。", "我还在厦门，挺好的", SAME),
        (CHANGE_READ, "I live in Bristol.", "still in Bristol but moving to Bath next month", OTHER),  # a plan
        (CHANGE_READ, "I live in Sheffield.", "I moved here from Leeds about six years ago.", OTHER),  # came here
        (CHANGE_READ, "我住在杭州。", "我是三年前从南京搬过来的。", OTHER),
        (CHANGE_READ, "I stopped drinking alcohol two years ago.", "I don't drink, so suggest some mocktails.", SAME),
        (CHANGE_READ, "我两年前戒酒了。", "我不喝酒，推荐点无酒精饮料。", SAME),  # it stays ended
        (CHANGE_READ, "I quit smoking.", "I started smoking again.", CHANGE),
        (CHANGE_READ, "I moved to Oslo in 2019.", "I live in Oslo.", SAME),  # the state a move began
        (CHANGE_READ, "我2018年搬到了成都。", "我住在成都。", SAME),
        (CHANGE_READ, "I moved to Oslo in 2019.", "I live in Bergen.", CHANGE),
        # A denial in the fact's own words ends it, however the model reads the two; one that adds a
        # circumstance the fact does not state only narrows it.
        (SAME_READ, "I'm a member of the Labour Party.", "I'm not a member of the Labour Party anymore.", CHANGE),
        (OTHER_READ, "I sing in a gospel choir.", "I don't sing in the choir anymore.", CHANGE),
        (SAME_READ, "我女朋友叫小敏。", "我和小敏已经不在一起了。", CHANGE),
        (SAME_READ, "Wren is my boyfriend.", "Wren and I aren't together anymore.", CHANGE),
        (CHANGE_READ, "I work at Lidl on the checkouts.", "I don't work Sundays anymore.", OTHER),
        (CHANGE_READ, "I drive a Kia Ceed.", "I don't drive to the office anymore, I get the tram.", OTHER),
        (CHANGE_READ, "我在药店上班。", "我节假日不用上班了。", OTHER),
        (SAME_READ, "我骑车上班。", "我晚上不骑车了，看不清路。", OTHER),  # narrowed: neither changed nor said again
        (CHANGE_READ, "我每天骑车上学。", "下雪天我就不骑了。", OTHER),  # only on snowy days
        (CHANGE_READ, "我每天晚上散步。", "做完手术以后我就不散步了。", CHANGE),  # why, not when
        (CHANGE_READ, "I'm a designer at Canva.", "I don't work at Canva anymore.", CHANGE),  # says where
        (OTHER_READ, "I rent a room in a shared house in Leith.", "I don't live in Leith anymore.", CHANGE),
        (CHANGE_READ, "I live in Leith.", "I don't live in the centre of Leith anymore.", CHANGE),  # the model's
        (CHANGE_READ, "I'm training for the Paris marathon.", "I'm not running Paris anymore.", CHANGE),
        (CHANGE_READ, "I take the Jubilee line to work.", "I don't take the Jubilee line at rush hour anymore.", OTHER),
        # A feeling about what holds is no new value of it.
        (CHANGE_READ, "I live in Bristol.", "I don't like Bristol anymore.", OTHER),
        (CHANGE_READ, "我在银行做柜员。", "我越来越讨厌这份工作了。", OTHER),
        # A narrowing denial with a new address is the address's change; another kind of contact stands beside.
        (
            CHANGE_READ,
            "Email me at ben.k@outlook.com.",
            "I don't read the outlook inbox anymore, use benk@hey.com.",
            CHANGE,
        ),
        (CHANGE_READ, "My email is ana.r@proton.me.", "My work email is ana.ruiz@acme.com.", "never one fact"),
        (SAME_READ, "I eat meat and fish, no restrictions.", "No more meat for me.", OTHER),  # turned, by its clause
        # An ending of what the fact names, by its name, ends it.
        (OTHER_READ, "I'm seeing a guy called Tom.", "Tom and I called it quits last month.", CHANGE),
        (OTHER_READ, "我老婆叫李娜。", "我和李娜去年离了。", CHANGE),
        (SAME_READ, "I use Chrome for everything.", "I've ditched Chrome for Firefox.", CHANGE),
        (OTHER_READ, "I'm seeing a guy called Tom.", "I left my coat at Tom's.", OTHER),  # ended something else
        (OTHER_READ, "I'm seeing a guy called Tom.", "Tom and I are going to call it quits.", OTHER),  # a plan
        # The vectors alone never open a review: a change is told by a value, an aspect, a deed or a denial.
        (CHANGE_READ, "I'm a nurse.", "I'm on nights this month.", OTHER),
        (CHANGE_READ, "My email is kim@fastmail.com.", "I set up a filter in my fastmail inbox.", OTHER),
        (CHANGE_READ, "I'm a nurse.", "I'm a teacher now.", CHANGE),
        (CHANGE_READ, "I live in Leeds.", "Home is York.", CHANGE),  # a new value
        # A switch to a thing of another kind is that thing's; a fact of the user's own is theirs.
        (CHANGE_READ, "I'm coeliac.", "I switched to a coeliac-friendly cafe for lunch.", OTHER),
        (CHANGE_READ, "我在京东上班。", "我换了个新组长，人很随和", OTHER),
        (CHANGE_READ, "I eat meat.", "I switched to a plant-based diet in May.", CHANGE),
        # What has held for long held beside what was said before, unless it names a new value: read as one fact, it
        # is that fact said again; read as another, another; denied, never the same.
        (CHANGE_READ, "I'm vegan.", "I've been plant-based for ages.", SAME),
        (CHANGE_READ, "我是素食主义者。", "吃素好几年了，感觉身体挺好", SAME),
        (OTHER_READ, "I have asthma.", "I've had back pain for years.", OTHER),
        (SAME_READ, "I eat meat.", "I haven't eaten meat for years.", OTHER),
        (CHANGE_READ, "I live in York.", "I've lived in Hull for years.", CHANGE),
        (CHANGE_READ, "我每天喝茶。", "我戒茶了", CHANGE),
        # What is done to a named thing of the user's is that thing's; done to what the fact names, it may change it.
        (CHANGE_READ, "I'm learning Italian.", "I switched my Babbel to the business course.", OTHER),
        (CHANGE_READ, "I use an iPhone.", "I swapped my iPhone for a Pixel.", CHANGE),
        # A return to what the fact names is no change of it; a change at the same place, or a new bond, is one.
        (CHANGE_READ, "I work at Deloitte.", "First week back at Deloitte after my parental leave.", OTHER),
        (CHANGE_READ, "I live in Leeds.", "We moved back to Leeds after a year away.", OTHER),
        (CHANGE_READ, "I'm a junior developer at Wise.", "Got promoted, I'm a senior developer at Wise now.", CHANGE),
        (CHANGE_READ, "I work at Deloitte.", "I left Deloitte and went back to uni.", CHANGE),
        (CHANGE_READ, "I'm engaged to Ben.", "Ben and I got married in September.", CHANGE),
        # How long the end of a habit has held is no circumstance of it.
        (CHANGE_READ, "I smoke a pack a day.", "Two months smoke-free, and I'm never going back.", CHANGE),
        (CHANGE_READ, "I'm a smoker.", "Ten weeks without a cigarette!", CHANGE),
        (SAME_READ, "我爱喝酒。", "我半年没喝酒了", CHANGE),
        (SAME_READ, "I drink wine most nights.", "I don't drink at weekends anymore.", OTHER),  # a circumstance
        (CHANGE_READ, "我在小学教数学。", "我不教二年级了，今年带五年级。", OTHER),  # a grade, no span
        # Since when or how long a fact has held is no new value of it, and in its own words it is that fact again.
        (SAME_READ, "I live in Oslo.", "I've lived in Oslo since 2017.", SAME),
        (SAME_READ, "I bank with Monzo.", "I've banked with Monzo since last March.", SAME),
        (CHANGE_READ, "I'm a nurse.", "I've been a nurse since 2009.", SAME),
        (SAME_READ, "I'm a teacher.", "I've been a teacher for 12 years.", SAME),  # how long: no new number
        (CHANGE_READ, "I live in York.", "I've lived in Hull for 2 years.", CHANGE),
        (CHANGE_READ, "I eat anything.", "I've been vegan since January.", CHANGE),  # a state of another
        (CHANGE_READ, "I live in Oslo.", "Since June I've been living in Bergen.", CHANGE),  # another value
        # What a statement opens with took the values it names; an ending of what the fact names by its name is one.
        (CHANGE_READ, "我是Java程序员。", "我们项目从Maven换成Gradle了。", OTHER),
        (CHANGE_READ, "I play guitar in a band.", "Our drummer quit, so we're auditioning.", OTHER),
        (CHANGE_READ, "I bank with Monzo.", "I moved all my accounts over to Starling.", CHANGE),
        (SAME_READ, "I bank with Nationwide.", "I closed my Nationwide account.", CHANGE),
    ],
)
def test_a_reading_weighed_by_structure(p: dict[str, float], old: str, new: str, verdict: str) -> None:
    assert _verdict(p, old, new) == verdict


def test_two_decisions_and_anothers_change_are_no_change() -> None:
    assert _verdict(CHANGE_READ, "We decided to use Postgres.", "We decided to keep staging.", decisions=True) == OTHER
    assert _verdict(CHANGE_READ, "We decided to use Postgres.", "We decided on MySQL.", decisions=True) == CHANGE
    assert _verdict(CHANGE_READ, "My sister lives in Rome.", "My sister lives in Milan.", another=True) == OTHER


def test_a_clause_changes_nothing_when_the_whole_names_the_value_as_still_holding() -> None:
    assert not reading.a_clause_may_change("I live in Brixton.", "Home is Brixton, in south London.")
    assert reading.a_clause_may_change("My manager is Claire.", "Claire left, so my manager is Hassan now.")
    assert reading.a_clause_may_change(
        "I cycle to work on my Brompton.", "My Brompton got stolen, so I take the bus to work now."
    )
    assert reading.a_clause_may_change("I live in Brixton.", "I love it here, the rent is fine.")  # names nothing
    # A whole that only denies what the memory does not name: none of its clauses changes it.
    assert not reading.a_clause_may_change("我在学尤克里里。", "好久没碰琴了，手都生了")
    assert reading.a_clause_may_change("我在学尤克里里。", "我已经不学了，手都生了")  # a change since, in words
    # A whole that tells another thing's change: its clauses are that thing's.
    assert not reading.a_clause_may_change("我住在青岛。", "我们家换了宽带，现在用电信的")


def _found(memory: str, kind: str, p: float = 0.9) -> reading.Found:
    return ({"id": memory, "content": "Please keep your answers short."}, kind, p)


def test_a_change_of_the_whole_that_a_clause_says_again_and_none_changes_is_none() -> None:
    text = "Short answers please, bullet points are fine."
    whole = _found("m1", CHANGE)
    assert reading.in_whole_or_part(text, whole, [_found("m1", SAME), None]) is None  # the same, with more
    assert reading.in_whole_or_part(text, whole, [_found("m1", SAME), _found("m1", CHANGE)]) == whole
    assert reading.in_whole_or_part(text, whole, [_found("m2", SAME), None]) == whole  # another memory's
    assert reading.in_whole_or_part(text, whole, [None, None]) == whole
    # A whole that says it changed, or holds now, keeps its change: its clause alone lost that.
    told = "I eat meat again these days, veggie life wasn't for me."
    assert reading.in_whole_or_part(told, whole, [_found("m1", SAME), None]) == whole
    assert reading.in_whole_or_part("我现在有男朋友了，他叫阿杰。", whole, [_found("m1", SAME), None]) == whole


def test_a_clause_says_a_memory_again_when_sure_and_denying_as_the_memory_does() -> None:
    own = ["Nuts are dangerous for me", "I carry an EpiPen"]
    allergy = ({"id": "m1", "content": "I'm allergic to nuts."}, SAME, 0.9)
    assert reading.said_again_in_part(own, [allergy, None]) == (allergy, "Nuts are dangerous for me")
    surer = ({"id": "m2", "content": "I carry an EpiPen."}, SAME, 0.95)
    assert reading.said_again_in_part(own, [allergy, surer]) == (surer, "I carry an EpiPen")
    unsure = ({"id": "m1", "content": "I'm allergic to nuts."}, SAME, 0.3)
    assert reading.said_again_in_part(own, [unsure, None]) is None
    changed = ({"id": "m1", "content": "I'm allergic to nuts."}, CHANGE, 0.9)
    assert reading.said_again_in_part(own, [changed, None]) is None
    no_fish = ({"id": "m3", "content": "I don't eat fish."}, SAME, 0.9)  # read alike, but one denies
    assert reading.said_again_in_part(["I've come round to fish", "I eat salmon most weeks"], [None, no_fish]) is None
    deaf = ({"id": "m4", "content": "I'm deaf in my left ear."}, SAME, 0.9)  # a limitation told by a denial
    own = ["I can't hear on my left side", "I prefer text over calls"]
    assert reading.said_again_in_part(own, [deaf, None]) == (deaf, "I can't hear on my left side")
    teetotal = ({"id": "m5", "content": "I don't drink."}, SAME, 0.9)  # one value said outright, denied in one
    assert reading.said_again_in_part(["I'm teetotal", "Mocktails only"], [teetotal, None]) == (
        teetotal,
        "I'm teetotal",
    )


def test_a_clause_finds_only_a_change_and_only_when_the_whole_finds_nothing() -> None:
    text = "Short answers please, bullet points are fine."
    assert reading.in_whole_or_part(text, None, [_found("m1", SAME), None]) is None
    surer = _found("m2", CHANGE, 0.95)
    assert reading.in_whole_or_part(text, None, [_found("m1", CHANGE, 0.7), surer]) == surer
    same = _found("m1", SAME)
    assert reading.in_whole_or_part(text, same, [_found("m2", CHANGE)]) == same
    # Not a change of a memory another clause says again: the rest is more of it.
    assert reading.in_whole_or_part(text, None, [_found("m1", SAME), _found("m1", CHANGE)]) is None
    assert reading.in_whole_or_part(text, None, [_found("m1", SAME), surer]) == surer  # another memory


def test_a_clause_without_its_reason_finds_only_a_change_it_may_tell_alone() -> None:
    runs = {"id": "m1", "content": "I run every morning before work."}
    stopped = (runs, CHANGE, 0.8)
    assert reading.changed_without_reason(["I don't run anymore"], [stopped]) == stopped
    assert reading.changed_without_reason(["I don't run anymore"], [(runs, SAME, 0.9)]) is None
    assert reading.changed_without_reason(["I don't run anymore"], [None]) is None
    home = {"id": "m2", "content": "I live in Brixton."}  # the value named again as holding: no change alone
    assert reading.changed_without_reason(["Home is Brixton"], [(home, CHANGE, 0.9)]) is None


@pytest.mark.parametrize(
    ("clause", "owned"),
    [
        ("I've got a new car now", True),
        ("an iPhone 15", False),  # a name put after the clause before it: no statement to compare alone
        ("my sister moved to Leeds", False),  # another's
        ("let's do a risotto instead", False),  # a proposal
    ],
)
def test_a_clause_is_compared_alone_only_when_it_states_the_users_own(clause: str, owned: bool) -> None:
    assert Consolidator._owns(clause) is owned


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I use a Samsung Galaxy S22.", "my phone just updated to Android 14 overnight"),
        ("我用的是华为Mate 60", "手机系统更新到鸿蒙4了"),
    ],
)
def test_a_thing_brought_to_a_new_version_changes_no_fact(old: str, new: str) -> None:
    weighed = reading.weighed(CHANGE_READ, old, new, decisions=False, another=False)
    assert weighed is not None
    assert weighed[CHANGE] == 0.0

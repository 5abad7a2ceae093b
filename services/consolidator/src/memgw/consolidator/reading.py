"""What the relation model's reading of a pair (an older memory of the user's, a newer statement) comes to
once the structure of the two is weighed (``structure.py``, ``conflicts.py``). The vectors tell how near
two statements are in meaning; they do not tell whose they are, whether a value is new, whether something
ended or was only taken up. Each rule below moves the reading where the words settle it, and leaves it to
the model where they do not. A pure function of the two texts and the model's probabilities."""

from __future__ import annotations

import re
from typing import Any

from memgw.common.formation import statuses, structure
from memgw.consolidator import relation
from memgw.consolidator.conflicts import (
    another_value,
    kept_values,
    kinds,
    named_values,
    new_values,
    other_kinds,
    the_same_value,
)

# How sure the reading must be that a statement says a memory again (it merges as evidence) or changes it
# (a person reviews it): a false review costs a person's attention, so a change asks more.
SAME_AT = 0.5
CHANGE_AT = 0.6
# How sure the reading of one clause must be that it says a memory again: a clause is read with less around it
# than a whole statement, so it asks as much as a change does.
SAME_IN_PART_AT = CHANGE_AT

Reading = dict[str, float]


def weighed(p: Reading, old: str, new: str, *, decisions: bool, another: bool) -> Reading | None:
    """``p`` (same, change, other) for ``new`` beside ``old``, weighed by their structure; None when the
    two are never one fact (where the user lives beside where they work). ``decisions``: both are a team's
    decisions; ``another``: one of them is about someone else.

    Never the same again when ``new`` names a value ``old`` does not (a number, an email, a name) or tells of a change
    ``old`` does not ("I moved out of …" beside "I live with my parents"), nor when it turns ``old`` around
    ("我不在杭州了"), nor when it denies having what ``old`` has ("I don't have children" beside "I have two kids").
    Never a change when ``new`` only denies ("I don't eat meat or fish" beside "I'm a vegetarian"), names ``old``'s
    value again without telling a change ("Work at Spotify has been hectic", "Home is Brixton, in south London"), only
    takes something up ("I started buying organic vegetables" beside "I'm vegetarian"), or, naming no value of either,
    is another decision of a team ("We decided to keep the staging cluster" beside "We decided to use Postgres") or a
    change done to a thing ("I changed the tyres on my car"); nor when the thing changed is, naming no new value, one
    of what ``old`` names ("the Civic's brakes"), or another thing of the user's life ("我们小区换了新物业" beside
    "我住在西安"), or the news of what ``old`` names ("钉钉又改版了" beside "我工作用钉钉") unless it gives a dated fact
    another date; nor a move between teams of the employer ``old`` names, nor a plan beside what holds, nor what is
    said to hold still, nor a change denied ("I'm not moving to Berlin after all"), nor what holds for a while only
    ("I'm in Rome until Sunday"), nor a feeling about ``old`` ("I don't like London anymore"), nor a denial of only a
    circumstance of it (``_what_a_denial_does``) that names no new number or address, nor when ``new`` names no new
    value and its words could tell no change at all (``structure.may_tell_a_change``: "I'm on nights this month"
    beside "I'm a nurse"; a number or a day counts as a value only beside a fact that names one), nor, beside an
    address, a handle or a phone number, when it names no other, tells no change of that contact and denies nothing
    ("我邮箱满了", "我手机屏幕摔碎了，换了个屏"; "I changed my number" is its change, however the vectors read it), nor
    of a past ``old`` tells of ("我以前在北京住过三年" beside "我现在住在天津": both hold), nor a switch to a thing of
    another kind ("我换了个工位" beside "我在腾讯上班"), nor, naming no new value, what has held for long ("I've been
    plant-based for years" beside "I'm vegan"), a denial of what ``old`` does not name ("我三个星期没休息了" beside
    "我是老师"), an end or a denial beside an end or a denial it agrees with ("eight months smoke-free now" beside "I
    quit smoking last year"), a return to what ``old`` names ("First week back at Deloitte" beside "I work at
    Deloitte"), or a change of a thing ``new`` calls the user's by a name ``old`` does not ("I switched my Duolingo
    to the Mexican course" beside "I'm learning Spanish"). Never the same again when
    ``new`` tells what was done to a thing and ``old`` does not. A denial of ``old`` in its own words ends it. Since
    when or how long ``old`` has held, in its own words, says it again ("I've lived in Oslo since 2017", "I've been a
    nurse for 15 years"): the date or the count is no new value of a fact that names none; so do saying it holds still
    in its own words ("still in Bristol"), that what it ended stays ended ("I don't drink" beside "I stopped drinking"),
    and the state a move it tells began ("I live in Oslo" beside "I moved to Oslo in 2019"). How the user came to
    where they are changes nothing ("I moved here from Leeds"): where a move came from is no new value.
    Another's change is never the user's to review."""
    if other_kinds(old, new):
        return None
    same, change, other = p[relation.SAME], p[relation.CHANGE], p[relation.OTHER]
    one_fact = same + change >= other  # the model: the same fact
    # Where a trip is going is no value of a fact ("I'm changing trains at Crewe on my way to Glasgow").
    # Nor is where a move came from ("I moved here from Leeds").
    values = new_values(old, new) - structure.destinations(new) - structure.origins(new)
    kept = kept_values(old, new)
    # A number or a time is a new value of a fact that names one; beside one that names none, it counts or dates
    # something else ("I passed my grade 5 piano exam" beside "I'm learning the piano", "I took the dogs to the
    # beach on Sunday" beside "I have two dogs", "I moved our weekly sync to Friday" beside "I work for Siemens").
    timed = any(_a_number_or_time(v) for v in named_values(old))
    if not timed:  # nor is since when or how long it has held ("since 2019", "for 15 years")
        held = set(structure.how_long_held(new))
        values = {v for v in values if not (_a_number_or_time(v) and v in held)}
    told = values if timed else {v for v in values if not _a_number_or_time(v)}
    same_kind = bool(kinds(old) & kinds(new))  # both where the user lives, or both where they work
    # Another number, address or handle of the same fact is a new value of it (a phone number, an email);
    # another name may be a new value or more detail.
    a_number = any(_a_number(v) or structure.an_address(v) for v in values)
    if values:
        same, change = 0.0, change + (same if a_number else 0.0)  # never the same
    if not values and (
        structure.held_since(old, new)
        or structure.says_again_as_it_holds_still(old, new)
        or structure.says_again_as_it_stays_ended(old, new)
        or _the_state_it_began(old, new)
        or (one_fact and _held_for_long_as_said(old, new))
    ):
        # Said again, however the model reads the two: since when or how long it has held ("I've been vegetarian
        # since 2015" beside "I'm vegetarian"), that it holds still ("still in Bristol"), that what ended stays ended
        # ("I don't drink" beside "I stopped drinking two years ago"), or the state a move began ("I live in Oslo"
        # beside "I moved to Oslo in 2019").
        same, change = same + change, 0.0
    if structure.moved_here(new):
        change = 0.0  # how the user came to where they are ("I moved here from Leeds six years ago")
    denial = _what_a_denial_does(old, new)
    if denial == ENDS:
        # Denied in its own words and no more, with the aspect of a change ("I'm not a member of the Green Party
        # anymore", "我现在不当私教了"): its end, however the model reads the two, unless a rule below says not.
        change = max(same + change, CHANGE_AT)
    if denial is not None:
        same = 0.0  # denied in its own words, whatever else: never said again ("我晚上不开车了" beside "我开车上班")
    another_changed = structure.changes_another_thing(old, new)
    changed = structure.says_it_changed(new) and not another_changed
    if kept and not a_number and not changed and not (told and structure.holds_now(new)):
        # The older value named again, no change told, or one of another thing: it still holds ("Home is Brixton, in
        # south London", "I'm changing trains at Crewe"), unless a number comes with it ("New WhatsApp number: …":
        # the name was the attribute's), or a new value said to hold now ("said goodbye to the Fiesta, I'm driving
        # a Kia Picanto now").
        change = 0.0
    if not values and structure.only_takes_up(old, new) and not same_kind:
        change = 0.0  # taking something up beside a fact adds to it, unless it is where they live or work
    # Done to what ``old`` names, putting another in its place, is its new value ("我把小米手机换成苹果了").
    done_to = structure.done_to_a_thing(new) and not structure.replaces_what_it_names(old, new)
    if not (told or kept) and (decisions or done_to):
        change = 0.0
    # Done to a thing of the user's that ``new`` names and ``old`` does not, what it names is that thing's ("I
    # switched my Duolingo to the Mexican course" beside "I'm learning Spanish").
    if done_to and not kept and values & structure.named_things_done_to(new):
        change = 0.0
    # What was done to a thing is not having it said again ("我给电脑升级了显卡" beside "我有一台游戏本").
    if done_to and not structure.done_to_a_thing(old):
        same = 0.0
    # Another thing of the user's life, unless a new value goes where ``old`` names one ("I moved all my accounts
    # over to Starling" beside "I bank with Monzo") and the thing the statement opens with is not what took it
    # ("我们项目从Maven换成Gradle了" beside "我是Java程序员": the project's values).
    another_thing = another_changed and not (values and named_values(old) and not structure.a_things_change(new))
    if (not values and structure.done_to_a_thing_of(old, new)) or another_thing:
        change = 0.0  # a thing of what ``old`` names, or another thing of the user's life
    if structure.moves_within(old, new):
        change = 0.0  # another team of the same employer
    if structure.news_of_what_it_names(old, new) and not (told and _dated(old) and _dated(new)):
        # "钉钉又改版了" beside "我工作用钉钉": the news of what the fact names, unless it gives another date of the
        # dated fact ("论文截止时间推迟到7月15号了" beside "我的论文6月1号截止")
        change = 0.0
    not_yet, feels = _changes_nothing_yet(old, new), structure.feels_about_what_holds(old, new)
    if not_yet:
        change = 0.0
    if feels:
        change = 0.0  # "I don't like London anymore" beside "I live in London"
    if denial == NARROWS and not a_number:
        change = 0.0  # unless a new number or address comes with it ("I don't check the outlook one anymore, use …")
    if structure.denies_without_change(old, new):
        change = 0.0  # the same fact the other way round, or one for both to keep
        if structure.denies_having(old, new):
            same = 0.0  # a contradiction the vectors read as the same fact
    if structure.turns_around(old, new):
        # What held one way now holds the other: never said again. A change only as the model reads one
        # ("I don't eat meat these days" may be "I'm vegetarian"), or when what was denied now holds in the
        # same words ("我现在也吃猪肉了" beside "我不吃猪肉"), or what held is denied in its own words ("I'm not a
        # member of the Green Party anymore"), however alike the model reads them.
        renamed = denial == RENAMES_IT and not feels
        change += same if structure.takes_back_a_denial(old, new) or renamed else 0.0
        same = 0.0
    if structure.event_beside_state(old, new):
        # Read as that very fact, an ending of it is its change ("I quit" beside "I smoke"): never lost in it.
        ended = same + change if structure.ends_a_state(new) else 0.0
        same, change = 0.0, max(change, ended)
        # The same fact told as an event with a new value: "from X to Y" (X the old one), one the model
        # already leans to reading as a change ("We moved to Aberdeen" beside "I live in …"), or a move of
        # where the user lives or works ("We bought a house in Chorlton and moved in" beside "I rent a flat in
        # Hulme").
        if values and not not_yet and ((one_fact and (kept or change > other)) or same_kind):
            change = max(change, CHANGE_AT)
        # Chinese names no place with a capital: a move of the user's own to another place is told by where
        # it goes ("我们全家上个月搬到大理去了" beside "我跟我老婆住在昆明"), unless it moves a thing
        # ("我把书房搬到了次卧") or is only a plan.
        own = structure.about_user(new) and not structure.about_someone_else(new)
        moved = same_kind and own and not (done_to or not_yet)
        if moved and another_value(old, new):
            change = max(change, CHANGE_AT)
    if structure.ends_what_it_names(old, new) and not not_yet:
        # An ending of what ``old`` names, by its name, is its end ("Tom and I called it quits" beside "I'm seeing
        # Tom", "我和李娜去年离了" beside "我老婆叫李娜", "I ditched Chrome for Firefox" beside "I use Chrome").
        same, change = 0.0, max(change, CHANGE_AT)
    if not told and structure.denies_another_thing(old, new):
        change = 0.0  # "我三个星期没休息了" beside "我是老师": it denies what the fact does not name
    if not told and structure.agrees_in_ending(old, new):
        change = 0.0  # "eight months smoke-free now" beside "I quit smoking last year": it stays ended
    if not told and structure.returns_to_what_it_names(old, new, kept):
        change = 0.0  # "First week back at Deloitte after my leave" beside "I work at Deloitte": it holds again
    # What an episode names is the episode's ("I had an interview at PwC on Tuesday" beside "I work at Deloitte"),
    # unless its day may be the new value of a fact that names one ("划船从周一挪到了周五").
    episode = structure.an_episode(new) and not timed
    if episode or not (told or another_value(old, new)):
        if not structure.may_tell_a_change(old, new):
            change = 0.0  # the vectors alone never open a review ("I'm on nights this month" beside "I'm a nurse")
    if structure.changes_the_contact(old, new):
        same, change = 0.0, max(change, CHANGE_AT)  # "I changed my number" beside "My number is …"
    if any(structure.an_address(v) for v in named_values(old)) and not (
        values or structure.changes_a_contact(new) or structure.denies(old) != structure.denies(new)
    ):
        # An address or a number is changed by another, or said to be ("我邮箱满了" is neither, nor is "换了个屏": the
        # phone's, not the number's).
        change = 0.0
    same, change = _weighed_by_status(same, change, old, new, told=bool(values), not_yet=not_yet)
    # Another's change is never the user's to review; a past ("我以前在北京住过三年") held then, and still did; a value
    # given to a part of what ``old`` names is the part's ("I changed the VS Code font to JetBrains Mono"); a switch
    # to a thing of another kind is that thing's ("I switched to a new vegan bakery" beside "I'm vegan"); a thing
    # brought to a new version stays that thing ("my phone just updated to Android 14" beside "I use a Galaxy S22");
    # someone new around the user is their arrival ("we've got a new head teacher" beside "I teach year 4").
    if (
        another
        or structure.in_the_past(old)
        or structure.sets_a_part_of(old, new)
        or structure.switches_to_another_thing(old, new)
        or structure.updates_a_thing(new)
        or structure.someone_new_arrives(old, new)
    ):
        change = 0.0
    if not values and structure.held_for_long(new):
        change = 0.0  # "I've been plant-based for years" beside "I'm vegan": it held then too
    return {relation.SAME: same, relation.CHANGE: change, relation.OTHER: other}


def _weighed_by_status(
    same: float, change: float, old: str, new: str, *, told: bool, not_yet: bool
) -> tuple[float, float]:
    """(same, change) once the user's attributes of one value at a time are weighed (``statuses.py``: a
    relationship, a diet, drinking or not): the vectors read one value beside another as the same fact said again
    ("我有男朋友了" beside "我单身", "I've started having a beer at weekends" beside "I don't drink"), and a turned
    polarity as the same in other words. Another value is a change, never the same again: said outright in both,
    the words settle it ("我们已经分开了" beside "我有男朋友"); taken for granted in one ("my girlfriend and I …"),
    it is as sure as a change must be. A value said alone, naming nothing else, is said again only by a value or by
    what speaks of its kind in words the forms do not know ("酒我是不碰的" beside "我不喝酒"), never by what does not
    ("I'm the best man!" beside "I'm single") nor by what denies it ("vegan didn't work for me" beside "I'm vegan");
    and changed only by another value, by a change told ("she left me" beside "I'm married"), or by what speaks of
    its kind as holding now or denying it ("I've gone back to eating dairy and eggs, vegan didn't work for me"); not
    by the same value ("我和老公吵架了" beside "我结婚了") nor by what only speaks of its kind ("公司年会大家都在拼
    酒，我喝的果汁" beside "我不喝酒"). The same value said alone is the same again."""
    for attribute in statuses.ATTRIBUTES:
        was, now = attribute.of(old), attribute.of(new)
        if was is not None and now is not None and was != now:
            outright = attribute.said(old) is not None and attribute.said(new) is not None
            return 0.0, change if not_yet else max(change, 1.0 if outright else CHANGE_AT)
        if was is not None and was == now and attribute.said_alone(new) and not told:
            # The same value, said alone: the words settle it ("我不喝酒" beside "我滴酒不沾").
            return 1.0, 0.0
        if attribute.said_alone(old) and not told:
            of_its_kind = attribute.speaks_of(new)
            denied = structure.denies(new) and not structure.denies(old)  # "vegan didn't work for me"
            tells = structure.says_it_changed(new) or (of_its_kind and (structure.holds_now(new) or denied))
            again = now is not None or (of_its_kind and not denied)
            return (same if again else 0.0), (change if now is None and tells else 0.0)
    return same, change


def _held_for_long_as_said(old: str, new: str) -> bool:
    """Whether ``new``, telling no change, says that what it states has held for long, and neither denies ("吃素好几
    年了" beside "我是素食主义者", "I've been plant-based for years" beside "I'm vegan"): read as one fact with
    ``old``, it held then and holds still, so it is that fact said again, in words of its own."""
    return structure.held_for_long(new) and not (structure.denies(new) or structure.denies(old))


def _the_state_it_began(old: str, new: str) -> bool:
    """Whether ``new`` states, telling no change and denying nothing, the value a beginning ``old`` tells gave where
    the user lives or works, or their name ("I live in Oslo" beside "I moved to Oslo in 2019"; not beside "I moved out
    of Oslo")."""
    began = structure.tells_a_change(old) and not structure.ends_a_state(old)
    told = structure.says_it_changed(new) or structure.denies(new) or structure.intends(new)
    return began and not told and the_same_value(old, new)


_TIME = re.compile(
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|jan(?:uary)?|feb(?:ruary)?|march|april|may|june|july|aug(?:ust)?"
    r"|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|christmas|easter",
    re.IGNORECASE,
)


def _a_number(value: str) -> bool:
    """A number or a phone number; not a name with a digit in it ("T1D", "XC60")."""
    return value[:1].isdigit()


def _a_number_or_time(value: str) -> bool:
    return _a_number(value) or bool(_TIME.fullmatch(value))


# A date or a day in Chinese ("6月1号", "15日", "周三"); English names its months and days (``_TIME``).
_DATE_ZH = re.compile(r"\d{1,2}月(?:\d{1,2}[日号])?|\d{1,2}[日号]|(?:周|星期|礼拜)[一二三四五六日天]")


def _dated(text: str) -> bool:
    """Whether ``text`` names a date or a day ("due on 1 June", "6月1号截止"): not any number (the 3 of "马自达3")."""
    return bool(_DATE_ZH.search(text)) or any(_TIME.fullmatch(v) for v in named_values(text))


# (memory, relation, probability): what a statement, or a clause of it, is to one of the user's memories.
Found = tuple[dict[str, Any], str, float]


def in_whole_or_part(text: str, whole: Found | None, parts: list[Found | None]) -> Found | None:
    """What ``text`` is to the user's memories, given what it is as a whole and what each of its clauses is:
    the whole's reading, or failing one, the surest change a clause may tell (``a_clause_may_change``). A
    clause never finds the same again: that is judged on the whole, so no detail is lost in a merge. A change
    the whole reads is none when a clause says the memory again and none changes it ("Short answers please,
    bullet points are fine" beside "Please keep your answers short"), and so is a change a clause reads when
    another says that memory again ("咖啡我一口都不能喝，一喝就心跳加速" beside "我不喝咖啡，喝了心慌"): the same
    with something more; not when the whole says it changed or holds now ("I eat fish and eggs again these days,
    vegan didn't work for me", "我现在有女朋友了，她叫小雅" beside "我单身"): a clause read alone loses that."""
    changes = [f for f in parts if f and f[1] == relation.CHANGE and a_clause_may_change(f[0]["content"], text)]
    if whole is None:
        changes = [f for f in changes if not _said_again_by_a_clause(f[0]["id"], text, parts)]
        return max(changes, key=lambda f: f[2], default=None)
    if whole[1] == relation.CHANGE:
        of_it = whole[0]["id"]
        if _said_again_by_a_clause(of_it, text, parts) and not any(f[0]["id"] == of_it for f in changes):
            return None
    return whole


def _said_again_by_a_clause(memory_id: str, text: str, parts: list[Found | None]) -> bool:
    """Whether a clause of ``text`` says the memory again, and the whole tells no change nor what holds now."""
    said_again = any(f and f[1] == relation.SAME and f[0]["id"] == memory_id for f in parts)
    return said_again and not _tells_now(text)


def changed_without_reason(cores: list[str], found: list[Found | None]) -> Found | None:
    """The surest change a clause tells once the reason it gives is dropped (``structure.without_reason``: "I
    don't run anymore" of "I don't run anymore cause my doctor told me to stop"), each judged as if said alone:
    the reason reads to the rules as a circumstance the denial narrows, and to the vectors as another fact."""
    changes = [
        f
        for core, f in zip(cores, found, strict=True)
        if f and f[1] == relation.CHANGE and a_clause_may_change(f[0]["content"], core)
    ]
    return max(changes, key=lambda f: f[2], default=None)


def said_again_in_part(own: list[str], parts: list[Found | None]) -> tuple[Found, str] | None:
    """The surest memory one of the statement's own clauses says again, with that clause ("我是写代码的" of
    "我是写代码的，天天对着电脑" beside "我的工作是程序员"): for when the whole is nothing to any memory, nor
    a clause a change of one. Not a clause that no longer denies what the memory denies ("I eat salmon most
    weeks" of "I've come round to fish, …" beside "I don't eat fish"): read without the rest of the statement,
    the vectors lose the difference, unless both say one value of the user's outright ("I'm teetotal" of "I'm
    teetotal, so mocktails only" beside "I don't drink": ``statuses.the_same_said``). A limitation told by a denial
    may be the memory's ("I can't hear on my left side" beside "I'm deaf in my left ear")."""
    said = [
        (f, c)
        for f, c in zip(parts, own, strict=True)
        if f
        and f[1] == relation.SAME
        and f[2] >= SAME_IN_PART_AT
        and not (
            structure.denies(f[0]["content"])
            and not structure.denies(c)
            and not statuses.the_same_said(f[0]["content"], c)
        )
    ]
    return max(said, key=lambda found: found[0][2], default=None)


def a_clause_may_change(old: str, whole: str) -> bool:
    """Whether a clause of ``whole`` may stand as a change of ``old``: not when the whole names ``old``'s value
    again as still holding, telling no change and nothing that holds now ("Home is Brixton, in south London"
    beside "I live in Brixton"; but "My Brompton got stolen, so I take the bus to work now"), nor when it only
    denies what ``old`` does not name ("好久没练琴了，手都生了" beside "我在学吉他"), nor when it tells another thing's
    change ("我们家换了宽带，现在用电信的" beside "我住在青岛": the broadband is Telecom's now, not the user)."""
    if _changes_nothing_yet(old, whole) or _what_a_denial_does(old, whole) == NARROWS:
        return False  # whatever its clauses say ("I don't drive to work anymore, I take the train")
    if structure.denies_another_thing(old, whole):
        return False  # nor when the whole only denies what ``old`` does not name ("好久没练琴了，手都生了")
    if structure.changes_another_thing(old, whole):
        return False  # nor when the whole tells another thing's change ("我们家换了宽带，现在用电信的")
    return not kept_values(old, whole) or _tells_now(whole)


def _tells_now(text: str) -> bool:
    """Whether ``text`` says something changed, or holds now: what a clause read alone loses."""
    return structure.says_it_changed(text) or structure.holds_now(text)


def _changes_nothing_yet(old: str, new: str) -> bool:
    """A plan beside what holds ("I'm planning to move to Shanghai" beside "I live in Suzhou"; a plan beside a
    plan may change it), what is said to hold still ("我还在北京读博士，论文快写完了"), a change denied ("I'm not
    moving to Berlin after all"), or what holds for a while only ("I'm in Rome until Sunday" beside "I live in
    Oxford")."""
    planned = structure.intends(new) and not structure.intends(old)
    return planned or structure.goes_on(new) or structure.denies_a_change(new) or structure.for_a_while(new)


ENDS, RENAMES_IT, NARROWS = "ends", "renames it", "narrows"


def _what_a_denial_does(old: str, new: str) -> str | None:
    """What ``new``, denying ``old`` in ``old``'s own words, does to it: ENDS it when it adds nothing to them
    ("I'm not a member of the Green Party anymore"), or only another verb of where the user lives or works,
    by the place ``old`` names ("I don't live in Leith anymore" beside "I rent a room in a shared house in
    Leith"); RENAMES_IT when what it adds is only another verb before them, or says where the user lives or
    works ("I don't work at Google anymore" beside "I'm a product manager at Google", "The user no longer
    drinks tea" beside "The user prefers tea"), an end as far as the model reads one fact; else only NARROWS
    it, denying a circumstance ``old`` does not state ("I don't work weekends anymore" beside "I work at
    Tesco", "I don't take the Northern line at rush hour anymore" beside "I take the Northern line to work").
    None when ``new`` is no such denial."""
    adds = structure.what_a_denial_adds(old, new)
    if adds is None:
        return None
    if not (adds.renaming or adds.narrowing):
        return ENDS
    if not adds.narrowing and kinds(old) & kinds(new) and kept_values(old, new):
        return ENDS  # where the user lives or works, by its name ("I don't live in Leith anymore")
    return RENAMES_IT if not adds.narrowing or kinds(new) else NARROWS

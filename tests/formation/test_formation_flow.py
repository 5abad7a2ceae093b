"""Formation end to end: a commit keeps what the user said about themselves and nothing of the
assistant's chatter; the README's round trip promotes its fact; mem0's add forms memory the same way."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import System

README = Path(__file__).resolve().parents[2] / "README.md"


async def _commit(system: System, key: str, content: str, *, min_importance: float = 0.6) -> dict[str, Any]:
    h = system.auth(key)
    sid = f"s_{uuid.uuid4().hex[:8]}"
    assert (
        await system.client.post("/v1/episodes", json={"session_id": sid, "content": content}, headers=h)
    ).is_success
    answer = await system.client.post(
        f"/v1/sessions/{sid}/commit?wait=true", json={"promote": True, "min_importance": min_importance}, headers=h
    )
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


async def _contents(system: System, key: str, *statuses: str) -> list[str]:
    params = [("status", s) for s in statuses or ("active",)]
    listed = await system.client.get("/v1/memory", params=params, headers=system.auth(key))
    return [m["content"] for m in listed.json()["items"] if m["visibility"] != "global"]  # others' tests write global


async def test_the_readme_round_trip_promotes_the_users_fact_and_nothing_of_the_assistant(system: System) -> None:
    [line] = [ln for ln in README.read_text().splitlines() if "/v1/episodes" in ln and "sess_001" in ln]
    body = json.loads(re.search(r"-d '(.+)'$", line).group(1))  # type: ignore[union-attr]
    key = await system.user(f"rt_{uuid.uuid4().hex[:6]}")
    committed = await _commit(system, key, body["content"])
    assert len(committed["promoted"]) == 1, committed
    assert await _contents(system, key) == ["我对花生过敏，推荐菜谱时请避开。"]


async def test_small_talk_and_the_assistants_lines_leave_nothing(system: System) -> None:
    key = await system.user(f"st_{uuid.uuid4().hex[:6]}")
    conversation = (
        "User: What a grey morning, it's drizzling again.\n"
        "Assistant: I love rainy days! I prefer tea when it rains, and I live in the cloud.\n"
        "User: Can you suggest a podcast for the commute?\n"
        "Assistant: Sure, I decided to recommend 'The Daily'."
    )
    committed = await _commit(system, key, conversation)
    assert committed["promoted"] == []
    assert await _contents(system, key, "active", "candidate") == []


async def test_mem0_add_with_infer_keeps_the_users_facts_only(system: System) -> None:
    uid = f"m0f_{uuid.uuid4().hex[:6]}"
    key = await system.user(uid)
    messages = [
        {"role": "user", "content": "I'm a paramedic and I work night shifts."},
        {"role": "assistant", "content": "I'm allergic to nothing, I'm an AI. Noted about your shifts!"},
        {"role": "user", "content": "Thanks!"},
    ]
    added = await system.client.post(
        "/mem0/v3/memories/add/", json={"messages": messages, "user_id": uid}, headers={"Authorization": f"Token {key}"}
    )
    assert added.status_code == 200, added.text
    assert [r["memory"] for r in added.json()["results"]] == ["I'm a paramedic and I work night shifts."]


async def _said_after(system: System, first: str, then: str) -> tuple[str, dict[str, Any]]:
    """A new user's key, and what committing ``then`` did after ``first`` (a session each)."""
    key = await system.user(f"sa_{uuid.uuid4().hex[:6]}")
    await _commit(system, key, first)
    return key, await _commit(system, key, then)


async def _active(system: System, key: str) -> list[dict[str, Any]]:
    listed = await system.client.get("/v1/memory", headers=system.auth(key))
    return [m for m in listed.json()["items"] if m["visibility"] != "global"]  # other tests write global ones


async def test_a_new_value_of_a_single_valued_attribute_is_a_change_a_past_is_not(system: System) -> None:
    key = await system.user(f"ch_{uuid.uuid4().hex[:6]}")
    await _commit(system, key, "My email is ann@old.example.")
    changed = await _commit(system, key, "My email is now ann@new.example.")
    assert len(changed["reviews"]) == 1, changed

    other = await system.user(f"ch_{uuid.uuid4().hex[:6]}")
    await _commit(system, other, "I live in Manchester.")
    past = await _commit(system, other, "I used to live in Leeds as a kid.")
    assert past["reviews"] == []
    over = await _commit(system, other, "I lived in Edinburgh for two years during uni.")
    assert over["reviews"] == [], over
    assert "I live in Manchester." in [m["content"] for m in await _active(system, other)]


async def test_the_same_fact_in_other_words_is_evidence_on_the_one_memory(system: System) -> None:
    key = await system.user(f"sa_{uuid.uuid4().hex[:6]}")
    await _commit(system, key, "I work at Siemens in Munich.")
    again = await _commit(system, key, "I'm employed by Siemens in Munich.")
    assert len(again["merged"]) == 1, again
    [memory] = await _active(system, key)
    assert (memory["content"], memory["evidence_count"]) == ("I work at Siemens in Munich.", 2)


@pytest.mark.parametrize(
    ("first", "again", "kept"),
    [
        (
            "我的工作是程序员。",
            "我是写代码的，我养了一只叫豆豆的猫。",
            {"我的工作是程序员。": 2, "我养了一只叫豆豆的猫。": 1},
        ),
        (  # the role it is said in
            "I work as a midwife.",
            "As a midwife my weekends are never free.",
            {"I work as a midwife.": 2, "my weekends are never free.": 1},
        ),
        (  # a clause without the reason it gives, which goes on as a statement
            "I cycle to work most days.",
            "I bike to the office every day because I'm allergic to car fumes.",
            {"I cycle to work most days.": 2, "I'm allergic to car fumes.": 1},
        ),
        ("I never eat pork.", "I don't eat pork because I'm Muslim.", {"I never eat pork.": 2, "I'm Muslim.": 1}),
    ],
)
async def test_a_part_said_again_is_evidence_and_the_rest_a_statement_of_its_own(
    system: System, first: str, again: str, kept: dict[str, int]
) -> None:
    key = await system.user(f"sp_{uuid.uuid4().hex[:6]}")
    await _commit(system, key, first)
    said = await _commit(system, key, again)
    assert len(said["merged"]) == 1, said
    memories = {m["content"]: m["evidence_count"] for m in await _active(system, key)}
    assert memories == kept  # the rest not lost in the merge, and never the whole beside the memory


async def test_session_memory_does_not_leak_into_long_term_memory_unasked(system: System) -> None:
    """Seed 004's POC metric: what a session holds reaches long-term memory only through a commit that
    asks for it; uncommitted episodes and a commit with promote=false leave no standing memory."""
    key = await system.user(f"lk_{uuid.uuid4().hex[:6]}")
    h = system.auth(key)
    said = "I'm allergic to shellfish and I work as a ferry pilot."
    sid = f"s_{uuid.uuid4().hex[:8]}"
    assert (await system.client.post("/v1/episodes", json={"session_id": sid, "content": said}, headers=h)).is_success
    found = await system.client.post("/v1/memory/search", json={"query": "shellfish allergy ferry pilot"}, headers=h)
    assert [hit for hit in found.json()["results"] if hit["memory"]["visibility"] != "global"] == []
    unasked = await system.client.post(f"/v1/sessions/{sid}/commit?wait=true", json={"promote": False}, headers=h)
    assert unasked.status_code == 200, unasked.text
    assert unasked.json()["promoted"] == []
    assert await _contents(system, key) == []
    assert await _contents(system, key, "candidate") == [said]  # kept for later evidence, out of retrieval


async def test_someone_elses_fact_never_becomes_evidence_of_the_users(system: System) -> None:
    key = await system.user(f"se_{uuid.uuid4().hex[:6]}")
    await _commit(system, key, "I'm allergic to walnuts.")
    theirs = await _commit(system, key, "My daughter is allergic to walnuts too.")
    assert theirs["merged"] == theirs["reviews"] == [], theirs
    assert [m["evidence_count"] for m in await _active(system, key) if m["content"] == "I'm allergic to walnuts."] == [
        1
    ]


async def test_an_addition_or_an_imagined_change_neither_merges_nor_opens_a_review(system: System) -> None:
    """One more allergy is not the first one said again; a counterfactual career is not a change of it."""
    key = await system.user(f"ai_{uuid.uuid4().hex[:6]}")
    await _commit(system, key, "我对猫毛过敏。")
    more = await _commit(system, key, "我对尘螨也过敏。")
    assert more["merged"] == more["reviews"] == [], more
    await _commit(system, key, "我是程序员。")
    imagined = await _commit(system, key, "要是当初学了医，我现在可能是医生。")
    assert imagined["reviews"] == [], imagined
    assert {"我对猫毛过敏。", "我是程序员。"} <= set(await _contents(system, key))


async def test_a_proposal_in_a_clause_is_no_change(system: System) -> None:
    """ "let's do a risotto instead" reads to the model as a new diet beside "I'm a vegetarian", but a clause that
    proposes states nothing of the user's."""
    key = await system.user(f"pr_{uuid.uuid4().hex[:6]}")
    await _commit(system, key, "I'm a vegetarian.")
    proposal = await _commit(system, key, "I changed my mind about the curry, let's do a risotto instead.")
    assert proposal["reviews"] == [], proposal
    assert "I'm a vegetarian." in await _contents(system, key)


async def test_an_ending_told_as_one_more_is_still_compared(system: System) -> None:
    """ "As well" adds one more value, but an ending with it ends one: "I've ditched Chrome as well" beside "I
    use Chrome for everything" ends it by its name, and "I also like reggae" beside "I like jazz" adds."""
    key = await system.user(f"aw_{uuid.uuid4().hex[:6]}")
    await _commit(system, key, "I use Chrome for everything.")
    ended = await _commit(system, key, "I've ditched Chrome as well.")
    assert len(ended["reviews"]) == 1, ended
    await _commit(system, key, "I like jazz.")
    more = await _commit(system, key, "I also like reggae.")
    assert more["merged"] == more["reviews"] == [], more


async def test_the_end_of_a_state_the_model_reads_as_that_state_is_its_change(system: System) -> None:
    """ "I moved out of my parents' place" reads to the relation model much as "I live with my parents"
    said again; an ending beside the very state it ends is its change."""
    key = await system.user(f"en_{uuid.uuid4().hex[:6]}")
    await _commit(system, key, "I live with my parents.")
    ended = await _commit(system, key, "I moved out of my parents' place.")
    assert len(ended["reviews"]) == 1, ended


async def test_a_denial_that_tells_no_change_opens_no_review(system: System) -> None:
    """ "I don't go into an office" beside "I work remotely": the relation model reads one fact with a new
    value, but a denial names none, and nothing in it says anything changed."""
    key = await system.user(f"dn_{uuid.uuid4().hex[:6]}")
    await _commit(system, key, "I work remotely.")
    denied = await _commit(system, key, "I don't go into an office.")
    assert denied["reviews"] == [], denied
    assert "I work remotely." in await _contents(system, key)


async def test_denying_having_is_never_merged_as_the_same_fact(system: System) -> None:
    """ "I don't have children" beside "I have two kids" reads to the relation model as the same fact said
    again; merged, the user's newer word would be lost in the memory it contradicts."""
    key = await system.user(f"dh_{uuid.uuid4().hex[:6]}")
    await _commit(system, key, "I have two kids.")
    denied = await _commit(system, key, "I don't have children.")
    assert denied["merged"] == denied["reviews"] == [], denied
    assert [m["evidence_count"] for m in await _active(system, key) if m["content"] == "I have two kids."] == [1]


async def test_two_decisions_are_two_unless_one_names_the_others_value(system: System) -> None:
    """The relation model reads any two "we decided …" as one fact changed."""
    key = await system.user(f"dc_{uuid.uuid4().hex[:6]}")
    await _commit(system, key, "We decided to use Postgres.")
    other = await _commit(system, key, "We decided to keep the staging cluster.")
    assert other["reviews"] == [], other
    switched = await _commit(system, key, "We decided to switch from Postgres to MySQL.")
    assert len(switched["reviews"]) == 1, switched


async def test_a_change_done_to_a_thing_changes_no_fact_of_the_user(system: System) -> None:
    """ "I changed the tyres on my car" beside "I drive a VW Golf": the relation model reads a change,
    but the change was done to a part of the car, and names no other car. So with a thing of what the fact
    names, another thing of the user's life, or another team of the same employer."""
    for first, then in (
        ("I drive a VW Golf.", "I changed the tyres on my car last week."),
        ("I drive a Honda Civic.", "I had the Civic's brakes replaced yesterday."),
        ("我住在成都。", "我们小区最近换了新物业。"),
        ("我在腾讯做产品经理。", "我从微信团队调到了游戏部门。"),
    ):
        key, then_ = await _said_after(system, first, then)
        assert then_["reviews"] == [], (then, then_)
        assert first in await _contents(system, key)


async def test_where_the_user_lives_and_where_they_work_are_two_facts(system: System) -> None:
    """The embedder reads "I live in X" and "I work in X" alike; neither is the other said again or
    changed: no merge, no review, both kept."""
    for first, then in (("I work in Manchester.", "I live in Manchester."), ("我住在杭州。", "我在上海上班。")):
        key, second = await _said_after(system, first, then)
        assert second["merged"] == second["reviews"] == [], second
        assert {first, then} <= set(await _contents(system, key))


async def test_a_new_value_of_a_candidate_replaces_it_unreviewed(system: System) -> None:
    """A candidate is nobody's trusted memory yet: a new value archives it, with when it stopped holding."""
    key = await system.user(f"cc_{uuid.uuid4().hex[:6]}")
    h = system.auth(key)
    await _commit(system, key, "I live in Leicester.", min_importance=0.95)
    listed = await system.client.get("/v1/memory", params={"status": "candidate"}, headers=h)
    [old] = [m["id"] for m in listed.json()["items"] if m["visibility"] != "global"]
    moved = await _commit(system, key, "We moved to Aberdeen in the summer.")
    assert moved["reviews"] == [], moved
    archived = (await system.client.get(f"/v1/memory/{old}", headers=h)).json()
    assert archived["status"] == "archived"
    assert "valid_to" in archived["metadata"]


async def test_a_change_told_in_passing_is_a_change_and_a_mishap_of_today_is_nothing(system: System) -> None:
    """ "Sold the Mondeo, got a Kia Niro" has no subject and no rule, yet it changes what the user drives;
    "The Mondeo is in the garage again today" reads as near to a change, yet holds today only."""
    for first, sold, mishap in (
        ("I drive a Ford Mondeo.", "Sold the Mondeo, got a Kia Niro.", "The Mondeo is in the garage again today."),
        ("我开的是一辆大众帕萨特。", "帕萨特卖掉了，换了辆小鹏P7。", "今天帕萨特又进修理厂了。"),
    ):
        key = await system.user(f"tp_{uuid.uuid4().hex[:6]}")
        await _commit(system, key, first)
        passing = await _commit(system, key, mishap)
        assert passing["reviews"] == passing["promoted"] == [], passing
        assert await _contents(system, key, "active", "candidate", "needs_review") == [first]
        changed = await _commit(system, key, sold)
        assert len(changed["reviews"]) == 1, changed


async def test_a_doubted_statement_stands_only_as_a_memory_said_again(system: System) -> None:
    """ "护士这行不好干。" reads to the durable model as a complaint more than a fact, yet beside "我是护士。" it is
    the same fact said again: evidence on that memory. Said by a user with no such memory, it leaves nothing."""
    key = await system.user(f"db_{uuid.uuid4().hex[:6]}")
    await _commit(system, key, "我是护士。")
    again = await _commit(system, key, "护士这行不好干。")
    assert len(again["merged"]) == 1, again
    assert again["reviews"] == [], again
    assert [(m["content"], m["evidence_count"]) for m in await _active(system, key)] == [("我是护士。", 2)]

    alone = await system.user(f"db_{uuid.uuid4().hex[:6]}")
    said = await _commit(system, alone, "护士这行不好干。")
    assert said["promoted"] == said["merged"] == [], said
    assert await _contents(system, alone, "active", "candidate", "needs_review") == []


async def test_taking_something_up_beside_a_fact_is_no_change_of_it(system: System) -> None:
    """The relation model reads "I started …" beside a fact on the same topic as its change; taking
    something up adds to a life unless it says it holds now, again, or turns the fact around."""
    for first, taken_up, turned in (
        ("I'm vegetarian.", "I started buying organic vegetables.", "I've started eating fish again."),
        ("我吃素。", "我最近开始自己种菜。", "我开始吃肉了。"),  # kept or doubted, 种菜 opens no review
    ):
        key = await system.user(f"tu_{uuid.uuid4().hex[:6]}")
        await _commit(system, key, first)
        added = await _commit(system, key, taken_up)
        assert added["reviews"] == [], added
        changed = await _commit(system, key, turned)
        assert len(changed["reviews"]) == 1, changed


async def test_the_older_value_named_again_with_nothing_new_is_no_change(system: System) -> None:
    """ "Work at Spotify has been hectic" names Spotify again, names no other employer and tells no change:
    no review, though one clause of it reads to the relation model as a change."""
    key = await system.user(f"kv_{uuid.uuid4().hex[:6]}")
    await _commit(system, key, "I'm a software engineer at Spotify.")
    busy = await _commit(system, key, "Work at Spotify has been hectic, being an engineer there is no joke.")
    assert busy["reviews"] == [], busy
    left = await _commit(system, key, "I don't work at Spotify anymore.")
    assert len(left["reviews"]) == 1, left


async def test_a_person_the_user_named_is_someone_else(system: System) -> None:
    """ "Emma changed her hair colour" after "My girlfriend is Emma" is Emma's change, never the user's;
    "Emma and I broke up" is the user's own."""
    key = await system.user(f"pn_{uuid.uuid4().hex[:6]}")
    await _commit(system, key, "My girlfriend is Emma.")
    hers = await _commit(system, key, "Emma changed her hair colour to red.")
    assert hers["reviews"] == [], hers
    ours = await _commit(system, key, "Emma and I broke up last month.")
    assert len(ours["reviews"]) == 1, ours


async def test_a_fact_about_someone_of_the_users_said_again_is_evidence_never_a_change(system: System) -> None:
    """A family fact said again in other words gains evidence on its memory; that person's change is
    never the user's to review."""
    key = await system.user(f"kn_{uuid.uuid4().hex[:6]}")
    await _commit(system, key, "My son Theo has a nut allergy.")
    again = await _commit(system, key, "Theo, my son, is allergic to nuts.")
    assert len(again["merged"]) == 1, again
    assert [m["evidence_count"] for m in await _active(system, key)] == [2]
    grown = await _commit(system, key, "Theo outgrew his nut allergy last year.")
    assert grown["reviews"] == [], grown


async def test_a_fact_turned_around_is_never_merged_into_it(system: System) -> None:
    """ "我现在也吃牛肉了" adds in form but takes back "我不吃牛肉" in its own words: never evidence on it but its
    change, as "我也不太吃羊肉", one more denial, is neither."""
    key = await system.user(f"ta_{uuid.uuid4().hex[:6]}")
    await _commit(system, key, "我不吃牛肉。")
    more = await _commit(system, key, "我也不太吃羊肉。")
    assert more["merged"] == more["reviews"] == [], more
    taken_back = await _commit(system, key, "我现在也吃牛肉了。")
    assert taken_back["merged"] == [], taken_back
    assert len(taken_back["reviews"]) == 1, taken_back
    listed = await system.client.get("/v1/memory", params={"status": "needs_review"}, headers=system.auth(key))
    assert [m["evidence_count"] for m in listed.json()["items"] if m["content"] == "我不吃牛肉。"] == [1]


async def test_what_the_user_says_of_themselves_after_another_may_change_their_fact(system: System) -> None:
    """A statement that opens with another person or thing is theirs, yet a clause the user says of themselves after
    it is the user's own: "we moved in on Saturday" of "the Sheffield house is ours at last, …" changes where the
    user lives. What the user only does about the other ("we cook two dinners" because the husband eats meat)
    changes nothing."""
    for first, moved in (
        ("I live in Manchester.", "the Sheffield house is ours at last, we moved in on Saturday"),
        ("我住在上海。", "我老公换了工作，我们搬到了杭州"),
    ):
        _, changed = await _said_after(system, first, moved)
        assert len(changed["reviews"]) == 1, changed

    key = await system.user(f"oa_{uuid.uuid4().hex[:6]}")
    await _commit(system, key, "I'm vegetarian.")
    beside = await _commit(system, key, "my husband eats meat, so we cook two dinners")
    assert beside["reviews"] == beside["merged"] == [], beside

    # Another person moved to where the user lives: what the user says then follows from it (the clause alone
    # reads as a change, 1.0).
    key = await system.user(f"oa_{uuid.uuid4().hex[:6]}")
    await _commit(system, key, "I live in Edinburgh.")
    follows = await _commit(system, key, "my brother just moved to Edinburgh, so we're neighbours now")
    assert follows["reviews"] == [], follows
    assert "I live in Edinburgh." in [m["content"] for m in await _active(system, key)], follows


async def test_a_fact_said_again_of_one_clause_of_a_memory_is_evidence_on_it(system: System) -> None:
    """ "I'm a mum of two" says again only the first clause of "I've got two kids, so weekends are busy": read beside
    the whole, it is another fact; beside that clause, the same one."""
    key = await system.user(f"pc_{uuid.uuid4().hex[:6]}")
    await _commit(system, key, "I've got two kids, so weekends are busy.")
    again = await _commit(system, key, "I'm a mum of two.")
    assert len(again["merged"]) == 1, again
    assert again["reviews"] == again["promoted"] == [], again
    assert [(m["content"], m["evidence_count"]) for m in await _active(system, key)] == [
        ("I've got two kids, so weekends are busy.", 2)
    ]


async def test_a_change_of_one_clause_of_a_memory_sends_the_whole_to_review(system: System) -> None:
    """ "现在在成都安顿下来了" reads to the durable model as doubted, so it stands only as a sure change; beside
    the whole of "我住在厦门，所以周末常去海边" it is another fact, beside that memory's first clause a new value of
    it. The review holds the whole memory: a person sees all it said."""
    for first, moved in (
        ("我住在厦门，所以周末常去海边。", "现在在成都安顿下来了"),
        ("I live in Brighton, so beach walks are my thing.", "Settling into Manchester now."),
    ):
        key, changed = await _said_after(system, first, moved)
        assert len(changed["reviews"]) == 1, changed
        assert changed["merged"] == changed["promoted"] == [], changed
        assert first in await _contents(system, key, "needs_review")


async def test_since_when_a_fact_has_held_is_that_fact_again(system: System) -> None:
    """ "I've been a nurse since 2009" names a year the memory does not: no new value of it, but since when it has
    held. Said in the memory's own words, it is evidence on it and opens no review."""
    key = await system.user(f"sw_{uuid.uuid4().hex[:6]}")
    await _commit(system, key, "I'm a nurse.")
    again = await _commit(system, key, "I've been a nurse since 2009.")
    assert len(again["merged"]) == 1, again
    assert again["reviews"] == again["promoted"] == [], again
    assert [(m["content"], m["evidence_count"]) for m in await _active(system, key)] == [("I'm a nurse.", 2)]


async def test_an_answer_is_kept_with_its_question_and_changes_a_fact_only_when_it_tells_a_change(
    system: System,
) -> None:
    """Two questions answered with two values are two facts ("Where did you grow up? Inverness" beside "Which
    city do you live in? Glasgow"), which the relation model alone reads as one value changed."""
    key = await system.user(f"an_{uuid.uuid4().hex[:6]}")
    first = await _commit(system, key, "Assistant: Which city do you live in?\nUser: Glasgow\nAssistant: Nice.")
    assert first["promoted"], first
    assert "Which city do I live in? Glasgow" in await _contents(system, key)
    other = await _commit(system, key, "Assistant: Where did you grow up?\nUser: Inverness\nAssistant: Lovely.")
    assert other["reviews"] == [], other

    key = await system.user(f"an_{uuid.uuid4().hex[:6]}")
    await _commit(system, key, "助手：你住在哪个城市？\n用户：南京\n助手：好。")
    moved = await _commit(system, key, "助手：还住在南京吗？\n用户：不了，搬到杭州了\n助手：好的。")
    assert len(moved["reviews"]) == 1, moved

    key = await system.user(f"an_{uuid.uuid4().hex[:6]}")  # a status said outright in the answer tells its value
    await _commit(system, key, "用户：我在谈恋爱\n助手：真好。")
    parted = await _commit(system, key, "助手：你和男朋友最近怎么样？\n用户：分了，现在单身\n助手：抱抱。")
    assert len(parted["reviews"]) == 1, parted

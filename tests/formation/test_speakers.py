"""Who said what: only the user's turns become statements about the user."""

from __future__ import annotations

from memgw.common.formation.speakers import ASSISTANT, USER, spelled_out, turns, user_statements


def test_prefixed_turns_are_split_by_speaker_and_continuation_lines_stay_with_theirs() -> None:
    text = "User: I moved to Porto.\nIt is lovely.\nAssistant: Congratulations!\n用户：我对花生过敏。\n助手：记住了。"
    assert [(t.speaker, t.text) for t in turns(text)] == [
        (USER, "I moved to Porto.\nIt is lovely."),
        (ASSISTANT, "Congratulations!"),
        (USER, "我对花生过敏。"),
        (ASSISTANT, "记住了。"),
    ]


def test_only_the_users_sentences_are_statements() -> None:
    episodes: list[tuple[str | None, str]] = [
        (None, "I work night shifts. Assistant: Got it, I'll plan around that."),
        ("assistant", "I am an AI assistant and I love helping."),
        ("user", "我住在成都。我喜欢吃辣。"),
        (None, "**Assistant:** Sure thing.\n**User:** My deadline is Friday."),
    ]
    assert user_statements(episodes) == [
        "I work night shifts.",
        "我住在成都。",
        "我喜欢吃辣。",
        "My deadline is Friday.",
    ]


def test_of_a_question_that_first_states_something_the_statement_is_what_the_user_said() -> None:
    episodes: list[tuple[str | None, str]] = [
        ("user", "Thanks! I live in Leeds, any good walks nearby? Also, what's the weather like?"),
    ]
    assert user_statements(episodes) == ["Thanks!", "I live in Leeds", "Also, what's the weather like?"]


def test_an_episode_without_prefixes_is_its_roles() -> None:
    assert user_statements([("tool", "exit code 0"), ("system", "You are helpful.")]) == []
    assert user_statements([(None, "I take the 8:05 train.")]) == ["I take the 8:05 train."]


def test_typographic_apostrophes_are_read_as_typed_ones() -> None:
    """What a phone writes is what the rules and the models read: "I don’t" is "I don't"."""
    assert user_statements([("user", "I don’t eat meat. I‘m veggie, it’s my sister’s fault.")]) == [
        "I don't eat meat.",
        "I'm veggie, it's my sister's fault.",
    ]


def test_contractions_chat_types_without_an_apostrophe_are_spelled_out() -> None:
    """ "im vegan" is "I'm vegan" to the rules and the models; words a bare contraction could also be stay as typed."""
    assert user_statements([("user", "im vegan and i dont drink. Ive got two kids, doesnt matter")]) == [
        "I'm vegan and I don't drink.",
        "I've got two kids, doesn't matter",
    ]
    assert spelled_out("I'll be ill, its id is i.e. the well") == "I'll be ill, its id is i.e. the well"


def test_the_i_chat_drops_before_a_change_is_said_again() -> None:
    """ "moved to Lewisham last weekend" is the user's move, read and kept as "I moved …" would be; not where a sentence
    about someone else came just before (the subject may be theirs), nor a gerund or a change that has a subject."""
    assert user_statements([("user", "we finally bought a place! moved to Lewisham last weekend")]) == [
        "we finally bought a place!",
        "I moved to Lewisham last weekend",
    ]
    assert user_statements([("user", "Just quit my job at Sky. Moving house is exhausting.")]) == [
        "I just quit my job at Sky.",
        "Moving house is exhausting.",
    ]
    assert user_statements([("user", "My sister had a baby. Moved to Leeds too.")]) == [
        "My sister had a baby.",
        "Moved to Leeds too.",
    ]
    assert user_statements([("user", "Tom moved to Leeds. 搬到成都了")]) == ["Tom moved to Leeds.", "搬到成都了"]


def test_the_text_an_ask_to_translate_or_rewrite_gives_is_not_the_users_statement() -> None:
    episodes: list[tuple[str | None, str]] = [
        ("user", "帮我翻译一下这句话：I love you"),
        ("user", "帮我把这句话改得正式一点：我超爱加班的哈哈"),
        ("user", "Translate to French: I have two cats."),
        ("user", "Can you proofread this: I has been a nurse since 2019."),
        ("user", "Correction: I live in Leeds."),  # the user's own correction
        ("user", "Please note: I'm allergic to nuts."),  # what is asked to be kept is theirs
    ]
    assert user_statements(episodes) == [
        "帮我翻译一下这句话",
        "帮我把这句话改得正式一点",
        "Translate to French",
        "Can you proofread this",
        "Correction: I live in Leeds.",
        "I'm allergic to nuts.",
    ]

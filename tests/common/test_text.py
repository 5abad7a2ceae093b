from __future__ import annotations

import pytest

from memgw.common.text import chunk_text, estimate_tokens

pytestmark = pytest.mark.unit


def test_headings_start_new_chunks_and_prefix_their_path() -> None:
    text = "# Guide\n\nIntro paragraph.\n\n## Install\n\nRun make.\n\n## 使用\n\n运行服务。\n"
    chunks = chunk_text(text)
    assert [c.heading for c in chunks] == ["Guide", "Guide > Install", "Guide > 使用"]
    assert chunks[1].text == "Guide > Install\nRun make."
    assert [c.index for c in chunks] == [0, 1, 2]


def test_paragraphs_are_packed_until_the_limit() -> None:
    text = "\n\n".join(f"Paragraph number {n} has a few words." for n in range(40))
    chunks = chunk_text(text, max_chars=200)
    assert all(len(c.text) <= 200 for c in chunks)
    assert "".join(c.text.replace("\n", "") for c in chunks).count("Paragraph number") == 40


def test_a_long_english_sentence_is_never_cut_inside_a_word() -> None:
    words = [f"word{n}" for n in range(400)]
    chunks = chunk_text(" ".join(words), max_chars=150)
    pieces = [w for c in chunks for w in c.text.split()]
    assert pieces == words


def test_chinese_is_cut_between_characters_within_the_token_budget() -> None:
    text = "记忆网关为每个智能体提供长期记忆" * 100
    chunks = chunk_text(text, max_tokens=120)
    assert "".join(c.text for c in chunks) == text
    assert all(c.tokens <= 120 for c in chunks)


@pytest.mark.parametrize(
    "cluster",
    ["👩\u200d💻", "e\u0301", "☃\ufe0f", "👍🏽"],
    ids=["zwj-sequence", "combining-accent", "variation-selector", "skin-tone"],
)
def test_a_cut_never_separates_a_character_from_what_joins_it(cluster: str) -> None:
    text = cluster * 300
    chunks = chunk_text(text, max_chars=101)
    assert "".join(c.text for c in chunks) == text
    for c in chunks:
        assert c.text.startswith(cluster[0])


def test_fenced_code_stays_whole_and_its_hashes_are_not_headings() -> None:
    text = "Intro.\n\n```bash\n# not a heading\necho hi\n\necho there\n```\n"
    chunks = chunk_text(text)
    assert len(chunks) == 1
    assert chunks[0].heading == ""
    assert "# not a heading" in chunks[0].text


def test_token_estimates_count_chinese_characters_and_english_words() -> None:
    assert estimate_tokens("用户偏好中文") == 6
    assert 3 <= estimate_tokens("the user likes tea") <= 6
    assert estimate_tokens("") == 0


def test_empty_and_blank_text_give_no_chunks() -> None:
    assert chunk_text("") == []
    assert chunk_text("\n\n   \n") == []

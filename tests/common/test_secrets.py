"""The secret detector on ordinary phrasing, and what it must leave alone (a false flag hides a memory
from the vault and redacts a person's words)."""

from __future__ import annotations

import pytest

from memgw.common.secrets import REDACTED, SecretRefused, contains_secret, redact, screen

SECRETS = [
    ("my password is hunter2", "hunter2"),
    ("The new wifi password is 'sunny day 42'", "sunny day 42"),
    ("PIN: 4821, don't tell anyone", "4821"),
    ("my bank pin number is 0917", "0917"),
    ("the passphrase is correct horse battery staple", "horse battery staple"),
    ("Use card 4111 1111 1111 1111 for the hotel", "4111 1111 1111 1111"),
    ("my amex is 3782-822463-10005", "3782-822463-10005"),
    ("stripe key sk_live_51HqLyjWDarjtT1zdp7dcXYZ", "sk_live_51HqLyjWDarjtT1zdp7dcXYZ"),
    ("restricted rk_test_abcdefghij0123", "rk_test_abcdefghij0123"),
    ("api_key=AIzaSyA1234567890abcdefghijklmnopqrstu", "AIzaSyA1234567890"),
    ("我的银行卡密码是 605318", "605318"),
    ("门禁PIN码：7788", "7788"),
    ("邮箱口令为 Qwe!2024", "Qwe!2024"),
]
HARMLESS = [
    "The password is wrong, I need to reset it.",
    "My password is too short for the new policy.",
    "I changed my PIN yesterday.",
    "The token is expired.",
    "Passwords must be at least 12 characters.",
    "Order 1234567890123 shipped today.",  # 13 digits, no card's start and no valid checksum
    "Call me at +86 138 1234 5678.",
    "密码忘记了，明天去银行重置。",
    "我的会员号是 20231115。",
    "The pin is in the drawer.",
]


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_a_secret_said_in_ordinary_words_is_found_and_redacted(text: str, secret: str) -> None:
    assert contains_secret(text)
    cleaned = redact(text)
    assert secret not in cleaned
    assert REDACTED in cleaned
    assert not contains_secret(cleaned)


@pytest.mark.parametrize("text", HARMLESS)
def test_harmless_sentences_that_mention_secrets_are_left_alone(text: str) -> None:
    assert not contains_secret(text)
    assert redact(text) == text


def test_a_card_number_needs_its_checksum() -> None:
    assert contains_secret("card 4111 1111 1111 1111")
    assert not contains_secret("card 4111 1111 1111 1112")  # one digit off: Luhn fails


def test_the_write_rule_redacts_or_refuses() -> None:
    assert screen("PIN: 4821", "redact") == REDACTED
    assert screen("nothing to hide", "refuse") == "nothing to hide"
    with pytest.raises(SecretRefused):
        screen("PIN: 4821", "refuse")

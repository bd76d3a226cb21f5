"""config.inputs, value by value: what each reader takes, and the one error it raises."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import BadRequest
from hypothesis import given
from hypothesis import strategies as st

from config import inputs
from config.inputs import BadInput


def test_bad_input_is_a_bad_request_with_a_message():
    error = BadInput("The move number must be a whole number.")
    assert isinstance(error, BadRequest) and error.status == 400
    assert error.message == "The move number must be a whole number."


@pytest.mark.parametrize(
    ("raw", "expected"), [("0", 0), ("7", 7), ("007", 7), (12, 12), ("2147483647", 2**31 - 1)]
)
def test_a_ply_reads_ascii_digits_and_json_integers(raw, expected):
    assert inputs.ply(raw) == expected


@pytest.mark.parametrize(
    "raw",
    [
        None,
        "",
        " 1",
        "1 ",
        "+1",
        "-1",
        "²",
        "١",
        "１",
        "1.0",
        "1e3",
        "0x1",
        "2147483648",
        "9" * 5000,
        1.0,
        float("inf"),
        True,
        [1],
        {"ply": 1},
        -1,
    ],
    ids=repr,
)
def test_a_ply_refuses_anything_else_with_a_sentence(raw):
    with pytest.raises(BadInput, match="The move number must be a whole number"):
        inputs.ply(raw)


def test_ids_fit_a_bigint():
    assert inputs.record_id("9223372036854775807", what="The id") == 2**63 - 1
    for raw in ("0", "9223372036854775808", 0, -5):
        with pytest.raises(BadInput, match="from 1 to"):
            inputs.record_id(raw, what="The id")


def test_negative_numbers_only_where_asked_for():
    assert inputs.whole_number("-3", what="The offset", minimum=-5) == -3
    with pytest.raises(BadInput):
        inputs.whole_number("-6", what="The offset", minimum=-5)


@given(st.text(max_size=30))
def test_whole_number_agrees_with_ascii_digits_and_never_raises_anything_else(raw):
    try:
        number = inputs.whole_number(raw, what="N")
    except BadInput:
        assert not (raw.isascii() and raw.isdigit()) or int(raw) > inputs.BIGINT_MAX
    else:
        assert raw.isascii() and raw.isdigit() and number == int(raw)


@pytest.mark.parametrize("raw", ["a\x00b", "\x1b[2J", "x\x7f", "\x85", "\ud800"], ids=repr)
def test_text_refuses_control_characters_and_lone_surrogates(raw):
    with pytest.raises(BadInput, match="control character"):
        inputs.text(raw, what="The name")


def test_text_keeps_tabs_line_breaks_and_any_script():
    assert inputs.text("a\tb\r\nc ✓ 名前 ²", what="The note") == "a\tb\r\nc ✓ 名前 ²"
    assert inputs.text(None, what="The note", default="x") == "x"
    with pytest.raises(BadInput, match="too long: at most 3"):
        inputs.text("abcd", what="The code", max_length=3)
    with pytest.raises(BadInput, match="must be text"):
        inputs.text(3, what="The code")


def test_lists_and_choices():
    assert inputs.texts(["7H", "8H"], what="cards") == ["7H", "8H"]
    with pytest.raises(BadInput, match="Too many cards"):
        inputs.texts(["7H"] * 101, what="cards")
    assert inputs.one_of("b", {"a", "b"}, what="the letter") == "b"
    with pytest.raises(BadInput, match="is not a choice"):
        inputs.one_of("c\x00", {"a", "b"}, what="the letter")
    assert inputs.filter_choice("c", {"a", "b"}) == "" and inputs.filter_choice("a", {"a"}) == "a"
    assert inputs.flag("on") and not inputs.flag("off") and not inputs.flag(None)


def test_dates():
    assert inputs.date("2025-06-02", what="The week") == datetime.date(2025, 6, 2)
    for raw in ("2025-02-30", "２０２５-06-02", "20250602", "2025-6-2"):
        with pytest.raises(BadInput):
            inputs.date(raw, what="The week")


def test_json_documents_are_bounded_before_parsing():
    assert inputs.json_document('{"a": [1, 2.5, "x", null, true]}', what="The move") == {
        "a": [1, 2.5, "x", None, True]
    }
    with pytest.raises(BadInput, match="too large: at most 10"):
        inputs.json_document("[" + "1," * 10 + "1]", what="The move", max_length=10)
    with pytest.raises(BadInput, match="nested too deep: at most 3"):
        inputs.json_document("[[[[]]]]", what="The move", max_depth=3)
    assert inputs.json_document('["[[[[", "]]]]"]', what="The move", max_depth=1)
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(BadInput, match="nested too deep"):
        inputs.json_document(deep, what="The export", max_length=len(deep))


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("1e999", "too large"),
        ("-1e999", "too large"),
        ("NaN", "NaN is not a number"),
        ("Infinity", "Infinity is not a number"),
        ("1" * 20, "too large"),
        ('"\\u0000"', "control character"),
        ('{"\\u0000": 1}', "control character"),
        ('"\\ud800"', "control character"),
        ("{oops", "not valid JSON"),
        (b"\xff", "not valid UTF-8"),
    ],
    ids=repr,
)
def test_json_values_the_database_or_the_engine_cannot_take(raw, words):
    with pytest.raises(BadInput, match=words):
        inputs.json_document(raw, what="The move")


def test_json_value_checks_a_built_value_without_recursion():
    value: list = []
    for _ in range(50_000):
        value = [value]
    with pytest.raises(BadInput, match="nested too deep"):
        inputs.json_value(value, what="The move")
    with pytest.raises(BadInput, match="JSON cannot"):
        inputs.json_value({"a": {1, 2}}, what="The move")


def test_the_id_converter_takes_one_to_eighteen_ascii_digits():
    from django.urls import resolve
    from django.urls.exceptions import Resolver404

    assert resolve("/matches/123456789012345678/").kwargs == {"match_id": 123456789012345678}
    for path in ("/matches/1234567890123456789/", "/matches/²/", "/matches/-1/"):
        with pytest.raises(Resolver404):
            resolve(path)


def test_no_sign_where_no_negative_number_is_allowed():
    for raw in ("-0", "-1"):
        with pytest.raises(BadInput, match="digits 0 to 9"):
            inputs.ply(raw)


def test_a_socket_hint_is_a_channel_name_or_nothing():
    assert inputs.channel_hint("specific.a1b2!c3d4") == "specific.a1b2!c3d4"
    for junk in (None, "", "a b", "x" * 100, 'q"><script>', "é", 7):
        assert inputs.channel_hint(junk) == ""

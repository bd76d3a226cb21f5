"""The boards' Jinja2 environment (games.jinja) reads and writes as Django's templates do:
each case draws the same snippet in both languages and expects the same bytes."""

from __future__ import annotations

import datetime

import pytest
from django.db.models import TextChoices
from django.template import Context, Template
from django.utils import timezone

from games import jinja


class Color(TextChoices):
    RED = "red", "Red"


class Thing:
    label = "it's <b>"

    def greet(self) -> str:
        return "hello"

    def needs(self, arg: str) -> str:
        return arg

    def delete(self) -> str:
        raise AssertionError("a template must not call what alters data")

    delete.alters_data = True  # type: ignore[attr-defined]


CONTEXT = {
    "d": {"values": [1, 2, 3], "items": "key, not method", "name": 'say "hi" & <go>'},
    "thing": Thing(),
    "color": Color,
    "nothing": None,
    "n": 1234567,
    "x": 2.5,
    "seq": ["a", "b"],
    "when": datetime.datetime(2026, 3, 1, 12, 30, tzinfo=datetime.UTC),
    "summer": datetime.datetime(2026, 7, 4, 23, 5, tzinfo=datetime.UTC),  # the next day in Paris
    "naive": datetime.datetime(2026, 7, 4, 9, 7),
    "day": datetime.date(2026, 12, 31),
    "rows": [{"k": 1, "v": "a"}, {"k": 1, "v": "b"}, {"k": 2, "v": "c"}, {"k": 1, "v": "d"}],
}

# (Django, Jinja2): the same thing said in each language
SAME = [
    ("{{ d.values|length }} {{ d.items }}", "{{ d.values|length }} {{ d.items }}"),
    ("{{ d.name }}|{{ thing.label }}", "{{ d.name }}|{{ thing.label }}"),
    ("{{ thing.greet }}", "{{ thing.greet }}"),
    ("[{{ thing.needs }}][{{ thing.delete }}]", "[{{ thing.needs }}][{{ thing.delete }}]"),
    ("{{ color.RED }}", "{{ color.RED }}"),
    (
        "{{ nothing }}|{{ missing }}|{{ missing.deeper.still }}",
        "{{ nothing }}|{{ missing }}|{{ missing.deeper.still }}",
    ),
    ("{% if missing is None %}none{% endif %}", "{% if missing is none %}none{% endif %}"),
    ("{{ n }} {{ x }} {{ seq.0 }}", "{{ n }} {{ x }} {{ seq.0 }}"),
    (
        "{{ when }}|{{ when|date:'c' }}|{{ when|date:'U' }}|{{ when|date:'D j M, H:i e' }}",
        "{{ when }}|{{ when|date('c') }}|{{ when|date('U') }}|{{ when|date('D j M, H:i e') }}",
    ),
    (
        "{{ summer|date:'c' }}|{{ summer|date:'U' }}|{{ summer|date:'D j M, H:i e' }}",
        "{{ summer|date('c') }}|{{ summer|date('U') }}|{{ summer|date('D j M, H:i e') }}",
    ),
    (
        "{{ naive|date:'c' }}|{{ naive|date:'D j M, H:i e' }}|{{ day|date:'D j M' }}",
        "{{ naive|date('c') }}|{{ naive|date('D j M, H:i e') }}|{{ day|date('D j M') }}",
    ),
    (
        "{{ when|date:'j F Y' }}|{{ day|date:'c' }}|{{ missing|date:'c' }}",
        "{{ when|date('j F Y') }}|{{ day|date('c') }}|{{ missing|date('c') }}",
    ),
    (
        "{{ seq|join:', ' }} {{ d.name|default:'-' }}",
        "{{ seq|join(', ') }} {{ d.name|default('-') }}",
    ),
    ("{% load cardhall %}{{ n|add:1 }} {{ seq|index:1 }}", "{{ n|add(1) }} {{ seq|index(1) }}"),
    ("{{ seq|slice:'-1:' }}", "{{ seq|slice('-1:') }}"),
    (
        "{% widthratio 3 4 100 %} {% widthratio 3 0 100 %}",
        "{{ widthratio(3, 4, 100) }} {{ widthratio(3, 0, 100) }}",
    ),
    (
        "{% regroup rows by k as groups %}{% for g in groups %}{{ g.grouper }}:"
        "{% for r in g.list %}{{ r.v }}{% endfor %} {% endfor %}",
        '{% set groups = regroup(rows, "k") %}{% for g in groups %}{{ g.grouper }}:'
        "{% for r in g.list %}{{ r.v }}{% endfor %} {% endfor %}",
    ),
    ("{% load static %}{% static 'img/logo.svg' %}", "{{ static('img/logo.svg') }}"),
    (
        "{% url 'games:verify' %} {% url 'games:move' 7 %}",
        "{{ url('games:verify') }} {{ url('games:move', 7) }}",
    ),
]


@pytest.mark.parametrize(("django", "jinja2"), SAME)
def test_a_snippet_writes_the_same_bytes_in_both_languages(django, jinja2, settings) -> None:
    settings.TIME_ZONE = "Europe/Paris"  # a date is written in local time by both
    timezone.deactivate()
    expected = Template(django).render(Context(CONTEXT, use_l10n=False))
    assert jinja.environment().from_string(jinja2).render(CONTEXT) == expected


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("NOTPROVIDED", ""),
        ("", ""),
        ('t"k', '<input type="hidden" name="csrfmiddlewaretoken" value="t&quot;k">'),
    ],
)
def test_the_csrf_field_is_django_s_csrf_token_tag(token, expected) -> None:
    django = Template("{% csrf_token %}").render(Context({"csrf_token": token}))
    drawn = jinja.environment().from_string("{{ csrf_field() }}").render(csrf_token=token)
    assert drawn == django == expected


def test_a_django_snippet_is_drawn_with_the_board_s_context() -> None:
    source = "{{ django('{% load cardhall %}{{ seq|index:0 }}-{{ extra }}', extra=n) }}"
    assert jinja.environment().from_string(source).render(CONTEXT) == "a-1234567"


@pytest.mark.django_db
def test_a_macro_is_called_from_a_django_page() -> None:
    rules = {"kind": "Rated", "changed": [{"label": "Clock", "value": "1 day"}], "every": True}
    page = Template(
        '{% load cardhall %}{% jinja_macro "games/partials/table_rules.jinja" "table_rules" r %}'
    ).render(Context({"r": rules}))
    assert 'data-testid="table-kind">Rated</span>' in page
    assert '<span class="rule-chip" title="Clock">Clock: 1 day</span>' in page

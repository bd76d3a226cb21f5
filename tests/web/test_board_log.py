"""A board's log items (games.jinja.log_items): escaped exactly as
Django's `format_html` escapes, though built without it (it was a quarter of a render)."""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from games.jinja import log_items

LINE = '<li class="log-{}"><span class="log-ply">{}</span> {}</li>'


def as_format_html(log, empty="No moves yet."):
    items = [(e["type"], entry["ply"] + 1, e["text"]) for entry in log for e in entry["events"]]
    if not items:
        return format_html('<li class="muted">{}</li>', empty)
    return format_html_join("\n", LINE, items)


def test_log_lines_are_escaped_as_format_html_escapes_them():
    log = [
        {
            "ply": ply,
            "events": [
                {"type": "attack", "text": f"<script>alert('{ply}')</script> & \"Bob\""},
                {"type": 'odd"type', "text": mark_safe("<em>already safe</em>")},
                {"type": "draw", "text": "Ann draws a card."},
            ],
        }
        for ply in range(40)
    ]

    html = log_items(log)

    assert isinstance(html, SafeString)
    assert html == as_format_html(log)
    assert "&lt;script&gt;alert(&#x27;0&#x27;)&lt;/script&gt; &amp; &quot;Bob&quot;" in html
    assert "<em>already safe</em>" in html
    assert html.count("<li ") == 120


def test_an_empty_log_says_so_escaped():
    assert log_items([]) == as_format_html([]) == '<li class="muted">No moves yet.</li>'
    assert log_items([], "<b>none</b>") == as_format_html([], "<b>none</b>")
    assert log_items([{"ply": 0, "events": []}]) == as_format_html([])

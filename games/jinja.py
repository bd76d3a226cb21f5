"""The boards' template engine: Jinja2, reading and writing values as Django's templates do.

A board is drawn after every move for every viewer who looks, and Django's template engine
spent about a third of a move's CPU on it (docs/benchmarks.md, sixteenth pass). Jinja2
compiles a template to Python once per process; the boards' templates (`*.jinja`) are
drawn by it, everything else stays with Django's.

So that a board reads as it did in Django's language, this environment keeps Django's rules
where the two differ:

- `a.b` looks up a key first, then an attribute, as Django does (a dict's `values` is its
  key, not the method), and calls what it finds unless it is marked
  `do_not_call_in_templates` (`alters_data`: nothing). `a.0` is an index, as in Django.
- What `{{ }}` writes is Django's: dates in the current time zone, numbers unlocalized (the
  boards were drawn under `{% localize off %}`), escaped by Django's `conditional_escape`,
  so a board's bytes are those Django wrote.
- The filters are Django's, by the same names (builtins and every app's library: `index`,
  `tojson`, `date`, `pluralize`, ...), with Django's arguments: `names|index(seat)`.
- Globals for Django's tags: `static()`, `url()`, `csrf_field()`, `widthratio()`,
  `regroup()`; `log_items()` (a board's log, built in Python); and `django()`, which draws
  a Django template snippet (an app's inclusion tag) with the board's context, for the few
  tags of apps above `games` that a board shows.
- A name nobody set is empty, and so is anything looked up on it (`ChainableUndefined`);
  `is none` holds for it, as Django's `is None` does.
"""

from __future__ import annotations

import datetime
import functools
import html
import inspect
import itertools
from pathlib import Path
from typing import Any, NamedTuple

import jinja2
from django.conf import settings
from django.template import Context, Template, defaultfilters, engines
from django.template.defaulttags import CsrfTokenNode
from django.templatetags.static import static as django_static
from django.urls import get_script_prefix, reverse
from django.utils.dates import MONTHS_3, WEEKDAYS_ABBR
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.timezone import template_localtime  # type: ignore[attr-defined]
from markupsafe import Markup

ROOT = Path(__file__).resolve().parents[1]


class Environment(jinja2.Environment):
    """Jinja2 with Django's lookups: a key before an attribute, callables called."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if isinstance(obj, dict):  # a key first ([], not get: a dict may have __missing__)
            try:
                value = obj[attribute]
            except KeyError:
                value = getattr(obj, attribute, _MISSING)
        else:
            value = getattr(obj, attribute, _MISSING)
            if value is _MISSING:
                try:
                    value = obj[attribute]
                except (TypeError, LookupError, ValueError, AttributeError):
                    value = _MISSING
        if value is _MISSING:
            return self.undefined(obj=obj, name=attribute)
        return _called(self, value)

    def getitem(self, obj: Any, argument: Any) -> Any:
        if isinstance(argument, str):
            return self.getattr(obj, argument)
        try:
            return _called(self, obj[argument])
        except (TypeError, LookupError, ValueError, AttributeError):
            return self.undefined(obj=obj, name=argument)


_MISSING = object()


def _called(environment: Environment, value: Any) -> Any:
    """Django's rule for a callable met in a lookup: called with no arguments; left alone
    if marked `do_not_call_in_templates`; nothing if it `alters_data` or needs arguments."""
    if not callable(value) or getattr(value, "do_not_call_in_templates", False):
        return value
    if isinstance(value, jinja2.runtime.Macro | jinja2.Undefined):
        return value
    if getattr(value, "alters_data", False):
        return environment.undefined()
    try:
        return value()
    except TypeError:
        try:
            inspect.signature(value).bind()
        except TypeError:  # it needs arguments: Django writes nothing
            return environment.undefined()
        except ValueError:  # no signature to read
            pass
        raise


def _finalize(value: Any) -> Any:
    """What Django's `{{ }}` writes: localtime, unlocalized, escaped by Django (whose
    `&#x27;` and `&quot;` markupsafe would write `&#39;` and `&#34;`). Strings and integers,
    most of a board, take the short way."""
    kind = type(value)
    if kind is str:
        return Markup(html.escape(value))
    if kind is int or hasattr(value, "__html__"):
        return value
    if isinstance(value, jinja2.Undefined):
        return ""
    value = template_localtime(value, use_tz=settings.USE_TZ)
    return Markup(conditional_escape(str(localize(value, use_l10n=False))))


def _django_filter(function: Any) -> Any:
    """A Django filter as a Jinja2 filter: dates to local time first where it asks, and
    the autoescape flag where it needs one."""
    localtime = getattr(function, "expects_localtime", False)
    autoescape = getattr(function, "needs_autoescape", False)

    @functools.wraps(function)
    def jinja_filter(value: Any, *args: Any) -> Any:
        if isinstance(value, jinja2.Undefined):
            value = ""
        if localtime:
            value = template_localtime(value, use_tz=settings.USE_TZ)
        if autoescape:
            return function(value, *args, autoescape=True)
        return function(value, *args)

    return jinja_filter


def _django_filters() -> dict[str, Any]:
    """Every filter Django's templates know: the builtins, then each app's library."""
    engine = engines["django"].engine  # type: ignore[attr-defined]
    filters: dict[str, Any] = {}
    for library in engine.template_builtins:
        filters.update(library.filters)
    for name in sorted(engine.template_libraries):
        filters.update(engine.template_libraries[name].filters)
    filters["date"] = _date
    return {name: _django_filter(function) for name, function in filters.items()}


def _date(value: Any, arg: Any = None) -> Any:
    """Django's `date` filter (in the current time zone), which writes the three formats of
    every running clock (ISO 8601, Unix seconds and its deadline's title) without Django's
    formatter, the same text: they were a sixth of a board's drawing, and finding the
    current time zone a third of the rest, so it is found once per date, not per format."""
    if isinstance(value, datetime.datetime):
        if arg == "U":  # the same instant in every zone
            return str(int(value.timestamp()))
        value = template_localtime(value, use_tz=settings.USE_TZ)
        if arg == "c":
            return value.isoformat()
        if arg == CLOCK_TITLE:
            zone = (value.tzname() or "") if value.tzinfo is not None else ""
            weekday, month = WEEKDAYS_ABBR[value.weekday()], MONTHS_3[value.month].title()
            return f"{weekday} {value.day} {month}, {value.hour:02d}:{value.minute:02d} {zone}"
    return defaultfilters.date(value, arg)  # a date (no time zone), or another format


CLOCK_TITLE = "D j M, H:i e"  # a clock's deadline, as its title (clocks.jinja)


@jinja2.pass_context
def csrf_field(context: jinja2.runtime.Context) -> Markup:
    """Django's `{% csrf_token %}` itself: nothing for a board drawn without a request."""
    return Markup(CsrfTokenNode().render(context))  # type: ignore[arg-type]


def log_items(log: Any, empty: str = "No moves yet.") -> str:
    """A board's log (`selectors.log_lines`, newest move first) as its list items, one per
    event (`{{ log_items(log) }}`): built here rather than in two nested template loops,
    which were most of a board's render time. Escaped as `format_html` would, without its
    per-call wrappers: a long match's log is a hundred items, and `format_html_join` took a
    quarter of the board's render (docs/benchmarks.md, ninth pass)."""
    items = [
        f'<li class="log-{_escaped(event["type"])}"><span class="log-ply">{entry["ply"] + 1}'
        f"</span> {_escaped(event['text'])}</li>"
        for entry in log
        for event in entry["events"]
    ]
    if not items:
        return mark_safe(f'<li class="muted">{_escaped(empty)}</li>')
    return mark_safe("\n".join(items))


def _escaped(value: Any) -> str:
    """django.utils.html.conditional_escape, for the plain strings of a log line."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return html.escape(str(value))


def widthratio(value: Any, max_value: Any, max_width: Any) -> str:
    """Django's `{% widthratio %}`: value / max_value * max_width, rounded; "" if not a number."""
    try:
        ratio = (float(value) / float(max_value)) * float(max_width)
        return str(round(ratio))
    except ZeroDivisionError:
        return "0"
    except (ValueError, TypeError, OverflowError):
        return ""


@functools.lru_cache(maxsize=64)
def _django_template(source: str) -> Template:
    return Template(source)


@jinja2.pass_context
def django(context: jinja2.runtime.Context, source: str, **names: Any) -> Markup:
    """A Django template snippet (an app's template tag) drawn with the board's context and
    `names`: the tags of apps above `games` (cosmetics, progression, Arcana), which
    `games` does not import."""
    flat = {**context.get_all(), **names}
    return Markup(_django_template(source).render(Context(flat, use_l10n=False)))


class GroupedResult(NamedTuple):
    grouper: Any
    list: list[Any]


def regroup(items: Any, key: str) -> list[GroupedResult]:
    """Django's `{% regroup items by key as name %}`: `{% set name = regroup(items, "key") %}`,
    consecutive items with the same key together, in their order (not sorted, unlike Jinja's
    `groupby`)."""
    env = environment()

    def grouper(item: Any) -> Any:
        value = env.getattr(item, key)
        return None if isinstance(value, jinja2.Undefined) else value

    if not items:
        return []
    return [GroupedResult(k, list(group)) for k, group in itertools.groupby(items, grouper)]


def static(path: str) -> str:
    """Django's `{% static %}`, remembered: a board names a dozen files, and the storage's
    manifest does not change while the process runs."""
    return _static(path, settings.STATIC_URL)


@functools.lru_cache(maxsize=1024)
def _static(path: str, static_url: str) -> str:
    return django_static(path)


def url(name: str, *args: Any) -> str:
    """Django's `{% url %}` (positional arguments), remembered like `static`."""
    return _url(name, args, get_script_prefix())


@functools.lru_cache(maxsize=1024)
def _url(name: str, args: tuple[Any, ...], script_prefix: str) -> str:
    return reverse(name, args=args or None)


def _template_dirs() -> list[str]:
    from games.boards import all_boards

    boards = [board.templates_dir for board in all_boards() if board.templates_dir.is_dir()]
    return [str(ROOT / "templates"), *map(str, boards)]


class _BoardLoader(jinja2.FileSystemLoader):
    """The project's templates/ and each board's own (asked at each lookup, so a board
    registered at run time is found too)."""

    def __init__(self) -> None:
        super().__init__([])

    def get_source(self, environment: jinja2.Environment, template: str) -> Any:
        self.searchpath = _template_dirs()
        return super().get_source(environment, template)


@functools.cache
def environment() -> Environment:
    env = Environment(
        loader=_BoardLoader(),
        autoescape=True,
        auto_reload=settings.DEBUG,
        undefined=jinja2.ChainableUndefined,
        finalize=_finalize,
        keep_trailing_newline=True,
        cache_size=400,
    )
    env.filters.update(_django_filters())
    # Django's `is None` holds for a name nobody set: so does `is none` here.
    env.tests["none"] = lambda value: value is None or isinstance(value, jinja2.Undefined)
    env.globals.update(
        static=static,
        url=url,
        csrf_field=csrf_field,
        widthratio=widthratio,
        regroup=regroup,
        django=django,
        log_items=log_items,
    )
    return env


def render(name: str, context: dict[str, Any]) -> str:
    """The `*.jinja` template `name` drawn with `context`."""
    return environment().get_template(name).render(context)

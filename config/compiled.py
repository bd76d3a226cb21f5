"""Querysets compiled to SQL once per process, for the few reads every move makes, and the
UPDATEs of the rows it writes (`save_fields`).

Django compiles a queryset to SQL each time it runs it. For a plain query that is cheap,
but the move's lock reads the match's seats joined to their players, profiles and three
equipped looks (seven tables): compiling that join cost 0.96 ms of the 1.37 ms the read
took, measured in one quiet process, while PostgreSQL, with its plan prepared
(`DB_PREPARE_THRESHOLD`), answered in 0.15 ms. A `CompiledQuery` compiles its queryset
once, with a stand-in for each value it filters on, and each call runs the same SQL with
the call's values put in their place. The rows become model instances, related objects
included, by the ORM's own steps (the compiler's converters and related populators), as
`QuerySet` iteration does.

Only for a queryset whose values are plain parameters of its SQL, each once: equality
filters such as `filter(pk=value)` or `filter(match_id=value)`, and the like. Compiling
checks it. A value is a number, a string or an aware datetime (put in as the database takes
it, as the ORM does); `CompiledUpdate` below finds and fills them the same way. The
SQL of a `select_for_update()` queryset is compiled inside a transaction, and each call
checks that it runs inside one, as Django does.

A move also saves the match and two seats' clocks with `save(update_fields=...)`, and
`Model.save` builds its UPDATE anew each time, through a queryset: 14% of a move POST's CPU,
sampled, for three one-row UPDATEs. `save_fields(instance, fields)` runs the same UPDATE,
its SQL written once per model and fields, the values prepared by the fields themselves
(`pre_save`, so `auto_now` still stamps; `get_db_prep_save`). It sends no `pre_save` or
`post_save` signal: while a receiver listens for the model, it calls `Model.save` instead.

`insert_row(instance)` does the same for the move's INSERT, and a `CompiledUpdate` for a
`queryset.update(...)` that runs often with other values, such as the inbox's settling of a
seat's turn notices after every move (85% of its 0.6 ms was building and compiling the
query).
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from django.db import DatabaseError, connections, router, transaction
from django.db.models import Field, Model, QuerySet, signals, sql
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=Model)


@dataclass(frozen=True)
class _Compiled:
    alias: str  # the database
    sql: str
    params: tuple[Any, ...]
    slots: tuple[tuple[int, bool], ...]  # each value's place in params, and is it a datetime
    converters: tuple[tuple[int, tuple[Any, ...], Any], ...]  # (column, functions, expression)
    model: type[Model]
    fields: tuple[int, int]  # the model's own columns in a row: [start, end)
    init_list: tuple[str, ...]
    populators: tuple[Any, ...]  # select_related objects
    for_update: bool


class CompiledQuery(Generic[M]):
    """`build(*values)` returns the queryset; `query(*values)` runs it, compiled once.

    `variant()` names what else the queryset depends on (registrations made at start-up,
    say): a new variant is compiled anew.
    """

    def __init__(
        self,
        build: Callable[..., QuerySet[M]],
        *,
        variant: Callable[[], Hashable] = lambda: None,
    ) -> None:
        self.build = build
        self.variant = variant
        self._compiled: dict[Hashable, _Compiled] = {}
        self._lock = threading.Lock()

    def __call__(self, *values: Any) -> list[M]:
        variant = self.variant()
        compiled = self._compiled.get(variant)
        if compiled is None:
            compiled = self._compile(values, variant)
        alias = compiled.alias
        connection = connections[alias]
        if compiled.for_update and connection.get_autocommit():
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = _put(compiled.params, compiled.slots, values, connection)
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchall()
        start, end = compiled.fields
        objects: list[M] = []
        for row in rows:
            if compiled.converters:
                row = _converted(row, compiled.converters, connection)
            obj = cast(M, compiled.model.from_db(alias, compiled.init_list, row[start:end]))
            for populator in compiled.populators:
                populator.populate(row, obj)
            objects.append(obj)
        return objects

    def _compile(self, values: tuple[Any, ...], variant: Hashable) -> _Compiled:
        stand_ins = _stand_ins(values)
        queryset = self.build(*stand_ins)
        query = queryset.query
        if query.annotation_select or queryset._prefetch_related_lookups:  # type: ignore[attr-defined]
            raise ValueError("A compiled query takes no annotations and no prefetches.")
        compiler = query.get_compiler(using=queryset.db)
        sql, params = compiler.as_sql()
        klass_info = compiler.klass_info
        select_fields = klass_info["select_fields"]
        start, end = select_fields[0], select_fields[-1] + 1
        compiled = _Compiled(
            alias=queryset.db,
            sql=sql,
            params=tuple(params),
            slots=_slots(sql, params, stand_ins, connections[queryset.db]),
            converters=tuple(
                (column, tuple(functions), expression)
                for column, (functions, expression) in compiler.get_converters(
                    [selected[0] for selected in compiler.select[: compiler.col_count]]
                ).items()
            ),
            model=klass_info["model"],
            fields=(start, end),
            init_list=tuple(column[0].target.attname for column in compiler.select[start:end]),
            populators=tuple(get_related_populators(klass_info, compiler.select, queryset.db)),
            for_update=query.select_for_update
            and connections[queryset.db].features.has_select_for_update,
        )
        with self._lock:
            return self._compiled.setdefault(variant, compiled)


def _converted(row: tuple[Any, ...], converters: Any, connection: Any) -> list[Any]:
    """The row's values as the model's fields hold them (the compiler's `apply_converters`,
    with this thread's connection)."""
    values = list(row)
    for column, functions, expression in converters:
        value = values[column]
        for function in functions:
            value = function(value, expression, connection)
        values[column] = value
    return values


def prefetched(instance: Model, name: str, objects: list[Any], *, back: str) -> None:
    """Give `instance` its reverse relation `name` (a related manager) as `objects`, as
    `prefetch_related(name)` would: `instance.<name>.all()` then runs no query, and each
    object's `back` (its foreign key to `instance`) is `instance` without one."""
    for obj in objects:
        setattr(obj, back, instance)
    queryset = getattr(instance, name).all()
    queryset._result_cache = objects
    queryset._prefetch_done = True
    cache = instance.__dict__.setdefault("_prefetched_objects_cache", {})
    cache[name] = queryset


# --- UPDATEs by primary key -------------------------------------------------------------------

_updates: dict[tuple[type[Model], tuple[str, ...], str], tuple[str, tuple[Any, ...]]] = {}


def save_fields(instance: Model, fields: tuple[str, ...]) -> None:
    """`instance.save(update_fields=fields)` for a row that exists, its UPDATE written once.

    Only plain columns (no field with a placeholder of its own, such as a geometry). Raises
    `DatabaseError` when no row was updated, as `Model.save` does."""
    model = type(instance)
    if _listened(model):
        instance.save(update_fields=fields)
        return
    alias = router.db_for_write(model, instance=instance)
    key = (model, fields, alias)
    compiled = _updates.get(key)
    if compiled is None:
        compiled = _updates.setdefault(key, _update_sql(model, fields, alias))
    sql, targets = compiled
    connection = connections[alias]
    params = [
        field.get_db_prep_save(field.pre_save(instance, False), connection) for field in targets
    ]
    params.append(instance.pk)
    with _cursor(alias) as cursor:
        cursor.execute(sql, params)
        updated = cursor.rowcount
    if updated == 0:
        raise DatabaseError("Save with update_fields did not affect any rows.")
    instance._state.adding = False
    instance._state.db = alias


def _update_sql(
    model: type[Model], fields: tuple[str, ...], alias: str
) -> tuple[str, tuple[Any, ...]]:
    connection = connections[alias]
    quote = connection.ops.quote_name
    meta = model._meta
    targets: list[Field[Any, Any]] = []
    for name in fields:
        field = meta.get_field(name)
        if (
            not isinstance(field, Field)
            or not field.concrete
            or field.primary_key
            or not _is_plain(field)
        ):
            raise ValueError(f"save_fields writes plain columns only, not {name!r}.")
        targets.append(field)
    table = quote(meta.db_table)
    assignments = ", ".join(f"{quote(str(field.column))} = %s" for field in targets)
    pk = quote(str(meta.pk.column))  # type: ignore[union-attr]
    return f"UPDATE {table} SET {assignments} WHERE {table}.{pk} = %s", tuple(targets)


_inserts: dict[tuple[type[Model], str], tuple[str, tuple[Any, ...], bool]] = {}


def insert_row(instance: Model) -> None:
    """`instance.save()` for a new row whose primary key the database picks (the move's
    `Move`), its INSERT written once per model; the key is read back into `instance`.

    Every concrete field is written, as its own `pre_save` gives it (so `auto_now_add`
    stamps) and `get_db_prep_save` prepares it. A unique constraint's violation raises
    Django's `IntegrityError`, as `save()` does. While a `pre_save` / `post_save` receiver
    listens for the model, it calls `Model.save` instead."""
    model = type(instance)
    if _listened(model):
        instance.save(force_insert=True)
        return
    alias = router.db_for_write(model, instance=instance)
    compiled = _inserts.get((model, alias))
    if compiled is None:
        compiled = _inserts.setdefault((model, alias), _insert_sql(model, alias))
    sql_text, targets, returning = compiled
    connection = connections[alias]
    params = [
        field.get_db_prep_save(field.pre_save(instance, True), connection) for field in targets
    ]
    meta = model._meta
    with _cursor(alias) as cursor:
        cursor.execute(sql_text, params)
        if returning:
            pk = cursor.fetchone()[0]
        else:
            pk = connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column)  # type: ignore[union-attr]
    instance.pk = pk
    instance._state.adding = False
    instance._state.db = alias


def _insert_sql(model: type[Model], alias: str) -> tuple[str, tuple[Any, ...], bool]:
    connection = connections[alias]
    quote = connection.ops.quote_name
    meta = model._meta
    if meta.auto_field is None or meta.parents:
        raise ValueError("insert_row adds rows of a model with an automatic key, no parents.")
    targets = [field for field in meta.local_concrete_fields if field is not meta.auto_field]
    for field in targets:
        if not _is_plain(field):
            raise ValueError(f"insert_row writes plain columns only, not {field.name!r}.")
    columns = ", ".join(quote(str(field.column)) for field in targets)
    values = ", ".join("%s" for _ in targets)
    sql_text = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({values})"
    returning = bool(connection.features.can_return_columns_from_insert)
    if returning:
        sql_text += f" RETURNING {quote(str(meta.auto_field.column))}"
    return sql_text, tuple(targets), returning


# --- UPDATE ... WHERE ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _CompiledUpdate:
    alias: str
    sql: str
    params: tuple[Any, ...]
    slots: tuple[tuple[int, bool], ...]  # for each value: where it goes, and is it a datetime


class CompiledUpdate:
    """`build(*values)` returns `(queryset, changes)`; calling it with the values runs
    `queryset.update(**changes)` and returns how many rows it updated, its SQL compiled once.

    As for `CompiledQuery`, each value must be one parameter of the SQL (equality filters,
    `lte` and the like, the new values), and `build` must give the same SQL whatever the
    values: a number, a string or an aware datetime each. A datetime is put in as the
    database takes it (`adapt_datetimefield_value`), as the ORM does. The rows updated get
    no signal, as with `QuerySet.update`.
    """

    def __init__(self, build: Callable[..., tuple[QuerySet[Any], dict[str, Any]]]) -> None:
        self.build = build
        self._compiled: _CompiledUpdate | None = None

    def __call__(self, *values: Any) -> int:
        compiled = self._compiled or self._compile(values)
        params = _put(compiled.params, compiled.slots, values, connections[compiled.alias])
        with _cursor(compiled.alias) as cursor:
            cursor.execute(compiled.sql, params)
            return cursor.rowcount

    def _compile(self, values: tuple[Any, ...]) -> _CompiledUpdate:
        stand_ins = _stand_ins(values)
        queryset, changes = self.build(*stand_ins)
        query = queryset.query.chain(sql.UpdateQuery)
        query.add_update_values(changes)  # type: ignore[attr-defined]
        if query.related_updates or query.annotations:  # type: ignore[attr-defined]
            raise ValueError("A compiled update takes no annotations and no parent models.")
        compiler = query.get_compiler(using=queryset.db)
        sql_text, params = compiler.as_sql()
        slots = _slots(sql_text, params, stand_ins, connections[queryset.db])
        self._compiled = _CompiledUpdate(queryset.db, sql_text, tuple(params), slots)
        return self._compiled


# --- what compiled queries and updates share ----------------------------------------------------


def _listened(model: type[Model]) -> bool:
    """Does a `pre_save` or `post_save` receiver listen for `model` (then `Model.save`)?"""
    return signals.pre_save.has_listeners(model) or signals.post_save.has_listeners(model)


def _is_plain(field: Any) -> bool:
    """A column written with a plain `%s` (not, say, a geometry with its own placeholder)."""
    return field.column is not None and not hasattr(field, "get_placeholder")


@contextmanager
def _cursor(alias: str) -> Iterator[Any]:
    """A cursor for a write: as `save()` and `QuerySet.update` do, an error inside an atomic
    block marks it for rollback."""
    with transaction.mark_for_rollback_on_error(alias), connections[alias].cursor() as cursor:
        yield cursor


def _stand_ins(values: tuple[Any, ...]) -> list[Any]:
    return [_stand_in(index, value) for index, value in enumerate(values)]


def _slots(
    sql_text: str, params: Any, stand_ins: list[Any], connection: Any
) -> tuple[tuple[int, bool], ...]:
    """Where each stand-in went among the compiled SQL's parameters (as the database takes
    it: a datetime adapted), and whether it is a datetime. Each must be one parameter."""
    slots = []
    for stand_in in stand_ins:
        is_datetime = isinstance(stand_in, dt.datetime)
        forms = [stand_in]
        if is_datetime:
            forms.append(connection.ops.adapt_datetimefield_value(stand_in))
        found = [index for index, param in enumerate(params) if param in forms]
        if len(found) != 1:
            raise ValueError(f"Each value must be one parameter of the SQL: {sql_text}")
        slots.append((found[0], is_datetime))
    return tuple(slots)


def _put(
    params: tuple[Any, ...], slots: tuple[tuple[int, bool], ...], values: Any, connection: Any
) -> list[Any]:
    """The compiled parameters with each call's value in its place."""
    filled = list(params)
    for (position, is_datetime), value in zip(slots, values, strict=True):
        if is_datetime != isinstance(value, dt.datetime):
            raise TypeError(f"A {type(value).__name__} where it was compiled for another.")
        filled[position] = connection.ops.adapt_datetimefield_value(value) if is_datetime else value
    return filled


def _stand_in(index: int, value: Any) -> Any:
    """A value of `value`'s kind, told apart from the others by `index`, to find where each
    value goes among the compiled SQL's parameters (never run against the database)."""
    if isinstance(value, bool) or value is None:
        raise TypeError("A compiled query takes numbers, strings and datetimes.")
    if isinstance(value, int):  # in the range of every integer field: Django compiles a
        return 32_000 + index  # value out of its field's range to a match of nothing
    if isinstance(value, str):
        return f"\x00stand-in {index}"
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            raise TypeError("A compiled query takes aware datetimes only.")
        return dt.datetime(1901, 2, 3, 4, 5, 6, index + 1, tzinfo=dt.UTC)
    raise TypeError("A compiled query takes numbers, strings and datetimes.")

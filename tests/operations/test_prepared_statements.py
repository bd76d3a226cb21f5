"""Prepared statements on PostgreSQL (config/settings.py, docs/operations.md "Sizing
connections"): with the pool on, a query run DB_PREPARE_THRESHOLD times on a connection is
planned once and then only executed, as PostgreSQL itself reports."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection

from games.models import Match
from tests.conftest import IS_POSTGRES

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(not IS_POSTGRES, reason="prepared statements are PostgreSQL's"),
]


def prepared_count() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements")
        return cursor.fetchone()[0]


def test_a_repeated_query_is_prepared_on_its_connection():
    options = settings.DATABASES["default"]["OPTIONS"]
    if "pool" not in options:
        pytest.skip("DB_POOL_MAX_SIZE=0: no pool, so no prepared statements by default")
    assert options["server_side_binding"] is True
    threshold = options["prepare_threshold"]
    assert threshold == settings.DB_PREPARE_THRESHOLD > 0
    before = prepared_count()
    for pk in range(threshold + 1):  # the same query text, another parameter each time
        list(Match.objects.filter(pk=pk + 10_000, status=Match.Status.ACTIVE))
    assert prepared_count() > before
    # and a prepared query still answers with this connection's current data
    assert not Match.objects.filter(pk=10_000, status=Match.Status.ACTIVE).exists()

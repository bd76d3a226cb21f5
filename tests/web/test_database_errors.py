"""A database that cannot serve a request is a 503 that says why, never a 500.

Full (PostgreSQL out of connection slots) is "the hall is full"; out of reach (a restart,
a connection lost mid-request) is "cannot reach its records". The real outages, in the
production shape, are tests/web/test_database_outage.py; the real pool timeout is
tests/web/test_overload.py.
"""

from __future__ import annotations

import pytest
from django.db import InterfaceError, OperationalError, connection
from django.test import Client

from config.overload import RETRY_AFTER_SECONDS

UNREACHABLE = "Cardhall cannot reach its records"


def answer_when(monkeypatch, error: Exception, path: str = "/tables/"):
    def fail() -> None:
        raise error

    with monkeypatch.context() as patch:
        patch.setattr(connection, "ensure_connection", fail)
        return Client().get(path)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "error",
    [
        OperationalError("connection failed: Connection refused"),
        OperationalError("FATAL: the database system is starting up"),
        OperationalError("terminating connection due to administrator command"),
        InterfaceError("connection already closed"),
    ],
)
def test_a_database_out_of_reach_is_a_503_saying_so(monkeypatch, error):
    response = answer_when(monkeypatch, error)
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert UNREACHABLE in response.content.decode()
    assert "sending it again is safe" in response.content.decode()


@pytest.mark.django_db
def test_a_full_database_is_still_the_busy_page(monkeypatch):
    response = answer_when(monkeypatch, OperationalError("FATAL: sorry, too many clients already"))
    assert response.status_code == 503
    assert "The hall is full for a moment" in response.content.decode()


@pytest.mark.django_db
def test_loading_the_session_of_a_signed_in_player_is_covered(monkeypatch, alice):
    """The session (and so the user) is read on first use, in the view: a 503 too."""
    client = Client()
    client.force_login(alice)

    def fail() -> None:
        raise OperationalError("connection failed: Connection refused")

    from django.core.cache import cache

    cache.clear()  # the session must come from the database
    with monkeypatch.context() as patch:
        patch.setattr(connection, "ensure_connection", fail)
        response = client.get("/matches/")
    assert response.status_code == 503
    assert UNREACHABLE in response.content.decode()

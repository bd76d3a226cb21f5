"""`request.user` read by a compiled query (config.auth): the same user as Django's own
`get_user` in every case its session can be in, and no SQL compiled after the first."""

from __future__ import annotations

import pytest
from django.contrib import auth
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY
from django.contrib.auth.models import AnonymousUser
from django.db.models.sql.compiler import SQLCompiler
from django.test import RequestFactory

from config import auth as compiled_auth

pytestmark = pytest.mark.django_db

MODEL = "django.contrib.auth.backends.ModelBackend"
ALLAUTH = "allauth.account.auth_backends.AuthenticationBackend"


def _request(client):
    """A request carrying `client`'s session, as SessionMiddleware gives it."""
    request = RequestFactory().get("/")
    request.session = client.session
    return request


def _both(client):
    """(Django's user, ours) for `client`'s session, each read from a fresh copy of it."""
    return auth.get_user(_request(client)), compiled_auth.get_user(_request(client))


@pytest.mark.parametrize("backend", [MODEL, ALLAUTH])
def test_a_logged_in_session_gives_its_user(client, alice, backend):
    client.force_login(alice, backend=backend)
    django_user, user = _both(client)
    assert user == django_user == alice
    assert user.is_authenticated


def test_the_middleware_puts_it_on_every_request(client, alice):
    client.force_login(alice)
    response = client.get("/healthz/live")
    assert response.wsgi_request.user == alice
    assert type(response.wsgi_request.user._wrapped) is type(alice)


def test_no_session_is_anonymous(client):
    django_user, user = _both(client)
    assert isinstance(user, AnonymousUser) and isinstance(django_user, AnonymousUser)


def test_an_inactive_user_is_anonymous(client, alice):
    client.force_login(alice)
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    django_user, user = _both(client)
    assert isinstance(user, AnonymousUser) and isinstance(django_user, AnonymousUser)


def test_a_deleted_user_is_anonymous(client, alice):
    client.force_login(alice)
    alice.delete()
    assert isinstance(compiled_auth.get_user(_request(client)), AnonymousUser)


def test_a_backend_no_longer_listed_is_anonymous(client, alice, settings):
    client.force_login(alice, backend=ALLAUTH)
    settings.AUTHENTICATION_BACKENDS = [MODEL]
    django_user, user = _both(client)
    assert isinstance(user, AnonymousUser) and isinstance(django_user, AnonymousUser)


def test_a_changed_password_logs_the_session_out_and_flushes_it(client, alice):
    client.force_login(alice)
    alice.set_password("a new secret phrase")
    alice.save()
    request = _request(client)
    assert isinstance(compiled_auth.get_user(request), AnonymousUser)
    assert BACKEND_SESSION_KEY not in request.session  # flushed, as Django flushes it


def test_a_session_without_a_hash_is_anonymous(client, alice):
    client.force_login(alice)
    request = _request(client)
    del request.session[HASH_SESSION_KEY]
    assert isinstance(compiled_auth.get_user(request), AnonymousUser)


def test_a_fallback_secret_keeps_the_user_and_moves_the_session(client, alice, settings):
    old = settings.SECRET_KEY
    client.force_login(alice)  # its hash made with `old`
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = "a rotated secret " * 4, [old]
    request = _request(client)
    key_before = request.session.session_key
    assert compiled_auth.get_user(request) == alice
    assert request.session[HASH_SESSION_KEY] == alice.get_session_auth_hash()
    assert request.session.session_key != key_before  # cycled, as Django cycles it


def test_another_backend_is_asked_as_django_asks_it(client, alice, settings, monkeypatch):
    asked = []

    class Backend(auth.backends.ModelBackend):
        def get_user(self, user_id):
            asked.append(user_id)
            return super().get_user(user_id)

    monkeypatch.setattr(compiled_auth, "load_backend", lambda path: Backend())
    client.force_login(alice)
    assert compiled_auth.get_user(_request(client)) == alice
    assert asked == [alice.pk]


def test_the_read_compiles_no_sql_after_the_first(client, alice, bob, monkeypatch):
    client.force_login(alice)
    compiled_auth.get_user(_request(client))  # compiled here, at the latest
    compiles = []
    as_sql = SQLCompiler.as_sql

    def counted(self, *args, **kwargs):
        if self.query.model is type(alice):
            compiles.append(self.query)
        return as_sql(self, *args, **kwargs)

    monkeypatch.setattr(SQLCompiler, "as_sql", counted)
    client.force_login(bob)
    request = _request(client)
    request.session.load()  # the session's own read is not the user's
    assert compiled_auth.get_user(request) == bob
    assert compiles == []
    assert auth.get_user(request) == bob
    assert len(compiles) == 1  # Django's own compiles its query each time: the test can tell

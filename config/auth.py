"""`request.user`, with the session's user read by a query compiled once per process.

Django's `AuthenticationMiddleware` loads the session's user through its backend's
`get_user(pk)`: for the model backends (Django's, and allauth's, which inherits it),
`User.objects.get(pk=pk)`, a queryset built and compiled to SQL again on every request
that reads `request.user`. A move reads it twice (its POST, and the other seat's board
fetch), and a board fetch does little else.

`get_user` here is Django's `django.contrib.auth.get_user`, step for step: the session's
backend must still be listed in AUTHENTICATION_BACKENDS; the session's hash must match the
user's (else one of the fallback secrets', and the session is then moved to the current
key), or the session is flushed and the request is anonymous. Only the read differs: when
the backend's `get_user` is the model backend's own, the row is read by a `CompiledQuery`
and checked by the backend's `user_can_authenticate` (an inactive user is anonymous), as
that `get_user` does; any other backend is asked as Django asks it. Sessions keep the
backend path they were made with, so nobody is logged out by this.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
    load_backend,
)
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject

from config.compiled import CompiledQuery

_user_by_pk: CompiledQuery[Any] = CompiledQuery(
    lambda pk: get_user_model()._default_manager.filter(pk=pk)
)


class CompiledAuthenticationMiddleware(AuthenticationMiddleware):
    """Django's middleware, with `request.user` loaded by `get_user` below."""

    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)  # its checks, and `request.auser` as Django's
        request.user = SimpleLazyObject(lambda: _cached_user(request))  # type: ignore[assignment]


def _cached_user(request: HttpRequest) -> Any:
    if not hasattr(request, "_cached_user"):
        request._cached_user = get_user(request)  # type: ignore[attr-defined]
    return request._cached_user  # type: ignore[attr-defined]


def get_user(request: HttpRequest) -> Any:
    """The session's user, or `AnonymousUser` (Django's `get_user`, the read compiled)."""
    user = None
    try:
        user_id = get_user_model()._meta.pk.to_python(request.session[SESSION_KEY])
        backend_path = request.session[BACKEND_SESSION_KEY]
    except KeyError:
        pass
    else:
        if backend_path in settings.AUTHENTICATION_BACKENDS:
            user = _backend_user(load_backend(backend_path), user_id)
            if hasattr(user, "get_session_auth_hash"):
                user = _verified(request, user)
    return user or AnonymousUser()


def _backend_user(backend: Any, user_id: Any) -> Any:
    if type(backend).get_user is not ModelBackend.get_user:
        return backend.get_user(user_id)
    rows = _user_by_pk(user_id)
    if not rows:
        return None
    return rows[0] if backend.user_can_authenticate(rows[0]) else None


def _verified(request: HttpRequest, user: Any) -> Any:
    """`user` if the session's hash is theirs (or a fallback secret's: the session then
    takes the current hash, under a new key); else None, the session flushed."""
    session_hash = request.session.get(HASH_SESSION_KEY)
    if session_hash:
        session_auth_hash = user.get_session_auth_hash()
        if constant_time_compare(session_hash, session_auth_hash):
            return user
        if any(
            constant_time_compare(session_hash, fallback)
            for fallback in user.get_session_auth_fallback_hash()
        ):
            request.session.cycle_key()
            request.session[HASH_SESSION_KEY] = session_auth_hash
            return user
    request.session.flush()
    return None

"""`Authorization: Bearer <token>`: the API's only way in (no session, so no CSRF).

A missing or unknown (or revoked) token is a 401; a token without the scope an endpoint
needs is a 403 (`caller`). Using a token notes its `last_used` (at most once a minute).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja.security import HttpBearer

from botapi import limits, selectors, services
from botapi.errors import ScopeMissing
from botapi.models import ApiToken


class BearerToken(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        found = selectors.token_find(text=token)
        if found is not None:
            request.user = found.user
        return found


def caller(request: HttpRequest, scope: str) -> Any:
    """The token's user, once the token is known to hold `scope` (else ScopeMissing)."""
    token: ApiToken = request.auth  # type: ignore[attr-defined]
    if not token.has_scope(scope):
        raise ScopeMissing(f"This token has no “{scope}” scope: make one that has.")
    limits.check_rate(request=request, token=token)
    services.token_used(token=token)
    return token.user

from django.http import HttpRequest

from inbox import selectors


def unread(request: HttpRequest) -> dict[str, object]:
    """The header bell's unread count for the signed-in player (lazily: one query if shown)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"inbox_unread": lambda: selectors.unread_count(user=user)}

from django.http import HttpRequest

from games import selectors


def turns(request: HttpRequest) -> dict[str, object]:
    """How many matches wait for the signed-in player, for the header badge (lazily)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"turns_waiting": lambda: selectors.turn_count_for(user=user)}

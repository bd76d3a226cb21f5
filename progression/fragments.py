"""Progression's HTML that another app's page carries: the header's level bar, out of band.

`games.rendering` sends it after a finished match's board for the seat's player (registered
in `ProgressionConfig.ready`), so the header moves with the result whether it came as the
answer to the player's own move or as a push.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from progression import selectors

LEVEL_BAR_TEMPLATE = "progression/partials/header.html"


def level_bar_oob_html(*, user: Any) -> str:
    """The header's level bar of `user`, marked to replace the one on the page."""
    bar = selectors.level_bar_for(user=user)
    return render_to_string(LEVEL_BAR_TEMPLATE, {"bar": bar, "oob": True})

"""The one receiver: a finished match is credited in the transaction that records it."""

from __future__ import annotations

from typing import Any

from progression import services


def on_match_finished(sender: Any, match: Any, **kwargs: Any) -> None:
    services.match_result_record(match=match)

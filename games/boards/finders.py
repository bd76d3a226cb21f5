"""A staticfiles finder that finds each board's static files in its own folder.

Like the template loader (`games.boards.loaders`), it asks the board table at each lookup,
so `collectstatic`, whitenoise (in development) and `{% static %}` see a board registered
at run time too. Paths keep their usual form ("img/<slug>/...", "css/games/<slug>.css").
"""

from __future__ import annotations

import os
from pathlib import Path

from django.contrib.staticfiles import utils
from django.contrib.staticfiles.finders import BaseFinder
from django.core.files.storage import FileSystemStorage
from django.utils._os import safe_join


def _roots() -> list[Path]:
    from games.boards import all_boards

    return [board.static_dir for board in all_boards() if board.static_dir.is_dir()]


class BoardStaticFinder(BaseFinder):
    def check(self, **kwargs):
        return []

    def find(self, path, find_all=False, **kwargs):
        find_all = find_all or kwargs.get("all", False)  # Django < 6 also says `all`
        found = []
        for root in _roots():
            try:
                candidate = safe_join(str(root), path)
            except ValueError:  # outside the folder ("../")
                continue
            if os.path.exists(candidate):
                if not find_all:
                    return candidate
                found.append(candidate)
        return found

    def list(self, ignore_patterns):
        for root in _roots():
            storage = FileSystemStorage(location=str(root))
            for path in utils.get_files(storage, ignore_patterns):
                yield path, storage

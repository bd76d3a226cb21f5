"""A template loader that finds each board's templates in its own folder.

It asks the board table (`games.boards`) at each lookup, so a board registered at run time
(a test's game) is found too. Template names keep their usual form
("games/<slug>/rules.html"): the folder holds `templates/games/<slug>/...`. Its Jinja2 templates
(the board) are found the same way by games.jinja.
"""

from __future__ import annotations

from django.template.loaders.filesystem import Loader as FilesystemLoader


class BoardTemplateLoader(FilesystemLoader):
    def get_dirs(self):
        from games.boards import all_boards

        return [board.templates_dir for board in all_boards() if board.templates_dir.is_dir()]

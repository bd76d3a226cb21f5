"""Static files in production: whitenoise's compressed, hashed files, with their URLs remembered.

A board draws a couple of dozen `{% static %}` URLs, and the manifest storage works each
one out again from the manifest (a lookup, a hash-name split, a URL join): about a fifth of
a board's render time. The manifest cannot change while a process runs (it is read once,
at start), so each name's URL is worked out once per process.
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._urls: dict[str, str] = {}

    def url(self, name: str | None, force: bool = False) -> str:
        if force or name is None:
            return super().url(name, force)
        try:
            return self._urls[name]
        except KeyError:
            url = self._urls[name] = super().url(name)
            return url

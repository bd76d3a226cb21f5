"""No template reads a match's seed (issue 16): the board and the replay get
`revealed_seed` from a selector, None until the match is over, so a template cannot show
a seed early by mistake. The match object still reaches templates; this keeps them off
its `.seed` (and the match's state) by reading every template the site can load."""

from __future__ import annotations

import re
from pathlib import Path

from django.template import engines

# `{{ x.seed }}`, `{% if match.seed %}`, `|default:match.seed`...: an attribute named seed,
# or the rng state, read inside a tag or a variable.
READS_SEED = re.compile(r"\{[{%][^}]*\.(seed|rng_state|_seed)\b[^}]*[}%]\}")


def _loader_dirs(loaders) -> list[Path]:
    """Every directory the template loaders search (the cached loader's inner ones too: the
    site's, each app's and each game board's own templates/)."""
    found: list[Path] = []
    for loader in loaders:
        found += _loader_dirs(getattr(loader, "loaders", []))
        if hasattr(loader, "get_dirs"):
            found += [Path(d) for d in loader.get_dirs()]
    return found


def _template_files() -> list[Path]:
    roots = _loader_dirs(engines["django"].engine.template_loaders)
    files = {path for root in roots if root.exists() for path in root.rglob("*.html")}
    return sorted(files)


def test_no_template_reads_a_seed() -> None:
    files = _template_files()
    names = {path.as_posix() for path in files}
    assert any("/boards/grimhand/templates/" in name for name in names)  # each board's own
    assert any("/arcana/templates/" in name for name in names)  # each app's
    offenders = [
        f"{path}: {match.group(0)}"
        for path in files
        if ".venv" not in path.parts and "site-packages" not in path.parts
        for match in READS_SEED.finditer(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_the_check_catches_a_seed_read() -> None:
    assert READS_SEED.search("<code>{{ match.seed }}</code>")
    assert READS_SEED.search("{% if match.seed %}x{% endif %}")
    assert not READS_SEED.search("<code>{{ revealed_seed }}</code>")

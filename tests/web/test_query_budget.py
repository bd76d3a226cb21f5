"""What a move and a board fetch cost in SQL queries, held under a budget.

Measured as in production: Celery is not eager (tasks go to a broker, not into the
request), both seats have the match open (so both boards are pushed) and a spectator
watches. A move POST renders each board once: the mover's answer is the board pushed to
the mover's pages.
"""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.urls import reverse

from games import presence, rendering, selectors
from games.models import Match, Move

MOVE_BUDGET = 12
BOARD_BUDGET = 4


@pytest.fixture
def production_tasks(settings):
    """Tasks are queued on an in-memory broker, as they would be on Redis: not run here."""
    from config.celery_app import app

    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.task_always_eager = False
    yield
    app.conf.task_always_eager = True


def _everyone_looking(match: Match) -> None:
    for seat in match.seats.all():
        presence.presence_touch(user_id=seat.user_id, match_id=match.pk, channel=f"c{seat.pk}")
    presence.presence_touch(user_id=None, match_id=match.pk, channel="spectator")


def _mover(match: Match, users: list) -> tuple:
    seat = match.seats.get(index=match.seats_to_act[0])
    return next(user for user in users if user.pk == seat.user_id)


def _mover_before(users: list, response) -> object:
    return response.mover


def _post_move(client, match: Match) -> object:
    return client.post(
        reverse("games:move", args=[match.pk]),
        {"ply": match.ply, "move": json.dumps({"type": "attack"}), "move_id": f"m{match.ply}"},
        HTTP_HX_REQUEST="true",
    )


@pytest.mark.django_db(transaction=True)
def test_a_move_post_stays_within_its_query_budget(
    client, make_user, make_match, production_tasks, django_assert_max_num_queries
):
    """A real transaction (no test savepoints), its after-commit pushes run as they would."""
    users = [make_user(), make_user()]
    match = make_match(*users)
    _everyone_looking(match)
    for _ in range(3):  # the first moves, and a move in the middle of the match
        match.refresh_from_db()
        client.force_login(_mover(match, users))
        client.get(reverse("games:match", args=[match.pk]))  # the session is warm
        with django_assert_max_num_queries(MOVE_BUDGET):
            response = _post_move(client, match)
        assert response.status_code == 200
    assert Move.objects.filter(match=match).count() == 3


@pytest.mark.django_db
def test_the_mover_s_answer_is_the_board_pushed_to_them_rendered_once(
    client, make_user, make_match, production_tasks, django_capture_on_commit_callbacks, monkeypatch
):
    users = [make_user(), make_user()]
    match = make_match(*users)
    _everyone_looking(match)
    rendered = []
    real = rendering.draw
    monkeypatch.setattr(rendering, "draw", lambda *a, **k: rendered.append(a) or real(*a, **k))
    mover = _mover(match, users)
    client.force_login(mover)
    with django_capture_on_commit_callbacks(execute=True):
        response = _post_move(client, match)
    response.mover = mover
    # one board per viewer: the mover's (pushed and answered), the other seat's, spectators'
    assert len(rendered) == 3
    match = selectors.match_get(match_id=match.pk)
    mover_seat = selectors.seat_of(match=match, user=_mover_before(users, response))
    assert response.content.decode() == rendering.board_html(match=match, seat=mover_seat)
    assert len(rendered) == 3  # that was the cached board: nothing rendered again


@pytest.mark.django_db(transaction=True)
def test_a_move_s_boards_go_to_the_shared_cache_in_one_write(
    client, make_user, make_match, production_tasks, monkeypatch
):
    """The answer's board and the pushes' boards, drawn either side of the answer, are
    written together once the answer has gone out: one round trip to Redis, not two. The
    test client runs each request in the test's own context: the second move's boards are
    written too, not kept for a write already made."""
    users = [make_user(), make_user()]
    match = make_match(*users)
    _everyone_looking(match)
    writes = []
    real = rendering._shared_put
    monkeypatch.setattr(rendering, "_shared_put", lambda f: writes.append(dict(f)) or real(f))
    for ply in (0, 1):
        match.refresh_from_db()
        assert match.ply == ply
        client.force_login(_mover(match, users))
        assert _post_move(client, match).status_code == 200
        assert len(writes) == ply + 1
        viewers = sorted(key.rsplit(":", 1)[1] for key in writes[ply])
        assert viewers == ["seat0", "seat1", "watch"]
        assert all(f"board:{match.pk}:{ply + 1}:" in key for key in writes[ply])
        assert all(cache.get(key) == html for key, html in writes[ply].items())


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("other_looking", [True, False])
def test_the_reminder_reads_presence_from_the_pushes_read(
    client, make_user, make_match, production_tasks, monkeypatch, other_looking
):
    """After a move, the pushes read who is looking (one round trip for every seat and the
    spectators); the next seat's reminder, a step later in the same request, asks whether
    its player is present and is answered from that read, not from Redis again."""
    from games import effects

    users = [make_user(), make_user()]
    match = make_match(*users)
    mover = _mover(match, users)
    other = next(user for user in users if user != mover)
    _everyone_looking(match)
    if not other_looking:
        presence.presence_leave(
            user_id=other.pk, match_id=match.pk, channel=f"c{match.seats.get(user=other).pk}"
        )
    reads, sent, in_many = [], [], []
    real_get, real_get_many = presence.cache.get, presence.cache.get_many

    def get(key, *args, **kwargs):
        if not in_many:  # a cache's get_many may be its gets (the local memory cache's are)
            reads.append(key)
        return real_get(key, *args, **kwargs)

    def get_many(keys, *args, **kwargs):
        in_many.append(True)
        try:
            return real_get_many(keys, *args, **kwargs)
        finally:
            in_many.pop()

    monkeypatch.setattr(presence.cache, "get", get)
    monkeypatch.setattr(presence.cache, "get_many", get_many)
    monkeypatch.setattr(effects, "task_send", lambda name, *args: sent.append(name))
    client.force_login(mover)
    assert _post_move(client, match).status_code == 200
    assert [key for key in reads if key == presence._key(other.pk, match.pk)] == []
    reminded = "inbox.tasks.remind_turn" in sent
    assert reminded is not other_looking


@pytest.mark.django_db
def test_nobody_looking_renders_only_the_answer(
    client, make_user, make_match, production_tasks, django_capture_on_commit_callbacks, monkeypatch
):
    users = [make_user(), make_user()]
    match = make_match(*users)
    rendered = []
    real = rendering.draw
    monkeypatch.setattr(rendering, "draw", lambda *a, **k: rendered.append(a) or real(*a, **k))
    client.force_login(_mover(match, users))
    with django_capture_on_commit_callbacks(execute=True):
        assert _post_move(client, match).status_code == 200
    assert len(rendered) == 1  # no page open: no push rendered, no spectator board


@pytest.mark.django_db
@pytest.mark.parametrize("warm", [False, True])
def test_a_board_fetch_stays_within_its_query_budget(
    client, make_user, make_match, warm, django_assert_max_num_queries
):
    users = [make_user(), make_user()]
    match = make_match(*users)
    client.force_login(users[1])
    url = reverse("games:board", args=[match.pk])
    client.get(url, HTTP_HX_REQUEST="true")  # the session is in the cache now
    if not warm:  # the board is not rendered yet: the fetch renders it
        match = selectors.match_get(match_id=match.pk)
        cache.delete(rendering._key(match, selectors.seat_of(match=match, user=users[1])))
    with django_assert_max_num_queries(BOARD_BUDGET):
        response = client.get(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and b'id="board"' in response.content

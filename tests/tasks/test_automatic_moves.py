"""The AI / auto-play task: eager on the embedded default, a real worker on a real broker.

The worker tests run when CELERY_TEST_BROKER_URL names a broker (.ci/run sets it when Redis
answers): the rest of the suite stays eager, these switch the app to that broker.
"""

import os
import time

import pytest
from celery.contrib.testing.worker import start_worker
from celery.worker import state as worker_state
from kombu import pools as kombu_pools

from config.celery_app import app as celery_app
from games import services, tasks
from games.models import Match, Move

pytestmark = pytest.mark.django_db(transaction=True)

AI_FIRST = {"deal": {"decks": [[[20, 150]] * 4, [[20, 150]] * 4], "first": 1}}
BROKER = os.environ.get("CELERY_TEST_BROKER_URL", "")


def ai_match(user):
    return services.match_create(
        creator=user, game_slug="dogblade", opponent="ai", options=AI_FIRST
    )


def wait_for(predicate, seconds=20.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_the_ai_moves_as_soon_as_it_is_its_turn(alice):
    match = ai_match(alice)
    match.refresh_from_db()
    assert match.ply == 1 and match.to_act == "0"
    move = Move.objects.get(match=match)
    assert (move.seat, move.user, move.payload) == (1, None, {"type": "attack"})


def test_the_ai_answers_a_player_move(alice):
    match = ai_match(alice)
    services.move_submit(match_id=match.pk, user=alice, ply=1, move={"type": "attack"})
    match.refresh_from_db()
    assert match.ply == 3 and match.to_act == "0"


def test_running_the_task_again_makes_no_second_move(alice):
    match = ai_match(alice)
    assert tasks.advance_automatic_seats(match.pk) == 0
    assert tasks.advance_automatic_seats.delay(match.pk) is not None
    assert Move.objects.filter(match=match).count() == 1


def test_the_task_ignores_finished_and_missing_matches(alice):
    match = ai_match(alice)
    services.match_resign(match_id=match.pk, user=alice)
    assert tasks.advance_automatic_seats(match.pk) == 0
    assert tasks.advance_automatic_seats(987654) == 0


def test_autoplay_plays_a_forced_move_for_a_person(alice):
    match = ai_match(alice)
    services.seat_set_autoplay(match_id=match.pk, user=alice, is_enabled=True)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED  # every Dog Blade move is forced
    assert Move.objects.filter(match=match).count() == match.ply


@pytest.mark.django_db
def test_the_move_path_enqueues_after_commit_only(alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        match = ai_match(alice)
        assert Move.objects.filter(match=match).count() == 0  # nothing ran inside the transaction
    assert len(callbacks) == 1
    callbacks[0]()
    assert Move.objects.filter(match=match).count() == 1


@pytest.fixture
def real_worker():
    if not BROKER:
        pytest.skip("set CELERY_TEST_BROKER_URL to run the task tests on a real broker and worker")
    saved = {key: celery_app.conf[key] for key in ("broker_url", "task_always_eager")}
    celery_app.conf.update(broker_url=BROKER, task_always_eager=False)
    _drop_broker_connections()
    celery_app.control.purge()  # tasks left by an earlier run must not touch this one's ids
    try:
        with start_worker(
            celery_app, pool="threads", concurrency=2, perform_ping_check=False
        ) as worker:
            yield worker
            # What the test's last change set off (a result's notices and pushes) runs on:
            # the database flush after the test would deadlock with a task still writing.
            assert wait_for(_worker_idle, IDLE_SECONDS), "the worker never went idle"
    finally:
        celery_app.conf.update(**saved)
        _drop_broker_connections()


IDLE_SECONDS = 30.0


def _worker_idle() -> bool:
    """Nothing queued, reserved or running, twice over a short while (a task that just
    ended may have queued another)."""
    for _ in range(2):
        if worker_state.active_requests or worker_state.reserved_requests or _queued():
            return False
        time.sleep(0.2)
    return True


def _queued() -> int:
    with celery_app.connection_for_write() as connection:
        queue = celery_app.conf.task_default_queue
        try:
            declared = connection.default_channel.queue_declare(queue=queue, passive=True)
        except connection.channel_errors:  # Redis keeps no empty queue: "no queue" is none
            return 0
        return declared.message_count


def _drop_broker_connections():
    """Publishers made for the eager default would otherwise keep publishing to memory://,
    and kombu's process-wide pools would hand out the closed ones afterwards."""
    kombu_pools.reset()
    if celery_app._pool is not None:
        celery_app._pool.force_close_all()
        celery_app._pool = None
    celery_app.amqp._producer_pool = None


def test_a_real_worker_plays_the_ai_once_per_ply(alice, real_worker):
    match = ai_match(alice)
    assert wait_for(lambda: Match.objects.get(pk=match.pk).ply == 1), "the worker never moved"
    for _ in range(3):  # the same task delivered again (a retry, a duplicate): no new move
        tasks.advance_automatic_seats.delay(match.pk)
    services.move_submit(match_id=match.pk, user=alice, ply=1, move={"type": "attack"})
    assert wait_for(lambda: Match.objects.get(pk=match.pk).ply == 3), "the worker never answered"
    time.sleep(0.5)
    plies = list(Move.objects.filter(match=match).values_list("ply", "seat"))
    assert plies == [(0, 1), (1, 0), (2, 1)]


def test_the_hard_ai_searches_over_samples_and_moves_once(alice):
    deck = [f"{rank}{suit}" for suit in "CDHS" for rank in ["A", *map(str, range(2, 11))]]
    match = services.match_create(
        creator=alice,
        game_slug="haymaker",
        opponent="ai",
        ai_level="hard",
        options={"deal": {"deck": deck, "first": 1}},  # the AI attacks first
    )
    match.refresh_from_db()
    logged = Move.objects.get(match=match)
    assert logged.seat == 1 and logged.user is None
    assert match.seats_to_act == (0,) and match.status == Match.Status.ACTIVE
    assert tasks.advance_automatic_seats(match.pk) == 0  # nothing due: no second move


def test_the_real_worker_sweeps_an_overdue_match(alice, bob, real_worker):
    import datetime as dt

    from django.utils import timezone

    from games.models import Seat

    match = services.match_create(
        creator=alice, game_slug="dogblade", opponent="player", invitee_username="bob"
    )
    services.match_join(match_id=match.pk, user=bob)
    match.refresh_from_db()
    late = match.seats_to_act[0]
    Seat.objects.filter(match=match, index=late).update(
        deadline=timezone.now() - dt.timedelta(seconds=1)
    )
    tasks.sweep_clocks.delay()
    tasks.sweep_clocks.delay()  # twice, as a duplicate delivery would: settled once
    assert wait_for(lambda: Match.objects.get(pk=match.pk).status == Match.Status.FINISHED)
    match.refresh_from_db()
    assert match.outcome["reason"] == "timeout" and match.outcome["winners"] == [1 - late]


def test_every_beat_entry_names_a_registered_task():
    from django.conf import settings

    celery_app.loader.import_default_modules()
    for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
        assert entry["task"] in celery_app.tasks, f"beat entry {name}: no task {entry['task']}"

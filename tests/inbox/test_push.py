"""Web Push: the opt-in, the per-kind choice shared with email, the subscriptions' checks
and clean-up, and a real push end to end: pywebpush encrypts and signs it, our own push
service on localhost (tests/push_service.py) receives it, and the "browser" keys made
here decrypt it with http_ece. No outside service is called.
"""

from __future__ import annotations

import json

import pytest
from django.core import mail
from hypothesis import HealthCheck, given
from hypothesis import settings as examples
from hypothesis import strategies as st

from games import services as games
from inbox import services, tasks, webpush
from inbox.models import Notification, NotificationSettings, PushSubscription
from tests.push_service import Browser, b64url, push_service, vapid_claims, vapid_key_pair

Kind = Notification.Kind
SUBSCRIBE = "/notifications/push/subscribe/"
UNSUBSCRIBE = "/notifications/push/unsubscribe/"
SUBJECT = "mailto:push-test@cardhall.example"


@pytest.fixture
def vapid(settings):
    public, private = vapid_key_pair()
    settings.WEBPUSH_VAPID_PUBLIC_KEY = public
    settings.WEBPUSH_VAPID_PRIVATE_KEY = private
    settings.WEBPUSH_VAPID_SUBJECT = SUBJECT
    settings.WEBPUSH_ALLOW_LOCALHOST = True
    return public


@pytest.fixture
def service():
    with push_service() as running:
        yield running


def subscribe(client, user, document, **headers):
    client.force_login(user)
    body = document if isinstance(document, str | bytes) else json.dumps(document)
    return client.post(SUBSCRIBE, body, content_type="application/json", **headers)


# --- end to end ------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_your_turn_arrives_encrypted_and_signed_at_the_push_service(
    client, duel, alice, bob, vapid, service
):
    phone = Browser(service.endpoint("bob-phone"))
    response = subscribe(client, bob, phone.subscription(), HTTP_USER_AGENT="Phone browser")
    assert response.status_code == 201 and response.json() == {"ok": True, "devices": 1}
    assert services.settings_get(user=bob).push is True  # subscribing is the opt-in

    games.move_submit(match_id=duel.pk, user=alice, ply=0, move={"type": "attack"})

    [request] = service.received
    assert request.path == "/push/bob-phone"
    assert request.headers["content-encoding"] == "aes128gcm"
    assert request.headers["urgency"] == "high" and int(request.headers["ttl"]) > 0
    assert phone.decrypt(request.body) == {
        "match": duel.pk,
        "game": "Dog Blade",
        "text": "Your turn in Dog Blade against alice",
    }
    claims = vapid_claims(request, public_key=vapid)
    assert claims["aud"] == service.url and claims["sub"] == SUBJECT
    notification = Notification.objects.get(user=bob, kind=Kind.TURN)
    assert notification.by_push and notification.pushed_at is not None
    assert notification.by_email and len(mail.outbox) == 1  # email went its own way
    device = PushSubscription.objects.get(user=bob)
    assert device.device == "Phone browser" and device.last_sent is not None


@pytest.mark.django_db(transaction=True)
def test_an_invitation_is_pushed_to_every_device_once(client, alice, bob, vapid, service):
    phone, laptop = Browser(service.endpoint("p")), Browser(service.endpoint("l"))
    subscribe(client, bob, phone.subscription())
    subscribe(client, bob, laptop.subscription())
    match = games.match_create(
        creator=alice, game_slug="dogblade", opponent="player", invitee_username="bob"
    )
    assert len(service.received) == 2
    by_path = {request.path: request for request in service.received}
    assert phone.decrypt(by_path["/push/p"].body)["text"] == "alice invites you to Dog Blade"
    assert laptop.decrypt(by_path["/push/l"].body)["match"] == match.pk
    assert by_path["/push/p"].headers["urgency"] == "normal"
    notification = Notification.objects.get(user=bob, kind=Kind.INVITE)
    assert tasks.push_notification(notification.pk) == 0  # redelivered: claimed already
    assert len(service.received) == 2


@pytest.mark.django_db(transaction=True)
def test_running_late_is_pushed_urgently_once(client, duel, alice, vapid, service):
    from games.models import Seat
    from inbox.services import late_due

    laptop = Browser(service.endpoint("alice"))
    subscribe(client, alice, laptop.subscription())
    seat = Seat.objects.select_related("match", "user").get(match=duel, index=0)
    due = late_due(seat)
    assert services.late_remind(seat=seat, now=due) is not None
    assert services.late_remind(seat=seat, now=due) is None  # once per deadline
    [request] = service.received
    assert request.headers["urgency"] == "high"
    data = laptop.decrypt(request.body)
    assert data["match"] == duel.pk
    assert data["text"].endswith("left to move in Dog Blade against bob")


# --- the same choices as email -----------------------------------------------------------------


def _device(user, service, name="d"):
    browser = Browser(service.endpoint(name))
    stored = services.push_subscribe(
        user=user, subscription=webpush.subscription_read(browser.subscription())
    )
    return browser, stored


@pytest.mark.django_db(transaction=True)
def test_push_follows_the_per_kind_choice_shared_with_email(alice, vapid, service):
    _device(alice, service)
    services.settings_update(
        user=alice, in_app=True, email=True, digest=False, digest_hour=8, email_kinds=["invite"]
    )
    turn = services.notification_send(user=alice, kind=Kind.TURN, key="t", text="Your turn")
    assert (turn.in_app, turn.by_email, turn.by_push) == (True, False, False)
    invite = services.notification_send(user=alice, kind=Kind.INVITE, key="i", text="Come")
    assert (invite.by_email, invite.by_push) == (True, True)
    assert [request.path for request in service.received] == ["/push/d"]


@pytest.mark.django_db(transaction=True)
def test_no_push_when_off_looking_against_the_ai_or_not_a_pushed_kind(alice, vapid, service):
    _device(alice, service)

    def send(key, kind=Kind.TURN, **options):
        return services.notification_send(user=alice, kind=kind, key=key, text="x", **options)

    assert not send("present", is_present=True).by_push  # looking at the board
    assert not send("ai", may_email=False).by_push  # against the AI only: no email, no push
    assert not send("over", kind=Kind.FINISHED).by_push  # results are not pushed
    assert not send("pause", kind=Kind.PAUSE).by_push
    services.settings_update(
        user=alice, in_app=True, email=True, digest=False, digest_hour=8, push=False
    )
    assert not send("off").by_push  # switched off for every device
    assert service.received == []
    assert send("on-again", kind=Kind.LATE).by_push is False  # still off
    services.settings_update(user=alice, in_app=True, email=True, digest=False, digest_hour=8)
    assert services.settings_get(user=alice).push is False  # push=None keeps the choice


@pytest.mark.django_db(transaction=True)
def test_a_device_the_push_service_forgot_is_removed(alice, vapid, service):
    _gone_browser, gone = _device(alice, service, "gone")
    _lost_browser, lost = _device(alice, service, "lost")
    _kept_browser, kept = _device(alice, service, "kept")
    _broken_browser, broken = _device(alice, service, "broken")
    service.statuses.update({"/push/gone": 410, "/push/lost": 404, "/push/broken": 500})
    services.notification_send(user=alice, kind=Kind.TURN, key="t", text="Your turn")
    assert len(service.received) == 4
    left = set(PushSubscription.objects.values_list("pk", flat=True))
    assert left == {kept.pk, broken.pk}  # a 500 is a failure, not a goodbye
    kept.refresh_from_db()
    broken.refresh_from_db()
    assert kept.last_sent is not None and broken.last_sent is None


@pytest.mark.django_db(transaction=True)
def test_a_push_service_that_does_not_answer_fails_nothing(alice, vapid, settings):
    settings.WEBPUSH_TIMEOUT = 1.0
    browser = Browser("http://127.0.0.1:9/push/nobody")  # the discard port: refused
    subscription = webpush.subscription_read(browser.subscription())
    services.push_subscribe(user=alice, subscription=subscription)
    notification = services.notification_send(user=alice, kind=Kind.TURN, key="t", text="x")
    assert notification.by_push
    assert PushSubscription.objects.filter(user=alice).count() == 1  # kept: maybe a blip
    assert Notification.objects.get(pk=notification.pk).pushed_at is not None


# --- the settings page and the subscription endpoints ----------------------------------------


@pytest.mark.django_db
def test_without_vapid_keys_push_is_off_and_the_page_says_so(client, alice, settings):
    settings.WEBPUSH_VAPID_PUBLIC_KEY = settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    settings.WEBPUSH_ALLOW_LOCALHOST = True
    client.force_login(alice)
    page = client.get("/notifications/settings/").content.decode()
    assert 'data-testid="push-unavailable"' in page and "not set up on this server" in page
    assert "data-push-key" not in page
    response = subscribe(client, alice, Browser("https://push.example/x").subscription())
    assert response.status_code == 409 and "not set up" in response.json()["error"]
    assert not PushSubscription.objects.exists()
    form = {"in_app": "on", "email": "on", "push": "on", "digest_hour": "8"}
    assert client.post("/notifications/settings/", form).status_code == 302
    assert services.settings_get(user=alice).push is False
    notification = services.notification_send(user=alice, kind=Kind.TURN, key="t", text="x")
    assert notification.by_push is False


@pytest.mark.django_db
def test_the_settings_page_offers_push_and_saves_the_switch(client, alice, vapid):
    client.force_login(alice)
    page = client.get("/notifications/settings/").content.decode()
    assert f'data-push-key="{vapid}"' in page and 'data-testid="push-on"' in page
    assert 'name="push"' in page and "js/push.js" in page
    assert "Email and push me about" in page
    form = {"in_app": "on", "email": "on", "push": "on", "digest_hour": "8"}
    assert client.post("/notifications/settings/", form).status_code == 302
    assert services.settings_get(user=alice).push is True
    del form["push"]
    assert client.post("/notifications/settings/", form).status_code == 302
    assert services.settings_get(user=alice).push is False


@pytest.mark.django_db
def test_unsubscribing_forgets_only_my_own_device(client, alice, bob, vapid):
    mine = Browser("https://push.example/mine").subscription()
    theirs = Browser("https://push.example/theirs").subscription()
    assert subscribe(client, bob, theirs).status_code == 201
    assert subscribe(client, alice, mine).status_code == 201
    response = client.post(
        UNSUBSCRIBE, {"endpoint": theirs["endpoint"]}, content_type="application/json"
    )
    assert response.json() == {"ok": True, "removed": 0, "devices": 1}
    response = client.post(
        UNSUBSCRIBE, {"endpoint": mine["endpoint"]}, content_type="application/json"
    )
    assert response.json() == {"ok": True, "removed": 1, "devices": 0}
    assert list(PushSubscription.objects.values_list("user__username", flat=True)) == ["bob"]
    response = client.post(UNSUBSCRIBE, "[", content_type="application/json")
    assert response.status_code == 400 and "not valid JSON" in response.json()["error"]


@pytest.mark.django_db
def test_a_browser_subscribed_again_by_someone_else_moves_to_them(client, alice, bob, vapid):
    browser = Browser("https://push.example/shared").subscription()
    subscribe(client, alice, browser)
    subscribe(client, bob, browser)
    [device] = PushSubscription.objects.all()
    assert device.user == bob


def test_anonymous_visitors_cannot_subscribe(client, db, vapid):
    response = client.post(SUBSCRIBE, "{}", content_type="application/json")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not PushSubscription.objects.exists()


def _good():
    return Browser("https://push.example/abc").subscription()


def _with(**changes):
    document = _good()
    keys = changes.pop("keys", {})
    document.update(changes)
    document["keys"] = {**document["keys"], **keys}
    return document


BAD = [
    pytest.param("{", "not valid JSON", id="junk-json"),
    pytest.param(b"\xff\xfe", "not valid UTF-8", id="not-utf8"),
    pytest.param("[1, 2]", "JSON object with an endpoint", id="a-list"),
    pytest.param('"https://push.example/abc"', "JSON object", id="a-string"),
    pytest.param(json.dumps({"keys": {}}), "no endpoint", id="no-endpoint"),
    pytest.param(_with(endpoint=42), "no endpoint", id="endpoint-a-number"),
    pytest.param(_with(endpoint="http://push.example/abc"), "https", id="plain-http"),
    pytest.param(_with(endpoint="ftp://push.example/abc"), "https", id="ftp"),
    pytest.param(_with(endpoint="https:///abc"), "host", id="no-host"),
    pytest.param(_with(endpoint="https://u:p@push.example/"), "no user name", id="user"),
    pytest.param(_with(endpoint="https://push.example/a b"), "spaces", id="space"),
    pytest.param(_with(endpoint="https://push.example:99999/"), "not a URL", id="bad-port"),
    pytest.param(_with(endpoint="https://10.0.0.5/push"), "internet", id="private-ip"),
    pytest.param(_with(endpoint="https://169.254.169.254/"), "internet", id="metadata-ip"),
    pytest.param(_with(endpoint="https://x/" + "a" * 1000), "too long", id="long"),
    pytest.param(json.dumps({"endpoint": "https://push.example/abc"}), "no keys", id="no-keys"),
    pytest.param(_with(keys={"p256dh": "!!!"}), "not base64url", id="p256dh-junk"),
    pytest.param(_with(keys={"p256dh": "BAAA"}), "uncompressed P-256", id="p256dh-short"),
    pytest.param(_with(keys={"p256dh": "BA" + "A" * 85}), "not a point", id="not-on-curve"),
    pytest.param(_with(keys={"auth": "AAAA"}), "16 bytes", id="auth-short"),
    pytest.param(_with(keys={"auth": None}), "auth key is missing", id="auth-missing"),
    pytest.param(_with(keys={"p256dh": ["x"]}), "p256dh key is missing", id="p256dh-list"),
    pytest.param(json.dumps(_good()) + " " * 5000, "too large", id="huge"),
    pytest.param("[" * 100 + "]" * 100, "nested too deep", id="deep"),
    pytest.param(_with(endpoint="https://push.example/\u0000"), "control", id="nul"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("document", "message"), BAD)
def test_a_bad_subscription_says_why_and_writes_nothing(
    client, alice, vapid, settings, document, message
):
    settings.WEBPUSH_ALLOW_LOCALHOST = False
    response = subscribe(client, alice, document)
    assert response.status_code == 400
    assert message in response.json()["error"], response.json()
    assert not PushSubscription.objects.exists()
    assert not NotificationSettings.objects.filter(user=alice, push=True).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "[::1]", "push.localhost"])
def test_a_localhost_endpoint_only_where_the_tests_allow_it(client, alice, vapid, settings, host):
    document = _with(endpoint=f"http://{host}:8123/push/x")
    settings.WEBPUSH_ALLOW_LOCALHOST = False
    response = subscribe(client, alice, document)
    assert response.status_code == 400 and "internet" in response.json()["error"]
    settings.WEBPUSH_ALLOW_LOCALHOST = True
    assert subscribe(client, alice, document).status_code == 201


def test_a_payload_holds_the_match_the_game_and_a_short_text_only():
    data = json.loads(webpush.payload(match_id=7, game="Grimhand", text="Your turn " * 40))
    assert set(data) == {"match", "game", "text"}
    assert data["match"] == 7 and len(data["text"]) == webpush.TEXT_MAX


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=10), children, max_size=3)
    ),
    max_leaves=10,
)
ENDPOINTS = st.one_of(
    JSON_VALUES,
    st.sampled_from(["https://push.example/a", "http://push.example/a", "https://[::1]/"]),
    st.text(max_size=60).map(lambda tail: "https://push.example/" + tail),
)


@pytest.mark.django_db
@examples(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    endpoint=ENDPOINTS,
    p256dh=st.one_of(JSON_VALUES, st.binary(max_size=70).map(b64url), st.just(Browser("x").p256dh)),
    auth=st.one_of(JSON_VALUES, st.binary(max_size=20).map(b64url), st.just(b64url(bytes(16)))),
    extra=JSON_VALUES,
)
def test_any_subscription_is_stored_whole_or_refused_with_a_reason(
    client, alice, vapid, endpoint, p256dh, auth, extra
):
    document = {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}, "x": extra}
    response = subscribe(client, alice, document)
    if response.status_code == 201:
        stored = PushSubscription.objects.get(endpoint=endpoint)
        assert (stored.p256dh, stored.auth) == (p256dh, auth)
        stored.delete()
    else:
        assert response.status_code == 400 and response.json()["error"].endswith(".")
        assert not PushSubscription.objects.exists()

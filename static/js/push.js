// Web Push on the notification settings page: turn it on or off for this browser.
// The page's fieldset [data-push-key] carries the server's VAPID public key and the URLs;
// the subscription (PushSubscription.toJSON()) is posted as JSON with the CSRF token.
(function () {
  "use strict";

  var box = document.querySelector("[data-push-key]");
  if (!box) return;
  var status = box.querySelector("[data-testid=push-status]");
  var onButton = box.querySelector("[data-push=on]");
  var offButton = box.querySelector("[data-push=off]");

  function say(text, isError) {
    status.textContent = text;
    status.classList.toggle("error", Boolean(isError));
  }

  function show(subscribed) {
    onButton.hidden = subscribed;
    offButton.hidden = !subscribed;
    box.dataset.subscribed = subscribed ? "1" : "0";
  }

  function keyBytes(base64url) {
    var padded = base64url + "===".slice((base64url.length + 3) % 4);
    var raw = atob(padded.replace(/-/g, "+").replace(/_/g, "/"));
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function post(url, document) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": box.dataset.csrf },
      body: JSON.stringify(document)
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (answer) {
        if (!response.ok) throw new Error(answer.error || "The server said no (" + response.status + ").");
        return answer;
      });
    });
  }

  function registration() {
    return navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    });
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("This browser cannot receive push notifications.", true);
    onButton.disabled = true;
    return;
  }

  registration().then(function (reg) {
    return reg.pushManager.getSubscription();
  }).then(function (subscription) {
    show(Boolean(subscription));
    say(subscription ? "Push is on for this device." : "Push is off for this device.");
  }).catch(function () {
    show(false);
    say("Push is off for this device.");
  });

  onButton.addEventListener("click", function () {
    onButton.disabled = true;
    say("Asking your browser…");
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") throw new Error("Notifications are blocked for this site in your browser's settings.");
      return registration();
    }).then(function (reg) {
      return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.pushKey) });
    }).then(function (subscription) {
      return post(box.dataset.subscribeUrl, subscription.toJSON());
    }).then(function (answer) {
      show(true);
      say("Push is on for this device (" + answer.devices + " device" + (answer.devices === 1 ? "" : "s") + " in all).");
    }).catch(function (error) {
      show(false);
      say("Push could not be turned on: " + (error && error.message ? error.message : error), true);
    }).then(function () { onButton.disabled = false; });
  });

  offButton.addEventListener("click", function () {
    offButton.disabled = true;
    registration().then(function (reg) {
      return reg.pushManager.getSubscription();
    }).then(function (subscription) {
      if (!subscription) return null;
      var endpoint = subscription.endpoint;
      return subscription.unsubscribe().then(function () {
        return post(box.dataset.unsubscribeUrl, { endpoint: endpoint });
      });
    }).then(function () {
      show(false);
      say("Push is off for this device.");
    }).catch(function (error) {
      say("Push could not be turned off: " + (error && error.message ? error.message : error), true);
    }).then(function () { offButton.disabled = false; });
  });
})();

{% autoescape off %}// Cardhall's service worker (config/pwa.py renders it; docs/notifications.md, "Web Push
// and the app"). Served from the site's root, so it controls every page.
// - Pages: from the network, always (they are live); when the network fails, the offline
//   page cached at install.
// - Static files (/static/...): from the cache, refreshed from the network in the
//   background; their production names are hashed, so a deploy brings new names.
// - Push: shows the notification (game, short text) and opens its match on a click.
"use strict";

var CACHE = "cardhall-{{ version }}";
var OFFLINE_URL = {{ offline_url }};
var PRECACHED = {{ precached }};
var STATIC_PREFIX = {{ static_prefix }};
var ICON = {{ icon }};
var BADGE = {{ badge }};

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) {
      return cache.addAll([OFFLINE_URL].concat(PRECACHED));
    }).then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("cardhall-") === 0 && name !== CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function fromCacheThenRefresh(request) {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(request).then(function (cached) {
      var fresh = fetch(request).then(function (response) {
        if (response.ok) cache.put(request, response.clone());
        return response;
      });
      if (cached) {
        fresh.catch(function () {});
        return cached;
      }
      return fresh;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(function () {
      return caches.open(CACHE).then(function (cache) { return cache.match(OFFLINE_URL); });
    }));
  } else if (url.pathname.indexOf(STATIC_PREFIX) === 0) {
    event.respondWith(fromCacheThenRefresh(request));
  }
});

// A push holds {"match": id or null, "game": name, "text": short text}: nothing more.
self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (error) { data = {}; }
  var match = Number.isInteger(data.match) ? data.match : null;
  var title = typeof data.game === "string" && data.game ? data.game : "Cardhall";
  var body = typeof data.text === "string" ? data.text : "Something needs you on Cardhall.";
  event.waitUntil(self.registration.showNotification(title, {
    body: body,
    icon: ICON,
    badge: BADGE,
    tag: match ? "match-" + match : "cardhall",
    renotify: true,
    data: { url: match ? "/matches/" + match + "/" : "/notifications/" }
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        if (windows[i].url === target && "focus" in windows[i]) return windows[i].focus();
      }
      return self.clients.openWindow(target);
    })
  );
});
{% endautoescape %}

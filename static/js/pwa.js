// The installable app: registers the service worker (served from the site's root, so it
// controls every page: /sw.js, config/pwa.py). No inline script: this file is loaded by
// base.html with `defer`.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {
      // No service worker (a private window, an old browser): the site works without it.
    });
  });
})();

// The notification bell: small glue over the htmx ws extension, which swaps the pushed
// count and toast in by id. This only tidies up: toasts fade after a while, the bell's
// label follows its count, and the notifications page refreshes its list on a push.
(function () {
  "use strict";

  var TOAST_SECONDS = 8;

  function syncBellLabel() {
    var count = document.getElementById("inbox-count");
    var bell = document.querySelector("[data-testid=inbox-bell]");
    if (!count || !bell) return;
    var unread = Number(count.dataset.count || 0);
    bell.setAttribute("aria-label", unread ? "Notifications, " + unread + " unread" : "Notifications");
  }

  function fadeLater(toast) {
    if (toast.dataset.fading) return;
    toast.dataset.fading = "1";
    setTimeout(function () {
      toast.classList.add("is-leaving");
      setTimeout(function () { toast.remove(); }, 400);
    }, TOAST_SECONDS * 1000);
  }

  document.addEventListener("htmx:oobAfterSwap", function () {
    syncBellLabel();
    document.querySelectorAll("#inbox-toasts .toast").forEach(fadeLater);
  });
  document.addEventListener("htmx:afterSwap", syncBellLabel);

  // On the notifications page a push also brings the new row: fetch the list again.
  document.addEventListener("htmx:wsAfterMessage", function (event) {
    var list = document.getElementById("inbox-list");
    var fromBell = event.target && event.target.matches && event.target.matches("[data-testid=inbox-bell]");
    if (!list || !fromBell || !/inbox-toasts/.test(String(event.detail.message || ""))) return;
    htmx.ajax("GET", window.location.pathname, { target: "#inbox-list", select: "#inbox-list", swap: "outerHTML" });
  });
})();

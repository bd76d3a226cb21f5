// Small glue only: no game logic lives in JavaScript.
(function () {
  "use strict";

  // Lobby: show the opponent fields that apply to the chosen opponent.
  function syncOpponentFields(form) {
    var checked = form.querySelector('input[name="opponent"]:checked');
    var value = checked ? checked.value : "";
    form.querySelectorAll("[data-show-for]").forEach(function (row) {
      row.hidden = row.getAttribute("data-show-for") !== value;
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target.name === "opponent") syncOpponentFields(event.target.form);
  });
  document.addEventListener("DOMContentLoaded", function () {
    var radio = document.querySelector('input[name="opponent"]');
    if (radio) syncOpponentFields(radio.form);
  });

  // A board is only swapped in when it is newer than the one shown. The socket's catch-up
  // on connect, the push that follows my own move and the slow poll often bring the very
  // same board again: swapping it would replay the last move's animations. (POSTs always
  // swap: they may carry an error message.) Versions are "<ply>.<updated ms>".
  function stamp(version) {
    return Number(String(version || "").split(".")[1] || 0);
  }
  function isNotNewer(version) {
    var current = document.getElementById("board");
    return !!current && !!version && stamp(version) <= stamp(current.dataset.version);
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail.requestConfig || {};
    var found = /id="board"[^>]*data-version="([^"]+)"/.exec(event.detail.serverResponse || "");
    if (config.verb === "get" && found && isNotNewer(found[1])) event.detail.shouldSwap = false;
  });
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var fragment = event.detail.fragment;
    var incoming = fragment && fragment.querySelector ? fragment.querySelector("#board") || fragment : null;
    if (incoming && incoming.id === "board" && isNotNewer(incoming.dataset.version)) {
      event.preventDefault();
    }
  });
})();

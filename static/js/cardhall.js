// Small glue only: no game logic lives in JavaScript.
(function () {
  "use strict";

  // Lobby: show only the seats the chosen game and table size use, and the username box
  // only where a named player is invited. Without JavaScript every row shows and the
  // server ignores the rows it does not need.
  function syncLobby(form) {
    var option = form.querySelector('select[name="game"]').selectedOptions[0];
    var low = Number(option.dataset.min), high = Number(option.dataset.max);
    var players = form.querySelector('select[name="players"]');
    var size = low === high ? low : Math.min(Math.max(Number(players.value), low), high);
    form.querySelector("[data-multi-seat]").hidden = low === high;
    Array.prototype.forEach.call(players.options, function (choice) {
      choice.disabled = Number(choice.value) < low || Number(choice.value) > high;
    });
    if (low !== high) players.value = String(size);
    form.querySelectorAll("[data-seat-row]").forEach(function (row) {
      row.hidden = Number(row.getAttribute("data-seat-row")) >= size;
    });
    var checked = form.querySelector('input[name="opponent"]:checked');
    form.querySelectorAll("[data-show-for]").forEach(function (row) {
      if (row.hidden) return;
      row.hidden = row.getAttribute("data-show-for") !== (checked ? checked.value : "");
    });
  }
  function lobbyOf(target) {
    return target && target.closest ? target.closest(".lobby-form") : null;
  }
  document.addEventListener("change", function (event) {
    var form = lobbyOf(event.target);
    if (form) syncLobby(form);
  });
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector(".lobby-form");
    if (form) syncLobby(form);
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

  // Clocks: count the time left down once a minute between server renders (the server's
  // text is the truth on every swap; this only keeps an open page from going stale).
  function durationText(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    var days = Math.floor(seconds / 86400), hours = Math.floor((seconds % 86400) / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    if (days) return days + " d" + (hours ? " " + hours + " h" : "");
    if (hours) return hours + " h" + (minutes ? " " + minutes + " min" : "");
    return minutes ? minutes + " min" : "under a minute";
  }
  function tickClocks() {
    var now = Date.now() / 1000;
    document.querySelectorAll("[data-deadline]").forEach(function (node) {
      var left = Number(node.dataset.deadline) - now;
      node.textContent = durationText(left) + " left";
      var clock = node.closest(".clock, .time-left");
      if (clock) clock.classList.toggle("is-low", left < 3600);
    });
  }
  setInterval(tickClocks, 30000);
})();

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

  // A board that arrives over the socket or by polling is newer than the one shown only
  // if its version is; never let an older push replace a newer board.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var incoming = event.detail.fragment && event.detail.fragment.querySelector
      ? event.detail.fragment.querySelector("#board") || event.detail.fragment
      : null;
    var current = document.getElementById("board");
    if (!incoming || !current || incoming.id !== "board") return;
    var older = Number(String(incoming.dataset.version || "0").split(".")[1] || 0) <
      Number(String(current.dataset.version || "0").split(".")[1] || 0);
    if (older) event.preventDefault();
  });
})();

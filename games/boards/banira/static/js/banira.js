// BaniraCards: drag a hand card onto a slot. No rules here: a drop just checks that card's
// radio and presses that slot's button, the same form post as click-a-card-then-a-slot;
// the server decides (and answers an illegal play with the engine's message).
(function () {
  "use strict";
  if (window.__baniraBound) return;
  window.__baniraBound = true;
  var dragged = null;

  function slotOf(target) {
    return target && target.closest ? target.closest(".bn-board.is-live button.bn-slot") : null;
  }
  function clearHover() {
    document.querySelectorAll(".bn-slot.is-drop").forEach(function (s) { s.classList.remove("is-drop"); });
  }

  document.addEventListener("dragstart", function (event) {
    var held = event.target.closest && event.target.closest(".bn-board.is-live .bn-held[draggable]");
    if (!held) return;
    dragged = held;
    var radio = held.querySelector("input.bn-pick");
    if (radio) radio.checked = true; // shows this card's costs on every slot while dragging
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", held.getAttribute("data-card"));
    held.classList.add("is-dragging");
  });
  document.addEventListener("dragend", function () {
    if (dragged) dragged.classList.remove("is-dragging");
    dragged = null;
    clearHover();
  });
  document.addEventListener("dragover", function (event) {
    var slot = slotOf(event.target);
    if (!slot || !dragged) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
    if (!slot.classList.contains("is-drop")) {
      clearHover();
      slot.classList.add("is-drop");
    }
  });
  // Keyboard: Enter on a hand card picks it, like Space. Without this, Enter on a radio
  // submits the form by its first submit button (the first field slot): a play onto a
  // slot the player never chose.
  document.addEventListener("keydown", function (event) {
    var radio = event.target;
    if (event.key !== "Enter" || !radio.matches || !radio.matches(".bn-board input.bn-pick")) return;
    event.preventDefault();
    if (!radio.disabled) radio.checked = true;
  });
  document.addEventListener("drop", function (event) {
    var slot = slotOf(event.target);
    if (!slot || !dragged) return;
    event.preventDefault();
    var radio = dragged.querySelector("input.bn-pick");
    if (radio) radio.checked = true;
    clearHover();
    slot.click(); // submits the board's form with this card and this slot
  });
})();

// Haymaker: keyboard glue only, no rules here. Enter on a card of my hand picks or unpicks
// it, as Space does. Without this, Enter on a checkbox submits the form by its first
// submit button (Attack, or Block): a move made with whatever cards happen to be picked.
(function () {
  "use strict";
  if (window.__haymakerBound) return;
  window.__haymakerBound = true;
  document.addEventListener("keydown", function (event) {
    var card = event.target;
    if (event.key !== "Enter" || !card.matches || !card.matches(".hm-play input.hm-check")) return;
    event.preventDefault();
    if (!card.disabled) card.click(); // toggles it and fires "change": the preview follows
  });
})();

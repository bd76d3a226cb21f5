// The replay bar's keys: ← and → step, Home and End jump. Progressive enhancement only:
// every step is a plain link (or a submit button on the verify page) that works without
// JavaScript; this presses it. No game logic here.
(function () {
  "use strict";

  var KEYS = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };

  function isTyping(target) {
    if (!target || !target.closest) return false;
    return !!target.closest("input, textarea, select, [contenteditable=''], [contenteditable='true']");
  }

  document.addEventListener("keydown", function (event) {
    var step = KEYS[event.key];
    if (!step || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (isTyping(event.target)) return;
    var control = document.querySelector('.replay-bar [data-step="' + step + '"]');
    if (!control || control.disabled) return;
    event.preventDefault();
    // A key pressed right after a swap can beat htmx to the new bar: make sure the link is
    // wired to htmx before pressing it, or the browser would load the whole page instead.
    if (window.htmx) window.htmx.process(control);
    control.click();
  });

  // Keep the keyboard on the bar after htmx swaps the replay in: focus the same step again.
  document.addEventListener("htmx:afterSwap", function (event) {
    var replay = document.getElementById("replay");
    if (!replay || event.detail.target.id !== "replay") return;
    var active = replay.querySelector(".replay-step.is-main:not(.is-off)");
    if (active && document.activeElement === document.body) active.focus({ preventScroll: true });
  });
})();

// A match's chat keeps its newest line in view: after the page loads, after a line is
// pushed or posted (an out-of-band swap into .chat-lines) and after the panel is redrawn.
(function () {
  if (window.__cardhallChat) return;
  window.__cardhallChat = true;
  function down() {
    document.querySelectorAll(".chat-lines").forEach(function (lines) {
      lines.scrollTop = lines.scrollHeight;
    });
  }
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.classList && target.classList.contains("chat-lines")) down();
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.closest && target.closest("#chat, #chat-form")) down();
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", down);
  else down();
})();

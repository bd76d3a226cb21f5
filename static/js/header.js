// The site header on a phone: one row, the navigation and account links behind a menu
// button (#site-menu). Without JavaScript the menu stays open below the row and the button
// is not shown (cardhall.css). Loaded in <head> without `defer`, so the page is marked as
// having the menu before its first paint: a phone never shows the open header first.
(function () {
  "use strict";
  document.documentElement.classList.add("has-menu-js");
  function setOpen(toggle, menu, open) {
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    menu.classList.toggle("is-open", open);
  }
  document.addEventListener("DOMContentLoaded", function () {
    var toggle = document.querySelector(".menu-toggle");
    var menu = document.getElementById("site-menu");
    if (!toggle || !menu) return;
    toggle.addEventListener("click", function () {
      setOpen(toggle, menu, toggle.getAttribute("aria-expanded") !== "true");
    });
    document.addEventListener("click", function (event) {
      if (!menu.classList.contains("is-open")) return;
      if (menu.contains(event.target) || toggle.contains(event.target)) return;
      setOpen(toggle, menu, false);
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && menu.classList.contains("is-open")) {
        setOpen(toggle, menu, false);
        toggle.focus();
      }
    });
  });
})();

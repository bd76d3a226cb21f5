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
    accountMenu();
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
  // The account menu: the name opens its panel; a click elsewhere or Escape closes it.
  function accountMenu() {
    var button = document.querySelector(".account-toggle");
    var panel = document.getElementById("account-panel");
    if (!button || !panel) return;
    function setOpen(open) {
      button.setAttribute("aria-expanded", open ? "true" : "false");
      panel.classList.toggle("is-open", open);
    }
    button.addEventListener("click", function () {
      setOpen(!panel.classList.contains("is-open"));
    });
    document.addEventListener("click", function (event) {
      if (!panel.classList.contains("is-open")) return;
      if (panel.contains(event.target) || button.contains(event.target)) return;
      setOpen(false);
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && panel.classList.contains("is-open")) {
        setOpen(false);
        button.focus();
      }
    });
  }
})();

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
    form.querySelectorAll("[data-show-game]").forEach(function (row) {
      row.hidden = row.getAttribute("data-show-game") !== option.value;
    });
    var variant = form.querySelector('select[name="variant"]');
    form.querySelectorAll("[data-classic-only]").forEach(function (row) {
      if (variant && variant.value === "arcana") row.hidden = true;
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
  // A push can replace the board while my move's POST is on its way. The POST's answer is
  // then aimed at the board that was replaced: its events no longer reach the document,
  // and htmx looks for the answer's out-of-band parts (the header's level bar) in that
  // detached board, finds nothing and logs an error. So each board listens for the answer
  // itself, and once it is off the page hands a newer answer to the board shown (an
  // answer no newer than it adds nothing: the push carried the same parts).
  function answerAfterReplaced(event) {
    var board = event.currentTarget;
    var detail = event.detail;
    if (event.target !== board || document.body.contains(board) || !detail.shouldSwap) return;
    detail.shouldSwap = false;
    var found = /id="board"[^>]*data-version="([^"]+)"/.exec(detail.serverResponse || "");
    if (found && !isNotNewer(found[1])) {
      htmx.swap("#board", detail.serverResponse, { swapStyle: "outerHTML" });
    }
  }
  var listening = new WeakSet();
  htmx.onLoad(function (node) {
    var board = node.id === "board" ? node : node.querySelector && node.querySelector("#board");
    if (board && !listening.has(board)) {
      listening.add(board);
      board.addEventListener("htmx:beforeSwap", answerAfterReplaced);
    }
  });
  // The match socket names itself when it connects (#board-sync's data-socket,
  // games.notifications.sync_fragment). What this page posts carries that name: the answer
  // to a move is the new board, so the server spares this page the push of the same board.
  document.addEventListener("htmx:configRequest", function (event) {
    var sync = document.getElementById("board-sync");
    if (sync && sync.dataset.socket && event.detail.verb === "post") {
      event.detail.headers["X-Board-Socket"] = sync.dataset.socket;
    }
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

  // Filters that apply on change (the open tables' reliability): submit the form. Without
  // JavaScript a <noscript> button does it.
  document.addEventListener("change", function (event) {
    var field = event.target;
    if (field && field.matches && field.matches("[data-autosubmit]") && field.form) {
      field.form.requestSubmit ? field.form.requestSubmit() : field.form.submit();
    }
  });

  // A tab shown again re-checks its board (the board's hx-trigger listens for
  // "page-visible"): an event, not an htmx trigger filter, which would need eval.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      document.dispatchEvent(new CustomEvent("page-visible"));
    }
  });

  // The match's one live region (#board-summary, outside the board): whose turn it is and
  // the newest event, said once each time they change; the board is swapped whole and is
  // not live itself, or every swap would read the whole board out.
  function summarizeBoard() {
    var summary = document.getElementById("board-summary");
    var board = document.getElementById("board");
    if (!summary || !board) return;
    var parts = [];
    var banner = board.querySelector("[data-testid='turn-banner']");
    if (banner) parts.push(banner.textContent.replace(/\s+/g, " ").trim());
    var last = board.querySelector(".log-list li");
    if (last) parts.push(last.textContent.replace(/\s+/g, " ").trim());
    var text = parts.join(". ");
    if (summary.textContent !== text) summary.textContent = text;
  }
  summarizeBoard();
  ["htmx:afterSettle", "htmx:oobAfterSwap"].forEach(function (type) {
    document.addEventListener(type, summarizeBoard);
  });

  // A "slow down" notice (a 429 swapped into #site-notices) goes once its wait is over.
  document.addEventListener("htmx:afterSwap", function (event) {
    var notices = event.detail.target;
    if (!notices || notices.id !== "site-notices") return;
    var notice = notices.querySelector("[data-retry-after]");
    var seconds = notice ? Number(notice.dataset.retryAfter) || 5 : 5;
    setTimeout(function () { if (notice) notice.remove(); }, Math.min(seconds, 60) * 1000);
  });

  // A request the server could not answer (5xx: busy, restarting, its database or Redis
  // out of reach) or that never reached it is said so, never dropped in silence: htmx
  // swaps nothing for those (base.html's responseHandling), so the board would just stop
  // moving. The notice goes with the next request that works: the board's poll keeps
  // asking, and brings the board up to date when the server is back.
  var TROUBLE = "server-trouble";
  function showTrouble(text) {
    var notices = document.getElementById("site-notices");
    if (!notices) return;
    var notice = document.getElementById(TROUBLE);
    if (!notice) {
      notice = document.createElement("p");
      notice.id = TROUBLE;
      notice.className = "flash error site-notice";
      notice.setAttribute("role", "alert");
      notice.setAttribute("data-testid", TROUBLE);
      notices.appendChild(notice);
    }
    notice.textContent = text;
  }
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    var sent = (event.detail.requestConfig || {}).verb !== "get";
    var what = sent ? "That was not carried out: please try again in a few seconds." :
      "The board will catch up by itself once the server answers again.";
    showTrouble(status === 503 ?
      "Cardhall cannot answer right now (busy, or briefly out of reach). " + what :
      "Something went wrong on our side (error " + status + "). " + what);
  });
  document.addEventListener("htmx:sendError", function () {
    showTrouble("Cardhall cannot be reached: check your connection. The board will catch " +
      "up by itself once you are back online.");
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var notice = document.getElementById(TROUBLE);
    if (notice && event.detail.successful) notice.remove();
  });
})();

// Keyboard focus across board swaps (issue 18; docs/accessibility.md). The board is swapped
// whole (a move's answer, a push, the poll), so the control that had focus leaves the page
// and focus would fall to <body>: a keyboard player would have to Tab from the top again.
// While focus is inside the board, the control the player chose is remembered (its
// data-testid, else its name and value); after a swap that dropped focus, it goes to that
// control in the new board, else to the board's first enabled move control, else to the
// board's heading. Focus is only ever put back when it fell: a player who has moved on
// (a click or Tab outside the board, into the header or a text box) is left alone.
(function () {
  "use strict";
  var MOVE_CONTROLS = [
    'form[action$="/move/"] button:not([disabled])',
    'form[action$="/move/"] input[type="checkbox"]:not([disabled])',
    'form[action$="/move/"] input[type="radio"]:not([disabled])',
    'form[action$="/move/"] select:not([disabled])',
  ].join(", ");
  var wish = null; // {testid, name, value}: the last control the player focused in the board
  var inBoard = false; // whether focus was last inside the board
  var placing = false; // focus being put back by this block (not the player's choice)

  function boardOf(node) {
    return node && node.closest ? node.closest("#board") : null;
  }
  function describe(node) {
    return {
      testid: node.getAttribute("data-testid"),
      name: node.getAttribute("name"),
      value: node.getAttribute("value"),
    };
  }
  function usable(node) {
    return !!node && !node.disabled && node.getClientRects().length > 0;
  }
  function find(board, wanted) {
    if (!wanted) return null;
    var found = [];
    if (wanted.testid) {
      found = board.querySelectorAll('[data-testid="' + CSS.escape(wanted.testid) + '"]');
    } else if (wanted.name && wanted.value !== null) {
      found = board.querySelectorAll('[name="' + CSS.escape(wanted.name) + '"]');
      found = Array.prototype.filter.call(found, function (node) {
        return node.getAttribute("value") === wanted.value;
      });
    }
    return Array.prototype.find.call(found, usable) || null;
  }
  function heading(board) {
    var title = board.querySelector("h1, h2");
    if (title && !title.hasAttribute("tabindex")) title.setAttribute("tabindex", "-1");
    return title;
  }
  function place(node) {
    placing = true;
    // No scrolling: a player reading the log while the board is swapped stays where they are.
    try { node.focus({ preventScroll: true }); } finally { placing = false; }
  }
  function restoreFocus() {
    var active = document.activeElement;
    if (!inBoard || (active && active !== document.body && active.isConnected)) return;
    var board = document.getElementById("board");
    if (!board) return;
    var target = find(board, wish) ||
      Array.prototype.find.call(board.querySelectorAll(MOVE_CONTROLS), usable) ||
      heading(board);
    if (target) place(target);
  }

  document.addEventListener("focusin", function (event) {
    inBoard = !!boardOf(event.target);
    if (inBoard && !placing) wish = describe(event.target);
  });
  // A click or tap outside the board (on text, say) moves focus to <body> without a
  // focusin: that player has left the board too.
  document.addEventListener("pointerdown", function (event) {
    if (!boardOf(event.target)) inBoard = false;
  }, true);
  htmx.onLoad(function () {
    // After the swap has settled (the old board is gone, the new one in place).
    setTimeout(restoreFocus, 0);
  });
  document.addEventListener("htmx:afterSettle", restoreFocus);
})();

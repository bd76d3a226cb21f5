// Sound: short cues synthesized with WebAudio (no sound files), one volume and mute in the
// header. The cues follow the same engine events as the boards' animations: a new board
// (#board) carries its last ply's events in data-events and its game in data-game, and
// each game maps its event types to cues below. "Your turn" plays when a board becomes mine.
//
// Browsers let a page make sound only after the player's first interaction: no AudioContext
// exists before the first click, tap or key press (window.cardhallSound.contextCreated
// tells tests when it is). Under the Content-Security-Policy: no inline script, no eval.
(function () {
  "use strict";

  var STORAGE_KEY = "cardhall.sound";
  var MAX_CUES = 3; // per new board: a move with many events still sounds short
  var settings = { volume: 60, muted: false };
  var ctx = null, master = null, interacted = false;
  var shown = { version: null, ply: null, mine: false };

  var api = { contextCreated: false, played: [], settings: settings, play: play };
  window.cardhallSound = api;

  // --- synthesis -------------------------------------------------------------------------

  function envelope(gain, t, peak, attack, decay) {
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(peak, t + attack);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + attack + decay);
  }

  function tone(t, freq, opts) {
    opts = opts || {};
    var osc = ctx.createOscillator(), gain = ctx.createGain();
    osc.type = opts.type || "sine";
    osc.frequency.setValueAtTime(freq, t);
    if (opts.to) osc.frequency.exponentialRampToValueAtTime(opts.to, t + (opts.glide || opts.decay || 0.2));
    envelope(gain, t, opts.peak || 0.3, opts.attack || 0.005, opts.decay || 0.25);
    osc.connect(gain);
    gain.connect(opts.out || master);
    osc.start(t);
    osc.stop(t + (opts.attack || 0.005) + (opts.decay || 0.25) + 0.05);
  }

  var noiseBuffer = null;
  function noise(t, opts) {
    opts = opts || {};
    if (!noiseBuffer) {
      noiseBuffer = ctx.createBuffer(1, ctx.sampleRate, ctx.sampleRate);
      var data = noiseBuffer.getChannelData(0);
      for (var i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
    }
    var src = ctx.createBufferSource(), filter = ctx.createBiquadFilter(), gain = ctx.createGain();
    src.buffer = noiseBuffer;
    filter.type = opts.filter || "bandpass";
    filter.frequency.setValueAtTime(opts.freq || 2500, t);
    if (opts.to) filter.frequency.exponentialRampToValueAtTime(opts.to, t + (opts.decay || 0.1));
    filter.Q.value = opts.q || 1;
    envelope(gain, t, opts.peak || 0.3, opts.attack || 0.003, opts.decay || 0.1);
    src.connect(filter);
    filter.connect(gain);
    gain.connect(master);
    src.start(t, Math.random() * 0.5);
    src.stop(t + (opts.attack || 0.003) + (opts.decay || 0.1) + 0.05);
  }

  // Each cue: a few hundred milliseconds at most (the Death sting a little longer).
  var SYNTHS = {
    // a soft shuffle: a few quick brushes of filtered noise
    shuffle: function (t) {
      for (var i = 0; i < 4; i++) noise(t + i * 0.045, { freq: 2800 + i * 300, q: 1.4, peak: 0.16, decay: 0.05 });
    },
    // a longer riffle: the discard pile shuffled back
    riffle: function (t) {
      for (var i = 0; i < 10; i++) noise(t + i * 0.03, { freq: 3500, q: 2, peak: 0.1 + (i % 2) * 0.05, decay: 0.03 });
    },
    // one card dealt or played: a tick and a soft flap
    card: function (t) {
      noise(t, { freq: 4200, q: 0.8, peak: 0.14, decay: 0.035 });
      noise(t + 0.02, { filter: "lowpass", freq: 900, peak: 0.12, decay: 0.06 });
    },
    // a metal clash: inharmonic partials ringing out over a burst of bright noise
    clash: function (t) {
      [523, 1187, 1932, 2713, 3560].forEach(function (f, i) {
        tone(t, f, { type: i % 2 ? "square" : "triangle", peak: 0.09 / (1 + i * 0.3), decay: 0.55 - i * 0.07 });
      });
      noise(t, { filter: "highpass", freq: 3000, peak: 0.3, decay: 0.12 });
    },
    // a shield impact: a dull thump and a wooden knock
    block: function (t) {
      tone(t, 150, { to: 55, peak: 0.55, decay: 0.22 });
      noise(t, { filter: "lowpass", freq: 700, peak: 0.35, decay: 0.09 });
      tone(t + 0.01, 320, { type: "triangle", peak: 0.12, decay: 0.08 });
    },
    // the Lucky chime: a bright three-note bell
    chime: function (t) {
      [1319, 1568, 2093].forEach(function (f, i) {
        tone(t + i * 0.09, f, { peak: 0.18, decay: 0.7 });
        tone(t + i * 0.09, f * 2.76, { peak: 0.04, decay: 0.25 });
      });
    },
    // the Death sting: a deep bass hit under a dark, clashing chord
    sting: function (t) {
      tone(t, 70, { to: 32, glide: 0.9, peak: 0.8, attack: 0.01, decay: 1.3 });
      noise(t, { filter: "lowpass", freq: 400, to: 80, peak: 0.5, decay: 0.5 });
      [110, 116.5, 164.8].forEach(function (f) {
        tone(t + 0.02, f, { type: "sawtooth", peak: 0.06, attack: 0.02, decay: 1.2 });
      });
    },
    // a hit that lands: a punch
    hit: function (t) {
      tone(t, 120, { to: 45, peak: 0.5, decay: 0.18 });
      noise(t, { filter: "lowpass", freq: 1200, to: 200, peak: 0.4, decay: 0.12 });
    },
    // health back: a rising glissando
    heal: function (t) {
      tone(t, 440, { to: 880, glide: 0.3, peak: 0.14, decay: 0.35 });
      tone(t + 0.05, 660, { to: 1320, glide: 0.3, peak: 0.07, decay: 0.35 });
    },
    // something gained (a slot unlocked, points): a coin
    coin: function (t) {
      tone(t, 988, { type: "square", peak: 0.07, decay: 0.07 });
      tone(t + 0.07, 1319, { type: "square", peak: 0.07, decay: 0.25 });
    },
    // a boost: a short sparkle
    sparkle: function (t) {
      [1760, 2217, 2637, 3520].forEach(function (f, i) { tone(t + i * 0.04, f, { peak: 0.06, decay: 0.18 }); });
    },
    // a turn of fortune (roles switched, a reversal): a whoosh
    whoosh: function (t) {
      noise(t, { freq: 400, to: 3000, q: 2, peak: 0.22, attack: 0.08, decay: 0.22 });
    },
    // a monster falls: a falling growl
    fall: function (t) {
      tone(t, 220, { type: "sawtooth", to: 60, glide: 0.45, peak: 0.12, decay: 0.5 });
      noise(t, { filter: "lowpass", freq: 600, peak: 0.25, decay: 0.2 });
    },
    // the boxing bell: a knockout
    bell: function (t) {
      for (var i = 0; i < 3; i++) {
        [880, 2123, 3470].forEach(function (f, j) { tone(t + i * 0.22, f, { peak: 0.14 / (j + 1), decay: 0.4 }); });
      }
    },
    // the end of a run or a match won: a short rising fanfare
    win: function (t) {
      [523, 659, 784, 1047].forEach(function (f, i) { tone(t + i * 0.1, f, { type: "triangle", peak: 0.16, decay: 0.35 }); });
    },
    lose: function (t) {
      [392, 330, 262].forEach(function (f, i) { tone(t + i * 0.14, f, { type: "triangle", peak: 0.14, decay: 0.4 }); });
    },
    // your turn: two soft, rising notes
    turn: function (t) {
      tone(t, 660, { peak: 0.16, decay: 0.2 });
      tone(t + 0.12, 990, { peak: 0.16, decay: 0.35 });
    },
  };

  // Each game's engine events (their type, and "type-deck" where a deck is named) to cues.
  var CUES = {
    grimhand: {
      draw: "shuffle", attack: "clash", blocked: "block", lucky_slotted: "chime",
      lucky_saved: "chime", death_card: "sting", hp_penalty: "hit", hp_lost: "hit",
      healed: "heal", reshuffled: "riffle", card_played: "card", ability_drawn: "card",
      hand_flushed: "card", hands_swapped: "whoosh", fate_twist: "whoosh", scried: "sparkle",
    },
    dogblade: { monster_drawn: "card", attack: "clash", monster_defeated: "fall" },
    haymaker: {
      card_drawn: "card", drew: "card", hit: "hit", knockout: "bell", technical_knockout: "bell",
      reversal: "whoosh", roles_switched: "whoosh", discarded: "card", cards_taken: "card",
    },
    shield: {
      play_started: "card", attack_dropped: "clash", blocked: "block", shield_chosen: "block",
      shield_changed: "block", boost: "sparkle", stored: "card", reshuffled: "riffle",
      last_standing: "win",
    },
    banira: {
      played: "card", drew: "shuffle", discarded: "card", removed: "card", unlocked: "coin",
      boosted: "sparkle", overflow_entered: "card", run_complete: "win", run_stuck: "lose",
    },
  };

  function cuesFor(game, events) {
    var table = CUES[game] || {}, cues = [];
    events.forEach(function (event) {
      var base = event.split("-")[0];
      var cue = table[event] || table[base];
      if (cue && cues.indexOf(cue) < 0) cues.push(cue);
    });
    // The loudest news first when a move has many events: the Death sting, then the rest.
    if (cues.indexOf("sting") > 0) cues.unshift(cues.splice(cues.indexOf("sting"), 1)[0]);
    return cues.slice(0, MAX_CUES);
  }

  // --- the context: only after the first interaction -------------------------------------

  function gainOf(volume, muted) {
    return muted ? 0 : Math.pow(Math.max(0, Math.min(100, volume)) / 100, 2) * 0.9;
  }
  function applyVolume() {
    if (master) master.gain.setTargetAtTime(gainOf(settings.volume, settings.muted), ctx.currentTime, 0.02);
  }
  function ensureContext() {
    if (ctx || !interacted) return ctx;
    var AudioContextClass = window.AudioContext || window.webkitAudioContext;
    if (!AudioContextClass) return null;
    ctx = new AudioContextClass();
    master = ctx.createGain();
    master.gain.value = gainOf(settings.volume, settings.muted);
    master.connect(ctx.destination);
    api.contextCreated = true;
    return ctx;
  }
  function onFirstInteraction() {
    interacted = true;
    ensureContext();
    if (ctx && ctx.state === "suspended") ctx.resume();
    ["pointerdown", "keydown", "touchstart"].forEach(function (type) {
      document.removeEventListener(type, onFirstInteraction, true);
    });
  }
  ["pointerdown", "keydown", "touchstart"].forEach(function (type) {
    document.addEventListener(type, onFirstInteraction, true);
  });

  function play(name, delay) {
    api.played.push(name); // what would have played, even muted (tests read it)
    if (!SYNTHS[name] || settings.muted || !settings.volume || !ensureContext()) return false;
    if (ctx.state === "suspended") ctx.resume();
    SYNTHS[name](ctx.currentTime + 0.01 + (delay || 0));
    return true;
  }

  // --- boards: the same events as the animations ------------------------------------------

  function boardState(board) {
    return {
      version: board.getAttribute("data-version"),
      ply: Number(board.getAttribute("data-ply")),
      mine: board.classList.contains("is-my-turn"),
    };
  }
  function onBoard(board) {
    if (!board || board.id !== "board") return;
    var now = boardState(board);
    if (now.version === shown.version) return;
    var moved = shown.ply !== null && now.ply > shown.ply;
    var wasMine = shown.mine;
    shown = now;
    if (!moved) return;
    var events = (board.getAttribute("data-events") || "").split(/\s+/).filter(Boolean);
    var cues = cuesFor(board.getAttribute("data-game"), events);
    cues.forEach(function (cue, i) { play(cue, i * 0.16); });
    if (now.mine && !wasMine) play("turn", cues.length * 0.16 + (cues.indexOf("sting") >= 0 ? 0.9 : 0.1));
  }
  function boardIn(node) {
    if (!node || !node.querySelector) return null;
    return node.id === "board" ? node : node.querySelector("#board");
  }
  ["htmx:load", "htmx:afterSettle", "htmx:oobAfterSwap"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      onBoard(boardIn(event.detail && event.detail.elt) || boardIn(event.target) || document.getElementById("board"));
    });
  });

  // --- the header's control ----------------------------------------------------------------

  function readLocal() {
    try {
      var saved = JSON.parse(window.localStorage.getItem(STORAGE_KEY) || "null");
      if (saved && typeof saved.volume === "number") {
        settings.volume = Math.max(0, Math.min(100, Math.round(saved.volume)));
        settings.muted = !!saved.muted;
      }
    } catch (error) { /* storage off or junk: the defaults */ }
  }
  function save(form) {
    if (form.getAttribute("data-local")) {
      try { window.localStorage.setItem(STORAGE_KEY, JSON.stringify({ volume: settings.volume, muted: settings.muted })); } catch (error) { /* private mode */ }
      return;
    }
    var data = new FormData(form);
    data.set("volume", String(settings.volume));
    data.set("muted", settings.muted ? "on" : "off");
    fetch(form.action, { method: "POST", body: data, credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { form.setAttribute("data-saved", response.ok ? "1" : "0"); })
      .catch(function () { form.setAttribute("data-saved", "0"); });
  }
  function render(form) {
    var mute = form.querySelector(".sound-mute"), range = form.querySelector(".sound-volume");
    mute.setAttribute("aria-pressed", settings.muted ? "true" : "false");
    mute.textContent = settings.muted ? "Unmute" : "Mute";
    range.value = String(settings.volume);
    form.classList.toggle("is-muted", settings.muted || !settings.volume);
    form.querySelector(".sound-toggle").title = settings.muted ? "Sound (muted)" : "Sound: volume " + settings.volume;
  }
  function setPanel(form, open) {
    form.querySelector(".sound-toggle").setAttribute("aria-expanded", open ? "true" : "false");
    form.querySelector(".sound-panel").hidden = !open;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var board = document.getElementById("board");
    if (board) shown = boardState(board); // the board of the page's load makes no sound
    var form = document.querySelector(".sound-control");
    if (!form) return;
    if (form.getAttribute("data-local")) readLocal();
    else {
      settings.volume = Number(form.getAttribute("data-volume")) || 0;
      settings.muted = form.getAttribute("data-muted") === "1";
    }
    render(form);
    form.hidden = false;
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    var toggle = form.querySelector(".sound-toggle");
    toggle.addEventListener("click", function () {
      setPanel(form, toggle.getAttribute("aria-expanded") !== "true");
    });
    document.addEventListener("click", function (event) {
      if (!form.contains(event.target)) setPanel(form, false);
    });
    form.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { setPanel(form, false); toggle.focus(); }
    });
    form.querySelector(".sound-mute").addEventListener("click", function () {
      settings.muted = !settings.muted;
      if (!settings.muted && !settings.volume) settings.volume = 60;
      render(form);
      applyVolume();
      save(form);
      if (!settings.muted) play("turn");
    });
    var range = form.querySelector(".sound-volume");
    range.addEventListener("input", function () {
      settings.volume = Number(range.value);
      if (settings.volume) settings.muted = false;
      render(form);
      applyVolume();
    });
    range.addEventListener("change", function () {
      save(form);
      play("card");
    });
  });
})();

"""The canned emotes: quick reactions, each a fixed line (no free text, nothing else). The
symbols are in every common font (no colour emoji needed to show them)."""

EMOTES: dict[str, str] = {
    "hello": "☺ Hello!",
    "good_luck": "♣ Good luck!",
    "nice": "★ Nice move!",
    "oops": "☹ Oops!",
    "thinking": "♦ Thinking…",
    "thanks": "♥ Thanks!",
    "gg": "♠ Good game!",
}

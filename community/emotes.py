"""The canned emotes: quick reactions, each a fixed line (no free text, nothing else)."""

EMOTES: dict[str, str] = {
    "hello": "👋 Hello!",
    "good_luck": "🍀 Good luck!",
    "nice": "👏 Nice move!",
    "oops": "😅 Oops!",
    "thinking": "🤔 Thinking…",
    "thanks": "🙏 Thanks!",
    "gg": "🤝 Good game!",
}

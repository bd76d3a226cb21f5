"""BaniraCards on the site: the card pool (admin-managed card definitions and deck lists)
and practice runs. The engine (games/engine/banira) never touches this app: a run receives
its deck list as plain data in the match options."""

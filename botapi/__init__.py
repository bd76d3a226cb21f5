"""The Bot API (issue 20): personal API tokens, bot accounts, `/api/v1/` and its streams.

docs/bot-api.md says how to write a bot and what was decided.
"""

"""Demo data for a fresh site: one command, `manage.py demo_data`, seeds every app in order.

The app holds only that command. It sits above every other app (it is the one place that
knows them all); each app writes its own demo data through its own service:
`accounts.demo`, `banira.services.deck_list_load_default`, `progression.services.demo`,
`games.demo` and `ratings.demo`. Nothing imports this app.
"""

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self) -> None:
        # Accounts sit above `games` (vacation shifts its deadlines), which imports nothing of
        # them (docs/architecture.md, "Between apps"): games shows a seat's player by the
        # name rule handed here, and loads the profile it reads with every board's players.
        from accounts.names import display_name
        from games import names, selectors

        names.name_of_register(display_name)
        selectors.player_details_register("profile")

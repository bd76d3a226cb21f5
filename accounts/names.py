def display_name(user) -> str:
    """A player's shown name: their profile's (`Profile.name`: the display name, else the
    username), or the username of an account with no profile yet."""
    profile = getattr(user, "profile", None)
    return profile.name if profile is not None else user.get_username()

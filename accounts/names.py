def display_name(user) -> str:
    """A player's shown name: their display name, else their username."""
    profile = getattr(user, "profile", None)
    if profile is not None and profile.display_name:
        return profile.display_name
    return user.get_username()

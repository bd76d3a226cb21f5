"""Errors of the notification centre, each with a message a player can read."""


class InboxError(Exception):
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadSettings(InboxError):
    pass


class BadPushSubscription(InboxError):
    pass


class PushUnavailable(InboxError):
    status = 409

"""Every periodic task, in one place (read by celery beat)."""

CELERY_BEAT_SCHEDULE: dict[str, dict] = {}

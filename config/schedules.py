"""Every periodic task, in one place (read by celery beat)."""

from celery.schedules import crontab

CELERY_BEAT_SCHEDULE: dict[str, dict] = {
    # Reminders: "your turn" missed by the on-commit send, and "running late" at 80% of the
    # time used (each at most once per turn / deadline: inbox.services).
    "inbox-send-due-reminders": {
        "task": "inbox.tasks.send_due_reminders",
        "schedule": 60.0,
    },
    # The daily digest: hourly, each player gets it once a day at the hour they chose.
    "inbox-send-digests": {
        "task": "inbox.tasks.send_digests",
        "schedule": crontab(minute=5),
    },
    # Notifications older than 90 days whose match is over (the rest of the ledger stays).
    "inbox-prune-notifications": {
        "task": "inbox.tasks.prune_notifications",
        "schedule": crontab(minute=30, hour=4),
    },
    # Clocks: settle overdue turns, end forgotten pauses, expire unjoined tables (also done
    # when a match is read, and by `manage.py settle_overdue`).
    "games-sweep-clocks": {
        "task": "games.tasks.sweep_clocks",
        "schedule": 60.0,
    },
    # AI moves whose task was lost (a broker outage, a killed worker): sent again once the
    # AI seat has been to act for AUTOMATION_STALL_SECONDS (docs/operations.md, "Outages").
    "games-sweep-automation": {
        "task": "games.tasks.sweep_automation",
        "schedule": 30.0,
    },
    # BaniraCards: reveal last week's seeds and open this week's challenge (also done lazily
    # when a BaniraCards page opens, so a missed beat changes nothing).
    "banira-weekly-rollover": {
        "task": "banira.tasks.weekly_rollover",
        "schedule": crontab(minute=0, hour=0, day_of_week="mon"),
    },
    # BaniraCards: grant the prizes of weeks that are over (hourly, so a missed beat is
    # made up; once per week however often it runs: banira.services.weekly_prizes_award).
    "banira-weekly-prizes": {
        "task": "banira.tasks.weekly_prizes",
        "schedule": crontab(minute=10),
    },
    # Progression: draw each player's quests soon after their local midnight (zones differ
    # by quarter hours), and roll the season over at its end (both also done lazily when a
    # page needs them).
    "progression-quests-rotate": {
        "task": "progression.tasks.quests_rotate",
        "schedule": crontab(minute="*/15"),
    },
    "progression-season-rollover": {
        "task": "progression.tasks.season_rollover",
        "schedule": crontab(minute=1),
    },
}

"""Settle every overdue turn now (what the beat sweeper does each minute)."""

from django.core.management.base import BaseCommand

from games.services import timeouts


class Command(BaseCommand):
    help = "Settle overdue turns on time, end forgotten pauses and expire unjoined tables."

    def handle(self, *args, **options) -> None:
        done = timeouts.sweep()
        self.stdout.write(
            f"{done['timeouts']} turn(s) settled on time, {done['resumed']} pause(s) ended, "
            f"{done['expired']} table(s) expired."
        )

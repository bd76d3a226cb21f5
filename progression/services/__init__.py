"""Every write of progression (HackSoft style: `<entity>_<action>`, keyword-only).

Split by sub-domain: players (the row lock and applying rewards), matches (crediting a
finished match, exactly once), quests, seasons, cosmetics.
"""

from progression.services.cosmetics import cosmetic_equip, cosmetic_revoke
from progression.services.matches import match_result_process, match_result_record
from progression.services.players import (
    Grant,
    grant_apply,
    progress_locked,
    reward_grant,
    time_zone_set,
)
from progression.services.quests import quest_reroll, quests_rotate, quests_today
from progression.services.seasons import premium_buy, season_close, season_rollover, tier_claim

__all__ = [
    "Grant",
    "cosmetic_equip",
    "cosmetic_revoke",
    "grant_apply",
    "match_result_process",
    "match_result_record",
    "premium_buy",
    "progress_locked",
    "quest_reroll",
    "quests_rotate",
    "quests_today",
    "reward_grant",
    "season_close",
    "season_rollover",
    "tier_claim",
    "time_zone_set",
]

"""sample_hidden keeps the cards a pending Scrying Orb shows its player (found by the leak
sweep: the board of a seat reordering its scried cards changed with a redealt position)."""

from games.engine.core import Chance
from games.engine.grimhand import Grimhand

DEAL = {
    "attack": [5, 6, 9, 2, 11, 3],
    "defense": [1, 4, 8, 10],
    "hands": [{"attack": [3], "defense": [2]}, {"attack": [4], "defense": [9, 11]}],
    "abilities": [["scrying_orb"], ["hex"]],
    "energy": [3, 3],
    "first": 0,
}


def test_a_pending_scry_keeps_its_cards_in_every_sample():
    game = Grimhand()
    state = game.new(2, bytes(32), {"variant": "arcana", "event": "none", "deal": DEAL})
    state, _ = game.apply(state, 0, {"type": "play", "card": "scrying_orb", "deck": "attack"})
    view = game.view(state, 0)
    assert view["pending"]["mine"]["cards"] == [5, 6, 9]
    for n in range(20):
        sample = game.sample_hidden(state, 0, Chance(bytes(32), f"test/{n}"))
        assert game.view(sample, 0) == view

"""An example Cardhall bot: the standard library and httpx, nothing else.

It reads its account's events, accepts every invitation, and plays any game by choosing a
legal move from its match stream (at random: a real bot would choose better). Each match is
played in its own thread, reading `GET /api/v1/matches/{id}/stream` line by line.

    CARDHALL_URL=https://cardhall.example CARDHALL_TOKEN=chb_... python examples/bot.py
    python examples/bot.py --ai grimhand --level easy   # open one match against the AI

docs/bot-api.md explains the API this uses.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import threading
from collections.abc import Iterator
from typing import Any

import httpx

logger = logging.getLogger("cardhall.bot")

# Streams send a line at least every few seconds (an empty line when nothing happens), so a
# read that waits much longer than that means the connection is gone.
STREAM_READ_TIMEOUT = 60.0


class Bot:
    def __init__(self, url: str, token: str, *, seed: int | None = None) -> None:
        self.http = httpx.Client(
            base_url=url.rstrip("/"),
            headers={"Authorization": f"Bearer {token}"},
            timeout=httpx.Timeout(30.0, read=STREAM_READ_TIMEOUT),
        )
        self.random = random.Random(seed)
        self.playing: dict[int, threading.Thread] = {}
        self.lock = threading.Lock()

    # --- reading streams -------------------------------------------------------------------

    def lines(self, path: str) -> Iterator[dict[str, Any]]:
        """The JSON objects of an ndjson stream, skipping the keep-alive empty lines."""
        with self.http.stream("GET", path) as response:
            response.raise_for_status()
            for line in response.iter_lines():
                if line.strip():
                    yield json.loads(line)

    # --- choosing and sending a move -------------------------------------------------------

    def choose(self, view: dict[str, Any], legal_moves: list[dict[str, Any]]) -> dict[str, Any]:
        """The move to make: any legal move will do for this example."""
        return self.random.choice(legal_moves)

    def play(self, match_id: int) -> dict[str, Any]:
        """Play the match to its end from its stream; the last line seen (the result)."""
        last: dict[str, Any] = {}
        for snapshot in self.lines(f"/api/v1/matches/{match_id}/stream"):
            last = snapshot
            if snapshot["is_my_turn"] and snapshot["legal_moves"]:
                self.move(match_id, snapshot)
        return last

    def move(self, match_id: int, snapshot: dict[str, Any]) -> None:
        ply = snapshot["ply"]
        move = self.choose(snapshot["view"], snapshot["legal_moves"])
        body = {"ply": ply, "move": move, "move_id": f"{match_id}-{ply}"}
        for _attempt in range(3):
            try:
                answer = self.http.post(f"/api/v1/matches/{match_id}/moves", json=body)
            except httpx.TransportError:  # the same move_id makes a retry safe
                continue
            if answer.status_code == 429:
                threading.Event().wait(float(answer.headers.get("Retry-After", "1")))
                continue
            if answer.status_code == 409:  # the match moved on: the stream brings the news
                return
            answer.raise_for_status()
            return

    # --- events ----------------------------------------------------------------------------

    def challenge_ai(self, game: str, level: str = "easy") -> int:
        opponents: Any = [] if game == "banira" else {"ai": level}
        answer = self.http.post("/api/v1/matches", json={"game": game, "opponent": opponents})
        answer.raise_for_status()
        return answer.json()["id"]

    def run(self) -> None:
        """Forever: accept invitations, play every match that starts."""
        for event in self.lines("/api/v1/stream/events"):
            self.handle(event)

    def handle(self, event: dict[str, Any]) -> None:
        match_id = event["match"]["id"]
        if event["type"] == "invitation":
            self.http.post(f"/api/v1/matches/{match_id}/accept").raise_for_status()
        elif event["type"] in ("match_started", "your_turn"):
            self.play_in_background(match_id)

    def play_in_background(self, match_id: int) -> None:
        with self.lock:
            thread = self.playing.get(match_id)
            if thread is not None and thread.is_alive():
                return
            thread = threading.Thread(target=self.play, args=(match_id,), daemon=True)
            self.playing[match_id] = thread
            thread.start()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=os.environ.get("CARDHALL_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("CARDHALL_TOKEN", ""))
    parser.add_argument("--ai", metavar="GAME", help="open one match against the AI, play it")
    parser.add_argument("--level", default="easy", help="the AI's level for --ai")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    bot = Bot(args.url, args.token)
    if args.ai:
        result = bot.play(bot.challenge_ai(args.ai, args.level))
        print(json.dumps(result["match"], indent=2))
    else:
        bot.run()


if __name__ == "__main__":
    main()

"""The health probe's own process: `GET /healthz` and `GET /healthz/live` as a load balancer
sends them, from outside the load generator.

`python -m benchmarks.load.probe BASE_URL EVERY` asks readiness, then liveness, every EVERY
seconds, each on a new connection, until its standard input closes; then it prints one JSON
object: each check's latencies (ms), readiness's statuses and what it said of the channel
layer. A probe inside the generator shares an event loop with 200 simulated players, so its
timings would include the generator's own waits; here they include only the server's and
the machine's. Liveness touches no dependency and is answered on the server's event loop:
its latency is the floor any check meets on the loaded machine, and readiness's
difference from it is the cost of the checks themselves.
"""

from __future__ import annotations

import http.client
import json
import sys
import threading
import time
from collections import Counter
from urllib.parse import urlsplit

TIMEOUT = 10.0  # seconds, as the generator's own requests


def ask(host: str, port: int, path: str) -> tuple[float, int | str, dict]:
    """One GET on a new connection: (ms, status or the error's name, JSON body or {})."""
    sent = time.perf_counter()
    connection = http.client.HTTPConnection(host, port, timeout=TIMEOUT)
    try:
        connection.request("GET", path, headers={"Connection": "close"})
        response = connection.getresponse()
        body = response.read()
        status: int | str = response.status
        try:
            found = json.loads(body)
        except ValueError:
            found = {}
    except OSError as error:
        status, found = type(error).__name__, {}
    finally:
        connection.close()
    return (time.perf_counter() - sent) * 1000, status, found


def main() -> None:
    base_url, every = sys.argv[1], float(sys.argv[2])
    parts = urlsplit(base_url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
    ready: list[float] = []
    live: list[float] = []
    statuses: Counter = Counter()
    channel_layer: Counter = Counter()
    while not stop.is_set():
        started = time.perf_counter()
        ms, status, body = ask(host, port, "/healthz")
        ready.append(ms)
        statuses[str(status)] += 1
        channel_layer[str(body.get("channel_layer"))] += 1
        live.append(ask(host, port, "/healthz/live")[0])
        stop.wait(max(0.0, every - (time.perf_counter() - started)))
    json.dump(
        {
            "ready_ms": ready,
            "live_ms": live,
            "statuses": dict(statuses),
            "channel_layer": dict(channel_layer),
        },
        sys.stdout,
    )


if __name__ == "__main__":
    main()

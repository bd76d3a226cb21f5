"""The production shape, started on a fresh database and always stopped again.

A new PostgreSQL database `cardhall_load_<random>` (dropped at the end), migrate and
collectstatic, `uvicorn web.asgi:application --workers 2` with DEBUG=0, and one Celery
worker (concurrency 1) on its own Redis database. Redis is shared: the run uses its own
database numbers (channel layer /4, cache /5 (the settings' "next database"), broker /6 by
default) and never flushes anything. Every process is started in its own session, so
stopping it stops its children, and `Stack` is a context manager: it stops what it
started on any exit, Ctrl-C included.
"""

from __future__ import annotations

import contextlib
import os
import resource
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from config.websocket import UVICORN_WS

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent

DEFAULT_PG_URL = "postgres://postgres@127.0.0.1:5432/postgres"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/4"
DEFAULT_BROKER_URL = "redis://127.0.0.1:6379/6"


def raise_fd_limit(wanted: int = 65536) -> int:
    """Raise this process's soft open-files limit as far as allowed (children inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


@dataclass
class Stack:
    pg_url: str = DEFAULT_PG_URL  # any database on the server: used to create/drop ours
    redis_url: str = DEFAULT_REDIS_URL
    broker_url: str = DEFAULT_BROKER_URL
    log_dir: Path = field(default_factory=lambda: Path("/tmp"))
    workers: int = 2
    port: int = 0
    db_name: str = ""
    run_id: str = field(default_factory=lambda: secrets.token_hex(4))
    processes: dict[str, subprocess.Popen] = field(default_factory=dict)
    _created_db: bool = False

    # --- lifecycle ---

    def __enter__(self) -> Stack:
        previous = signal.getsignal(signal.SIGTERM)
        if previous in (signal.SIG_DFL, None):
            # `kill` of the run unwinds like Ctrl-C, so the finally blocks stop everything.
            signal.signal(signal.SIGTERM, _raise_interrupt)
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def database_url(self) -> str:
        return with_database(self.pg_url, self.db_name)

    @property
    def key_prefix(self) -> str:
        return f"cardhall-load-{self.run_id}"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def env(self) -> dict[str, str]:
        """The servers' environment: the caller's, with the production-shape settings."""
        env = dict(os.environ)
        for name in ("REDIS_CACHE_URL", "SECURE_COOKIES", "CELERY_TEST_BROKER_URL"):
            env.pop(name, None)
        env.update(
            DJANGO_SETTINGS_MODULE="benchmarks.load.settings",  # config.settings + key prefix
            LOADTEST_RUN_PREFIX=self.key_prefix,
            DATABASE_URL=self.database_url,
            REDIS_URL=self.redis_url,
            CELERY_BROKER_URL=self.broker_url,
            DEBUG="0",
            FAST_PASSWORD_HASHER="1",
            SECRET_KEY=env.get("LOADTEST_SECRET_KEY") or secrets.token_urlsafe(40),
            ALLOWED_HOSTS="127.0.0.1,localhost",
            PYTHONUNBUFFERED="1",
            LOG_FORMAT="text",  # _log_findings reads plain lines and tracebacks
            SECURE_HTTPS="0",  # plain HTTP (docs/security.md)
            # ~150 moves/s, 25 players per loopback address: only the per-IP limits rise.
            **{f"RATE_LIMIT_{group}_IP": "1000000/m" for group in ("MOVE", "START", "WRITE")},
        )
        return env

    def create_database(self) -> None:
        """The run's fresh database, migrated, and the static files collected (DEBUG=0
        serves their hashed names); `stop` drops it."""
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.db_name = f"cardhall_load_{self.run_id}"
        self._psql(f'CREATE DATABASE "{self.db_name}"')
        self._created_db = True
        env = self.env()
        self._run([str(BIN / "python"), "manage.py", "migrate", "--noinput", "-v", "0"], env)
        self._run([str(BIN / "python"), "manage.py", "collectstatic", "--noinput", "-v", "0"], env)

    def start(self) -> None:
        self.create_database()
        env = self.env()
        self.port = self.port or free_port()
        self._spawn(
            "uvicorn",
            [
                str(BIN / "uvicorn"),
                "web.asgi:application",
                *UVICORN_WS,
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--workers",
                str(self.workers),
                "--no-access-log",
                "--backlog",
                "4096",
            ],
            env,
        )
        self._spawn(
            "celery",
            [
                str(BIN / "celery"),
                "-A",
                "config",
                "worker",
                "--concurrency",
                "1",
                "--loglevel",
                "WARNING",
                "--without-gossip",
                "--without-mingle",
            ],
            env,
        )
        self.wait_ready()

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for name, process in self.processes.items():
                if process.poll() is not None:
                    raise RuntimeError(f"{name} exited ({process.returncode}): {self.log(name)}")
            try:
                with urllib.request.urlopen(self.base_url + "/accounts/login/", timeout=5):
                    if len(self.worker_pids()) >= self.workers:
                        return
            except OSError:
                pass
            time.sleep(0.3)
        raise RuntimeError("uvicorn did not answer within 60 s:\n" + self.log_tail("uvicorn"))

    def stop(self) -> None:
        """Stop every process, drop the database, delete the run's keys; a second Ctrl-C
        meanwhile is ignored, so the cleanup itself is not cut short."""
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            for name in list(self.processes):
                _stop_group(self.processes.pop(name))
            if self._created_db:
                self._created_db = False
                try:
                    self._psql(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
                except Exception as error:  # report it, and go on cleaning up
                    print(f"loadtest: could not drop {self.db_name}: {error}", file=sys.stderr)
                self.delete_run_keys()
        finally:
            signal.signal(signal.SIGINT, previous)

    def delete_run_keys(self) -> int:
        """Delete this run's Redis keys (its prefix, on its databases): never a flush."""
        import redis

        deleted = 0
        for url in {self.redis_url, _next_db(self.redis_url), self.broker_url}:
            try:
                client = redis.Redis.from_url(url)
                batch: list[bytes] = []
                for key in client.scan_iter(match=f"{self.key_prefix}*", count=1000):
                    batch.append(key)
                    if len(batch) >= 500:
                        deleted += client.delete(*batch)
                        batch = []
                if batch:
                    deleted += client.delete(*batch)
                client.close()
            except redis.RedisError as error:
                print(f"loadtest: could not delete this run's keys: {error}", file=sys.stderr)
        return deleted

    # --- processes ---

    def _spawn(self, name: str, command: list[str], env: dict[str, str]) -> None:
        log = open(self.log_path(name), "w")  # noqa: SIM115 - the child holds it open
        self.processes[name] = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        log.close()

    def _run(self, command: list[str], env: dict[str, str], timeout: float = 300) -> str:
        done = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
        )
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command[1:3])} failed:\n{done.stderr[-3000:]}")
        return done.stdout

    def run_python(
        self, args: list[str], timeout: float = 600, env: dict[str, str] | None = None
    ) -> str:
        """A Python module of this package inside the servers' environment (with `env` on
        top); its stdout."""
        return self._run([str(BIN / "python"), *args], {**self.env(), **(env or {})}, timeout)

    def _psql(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(_libpq_url(self.pg_url), autocommit=True) as connection:
            connection.execute(sql)

    def log_path(self, name: str) -> Path:
        return self.log_dir / f"{self.db_name}-{name}.log"

    def log(self, name: str) -> str:
        path = self.log_path(name)
        return path.read_text(errors="replace") if path.exists() else ""

    def log_tail(self, name: str, lines: int = 40) -> str:
        return "\n".join(self.log(name).splitlines()[-lines:])

    def worker_pids(self) -> list[int]:
        """uvicorn's worker processes (the children it spawned to serve)."""
        process = self.processes.get("uvicorn")
        if process is None:
            return []
        return [
            pid for pid in _children(process.pid) if "spawn_main" in _cmdline(pid)
        ] or _children(process.pid)

    def cpu_snapshot(self) -> dict[str, Any]:
        """CPU seconds so far: uvicorn's workers (together, and each by pid), Celery (its
        group), this generator, and the whole machine (so what everyone else used shows
        too)."""
        each = {pid: cpu_seconds(pid) for pid in self.worker_pids()}
        celery = self.processes.get("celery")
        celery_pids = [celery.pid, *_children(celery.pid)] if celery else []
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return {
            "uvicorn_workers": sum(each.values()),
            "uvicorn_each": each,
            "celery": sum(cpu_seconds(pid) for pid in celery_pids),
            "generator": usage.ru_utime + usage.ru_stime,
            "postgresql_all": cpu_of_command("postgres"),
            "redis_all": cpu_of_command("redis-server"),
            "machine": machine_busy_seconds(),
            "wall": time.monotonic(),
        }

    def workers_rss_bytes(self) -> int:
        return sum(rss_bytes(pid) for pid in self.worker_pids())


def _next_db(url: str) -> str:
    """config.settings puts the cache on the channel layer's next Redis database."""
    base, _, db = url.rstrip("/").rpartition("/")
    return f"{base}/{int(db) + 1}" if db.isdigit() else url.rstrip("/") + "/1"


def _libpq_url(url: str) -> str:
    return url.replace("postgres://", "postgresql://", 1)


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def _stop_group(process: subprocess.Popen, grace: float = 10.0) -> None:
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(5)
    # Children that outlived their parent are still in its process group.
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)


def _children(pid: int) -> list[int]:
    found: list[int] = []
    task_dir = Path(f"/proc/{pid}/task")
    if not task_dir.exists():
        return found
    for task in task_dir.iterdir():
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def cpu_seconds(pid: int, *, with_reaped_children: bool = False) -> float:
    """User + system CPU seconds a process has used so far (0 if it is gone); with its
    children that have exited and been waited for, if asked."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if with_reaped_children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / os.sysconf("SC_CLK_TCK")


def cpu_of_command(name: str) -> float:
    """CPU seconds of every process called `name` (e.g. every PostgreSQL backend, and the
    backends that have exited, through the postmaster)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == name:
                    total += cpu_seconds(int(entry.name), with_reaped_children=True)
            except OSError:
                continue
    return total


def machine_busy_seconds() -> float:
    """CPU seconds the whole machine has been busy (all cores, everyone's processes)."""
    ticks = [int(value) for value in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def rss_bytes(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0

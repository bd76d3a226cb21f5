"""A TCP proxy in a thread, to cut a service off from the processes that use it.

Put between the live servers and PostgreSQL, it stands for a database restart that is
ours alone (the shared PostgreSQL is never restarted): `cut()` drops every open
connection at once and refuses new ones, as a stopping server does; `restore()` accepts
connections again, as the restarted server does. Nothing of the connections survives a
cut, so a pooled connection is as dead afterwards as after a real restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Coroutine
from typing import Any

from tests.live import free_port

CHUNK = 65536


class TcpProxy:
    """127.0.0.1:`port` forwards to `target_host`:`target_port` until `cut`."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = free_port()
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self.connections_made = 0

    def __enter__(self) -> TcpProxy:
        self._thread.start()
        self.restore()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.cut()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        self.loop.close()

    def _run(self, coroutine: Coroutine[Any, Any, None]) -> None:
        asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(10)

    def restore(self) -> None:
        """Accept connections again, on the same port."""

        async def listen() -> None:
            if self._server is None:
                self._server = await asyncio.start_server(
                    self._handle, "127.0.0.1", self.port, reuse_address=True
                )

        self._run(listen())

    def cut(self) -> None:
        """Refuse new connections and drop every open one (a reset, as a crash would)."""

        async def close() -> None:
            if self._server is not None:
                self._server.close()
                await self._server.wait_closed()
                self._server = None
            for writer in list(self._writers):
                writer.transport.abort()
            self._writers.clear()

        self._run(close())

    @property
    def open_connections(self) -> int:
        return len(self._writers) // 2

    async def _handle(
        self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter
    ) -> None:
        try:
            server_reader, server_writer = await asyncio.open_connection(*self.target)
        except OSError:
            client_writer.transport.abort()
            return
        self.connections_made += 1
        self._writers.update((client_writer, server_writer))
        await asyncio.gather(
            self._pipe(client_reader, server_writer), self._pipe(server_reader, client_writer)
        )
        self._writers.difference_update((client_writer, server_writer))

    @staticmethod
    async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while chunk := await reader.read(CHUNK):
                writer.write(chunk)
                await writer.drain()
        with contextlib.suppress(OSError, RuntimeError):
            writer.close()

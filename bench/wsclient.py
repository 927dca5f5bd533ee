"""A minimal asyncio websocket client (RFC 6455), enough for the benchmarks.

Text frames only (JSON), client frames masked as the RFC requires, pings
answered, no extensions. Hundreds of them share one event loop.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import struct

import orjson  # the client shares the servers' cores: its parsing is counted against them

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
TEXT, BINARY, CLOSE, PING, PONG, CONTINUATION = 0x1, 0x2, 0x8, 0x9, 0xA, 0x0


class HandshakeRefused(Exception):
    def __init__(self, status_line: str) -> None:
        super().__init__(status_line)
        self.status_line = status_line


class Closed(Exception):
    def __init__(self, code: int | None) -> None:
        super().__init__(f"closed with code {code}")
        self.code = code


class WebSocket:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.close_code: int | None = None

    @classmethod
    async def connect(cls, host: str, port: int, path: str, headers: dict[str, str] | None = None) -> WebSocket:
        reader, writer = await asyncio.open_connection(host, port)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1",
            f"Host: {host}:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
            f"Origin: http://{host}:{port}",
            *(f"{name}: {value}" for name, value in (headers or {}).items()),
        ]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        await writer.drain()
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        status_line = head.split("\r\n", 1)[0]
        if " 101 " not in status_line + " ":
            writer.close()
            raise HandshakeRefused(status_line)
        accept = base64.b64encode(hashlib.sha1(key.encode() + GUID).digest()).decode()
        if f"sec-websocket-accept: {accept}".lower() not in head.lower():
            writer.close()
            raise HandshakeRefused("bad Sec-WebSocket-Accept")
        return cls(reader, writer)

    async def send_json(self, data: dict) -> None:
        self._send_frame(TEXT, orjson.dumps(data))
        await self.writer.drain()

    async def recv_json(self) -> dict:
        return orjson.loads(await self.recv())

    async def recv(self) -> str:
        """The next text message; answers pings on the way; raises Closed at a close."""
        parts: list[bytes] = []
        while True:
            fin, opcode, payload = await self._read_frame()
            if opcode == PING:
                self._send_frame(PONG, payload)
                continue
            if opcode == PONG:
                continue
            if opcode == CLOSE:
                self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                self._send_frame(CLOSE, payload[:2])
                self.writer.close()
                raise Closed(self.close_code)
            parts.append(payload)
            if fin:
                return b"".join(parts).decode()

    async def close(self, code: int = 1000) -> None:
        if self.writer.is_closing():
            return
        try:
            self._send_frame(CLOSE, struct.pack("!H", code))
            await self.writer.drain()
        except (ConnectionError, RuntimeError):
            pass
        self.writer.close()

    def _send_frame(self, opcode: int, payload: bytes) -> None:
        length = len(payload)
        if length < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
        elif length < 1 << 16:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
        mask = os.urandom(4)
        self.writer.write(header + mask + _masked(payload, mask))

    async def _read_frame(self) -> tuple[bool, int, bytes]:
        try:
            first, second = await self.reader.readexactly(2)
            length = second & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", await self.reader.readexactly(2))
            elif length == 127:
                (length,) = struct.unpack("!Q", await self.reader.readexactly(8))
            mask = await self.reader.readexactly(4) if second & 0x80 else None
            payload = await self.reader.readexactly(length)
        except (asyncio.IncompleteReadError, ConnectionError):
            raise Closed(None) from None
        if mask:
            payload = _masked(payload, mask)
        return bool(first & 0x80), first & 0x0F, payload


def _masked(payload: bytes, mask: bytes) -> bytes:
    # XOR with the 4-byte mask repeated, done as one big integer: fast in CPython.
    if not payload:
        return payload
    repeated = (mask * (len(payload) // 4 + 1))[: len(payload)]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(len(payload), "big")

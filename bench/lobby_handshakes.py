"""What one anonymous /ws/lobby/ connect costs a server: its CPU per handshake.

    .venv/bin/python bench/lobby_handshakes.py                    # embedded, 100 listed tables
    .venv/bin/python bench/lobby_handshakes.py --sockets 600 --rounds 7

One server (embedded: SQLite, in-memory layer) lists ``--tables`` open
tables. Each round opens ``--sockets`` anonymous lobby sockets,
``CONNECTS_AT_ONCE`` at a time, as the lobby page does (``?changes=1``),
reads each one's first list and closes it. The figure is the server
process's CPU time over the round divided by the sockets: the part of a
lobby storm (issue 14) that lands on the loop that also pushes the moves.
The first round warms the server up and is not counted. CPU time, not wall
time, so another busy core changes it less; still, compare runs taken in
turns.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

import moves  # bench/moves.py: its server processes
import realtime  # bench/realtime.py: its settings, its lobby and its CPU readings
from wsclient import WebSocket

CONNECTS_AT_ONCE = 20


async def one_round(port: int, sockets: int) -> float:
    """Wall seconds to open `sockets` lobby sockets, read each first list and close them."""
    started = time.perf_counter()
    gate = asyncio.Semaphore(CONNECTS_AT_ONCE)

    async def one() -> None:
        async with gate:
            socket = await WebSocket.connect(realtime.HOST, port, "/ws/lobby/?changes=1")
            try:
                first = await asyncio.wait_for(socket.recv(), 30)
                if not first.startswith('{"type":"lobby"'):
                    sys.exit(f"a lobby socket was sent {first[:80]!r}: refused?")
            finally:
                await socket.close()

    await asyncio.gather(*(one() for _ in range(sockets)))
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=int, default=300, help="lobby sockets a round (default 300)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds counted, after one to warm up (default 5)")
    parser.add_argument("--tables", type=int, default=100, help="open tables the lobby lists (default 100)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="septica-handshakes-") as scratch:
        env = realtime.embedded_env(scratch)
        env["SEPTICA_NO_EMBEDDED_WORKER"] = "1"
        env["LOBBY_ANONYMOUS_SOCKETS_PER_ADDRESS"] = str(10 * CONNECTS_AT_ONCE)  # closed sockets may be counted a moment longer
        realtime.setup_django(env)
        realtime.make_lobby(0, args.tables, 0, "H")
        from django.db import connections

        connections.close_all()
        moves.FIRST_PORT = realtime.FIRST_PORT["embedded"]
        with moves.Servers(1, env, Path(scratch)) as running:
            server = running.processes[0]
            per_socket, walls = [], []
            for number in range(args.rounds + 1):
                before = realtime.process_cpu_seconds(server.pid)
                wall = asyncio.run(one_round(running.ports[0], args.sockets))
                spent = realtime.process_cpu_seconds(server.pid) - before
                if number:
                    per_socket.append(1000 * spent / args.sockets)
                    walls.append(wall)
        print(
            f"anonymous lobby handshakes, {args.tables} tables listed, {args.sockets} sockets x {args.rounds} rounds: "
            f"server CPU per socket median {statistics.median(per_socket):.2f} ms "
            f"(rounds {', '.join(f'{ms:.2f}' for ms in per_socket)}); "
            f"a round's wall time median {statistics.median(walls):.2f} s; "
            f"reference loop {realtime.reference_loop_ms():.0f} ms",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

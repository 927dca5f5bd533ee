"""Autobahn's debug-line helpers, made lazy in the two modules that serve the site's websockets.

Autobahn's WebSocket protocol (`autobahn.websocket.protocol`) and its
Twisted adapter (`autobahn.twisted.websocket`) build the words of their
debug lines eagerly, whether or not anybody keeps debug lines: each new
socket pretty-prints its settings (`pformat`), and every frame sent or
received colours its method's and peer's names (`hltype`, `hlval`). In a
storm of anonymous lobby connects that was the largest single cost of a
handshake on the server's event loop, and it is paid again on every push of
every move (bench/lobby_handshakes.py and the README have the figures).

Here those module globals give an object that makes the words only when a
line is written. Every call of them in these two modules is a keyword
argument of a log call, except the timings' `__str__`, which must return a
string and gets one: a dict, never a list, so `pformat` of anything but a
list stays eager. autobahn is pinned (requirements.txt);
tests/site/test_private_names.py checks every call site and fails when an
upgrade changes them.
"""

from __future__ import annotations

import pprint

from autobahn import util
from autobahn.twisted import websocket as twisted_websocket
from autobahn.websocket import protocol

MODULES = (protocol, twisted_websocket)


class LazyWords:
    """`function(*args)`, made when first printed."""

    __slots__ = ("function", "args")

    def __init__(self, function, *args) -> None:
        self.function, self.args = function, args

    def __str__(self) -> str:
        return str(self.function(*self.args))

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def pformat(value, *args, **kwargs):
    if isinstance(value, list) and not args and not kwargs:  # a new socket's settings, for a debug line
        return LazyWords(pprint.pformat, value)
    return pprint.pformat(value, *args, **kwargs)


def hltype(obj):
    return LazyWords(util.hltype, obj)


def hlval(val, color="white", bold=True):
    return LazyWords(util.hlval, val, color, bold)


def install() -> None:
    """Put the lazy helpers in place of autobahn's, in the modules that serve websockets."""
    protocol.pformat = pformat
    for module in MODULES:
        module.hltype, module.hlval = hltype, hlval

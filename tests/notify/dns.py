"""Names for the tests' push services: there is no DNS where the tests run, so the names
the tests subscribe at resolve here, through the one lookup notify/addresses.py makes."""

from __future__ import annotations

import socket

# Public addresses (Google's and Mozilla's push services' ranges), never connected to.
PUBLIC_NAMES = {
    "fcm.googleapis.com": ["142.250.185.74"],
    "updates.push.services.mozilla.com": ["34.117.59.81"],
    "push.example": ["142.250.185.75"],
    "push.example.com": ["142.250.185.76"],
}


def resolving(names: dict[str, list[str]], real=socket.getaddrinfo):
    """A getaddrinfo that answers `names` itself and asks the system for every other name."""

    def getaddrinfo(host, port, family=0, type=0, proto=0, flags=0):
        addresses = names.get(host.decode() if isinstance(host, bytes) else host)
        if addresses is None:
            return real(host, port, family, type, proto, flags)
        return [(socket.AF_INET6 if ":" in address else socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "",
                 (address, port or 0)) for address in addresses]

    return getaddrinfo

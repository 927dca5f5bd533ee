"""Where web push may connect: the one check of a push endpoint's address, and a session
that connects to the address the check approved.

A browser's push endpoint is an https URL at its push service, on port 443.
Anything else, and any host that does not resolve or resolves (even in part) to
an address that is not public, could aim the site's own requests inside its
network, so it is refused when a device subscribes and again at every delivery
(a name may point elsewhere by then). The name is looked up once, here, with
the connect timeout as its bound: the request then goes to the address checked,
with the name kept for the Host header, TLS's server name and the certificate's
check, so a second lookup cannot answer differently, and it is cut off once its
connect and read timeouts together have passed, however slowly the other end
answers. PUSH_ALLOWED_NETWORKS adds networks (the tests' push services on
127.0.0.0/8) that are taken over plain http and on any port too.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from socket import IPPROTO_TCP, SOCK_STREAM, gaierror, getaddrinfo
from urllib.parse import urlsplit

import requests
from django.conf import settings
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

# Every browser's push service (Google's, Mozilla's, Apple's, Microsoft's) listens on 443;
# another port only serves to point the site at something that is not a push service.
PUSH_PORT = 443

ANSWER_MAX_BYTES = 16 * 1024

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class Refused(ValueError):
    """An endpoint push may not reach; the message says why, naming no address."""


@dataclass(frozen=True)
class Destination:
    scheme: str
    hostname: str
    port: int
    address: str  # the one connected to


def checked(endpoint: str) -> Destination:
    """Where `endpoint` may be reached, or Refused."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:  # an unclosed [ipv6], a port that is no port
        raise Refused("The endpoint must be an https URL at a push service.") from None
    if parts.scheme not in ("https", "http") or not parts.hostname or parts.username or parts.password:
        raise Refused("The endpoint must be an https URL at a push service.")
    addresses = resolved(parts.hostname, port)
    if all(allowed_network(address) for address in addresses):
        return Destination(parts.scheme, parts.hostname, port, str(addresses[0]))
    if not all(public(address) for address in addresses):
        raise Refused("The endpoint must be at a push service on the internet, not at a private or local address.")
    if parts.scheme != "https" or port != PUSH_PORT:
        raise Refused(f"The endpoint must be an https URL on port {PUSH_PORT}, as push services' are.")
    return Destination(parts.scheme, parts.hostname, port, str(addresses[0]))


# Lookups run here so that a name server that never answers holds neither a request nor a
# push worker past the connect timeout (a lookup cannot be cancelled: its thread stays busy).
_lookups = ThreadPoolExecutor(max_workers=8, thread_name_prefix="push-dns")


def resolved(hostname: str, port: int) -> list[Address]:
    lookup = _lookups.submit(getaddrinfo, hostname, port, type=SOCK_STREAM, proto=IPPROTO_TCP)
    try:
        answers = lookup.result(timeout=settings.PUSH_CONNECT_TIMEOUT_SECONDS)
    except TimeoutError:
        raise Refused("The endpoint's host name did not resolve in time.") from None
    except (gaierror, UnicodeError, OSError):
        raise Refused("The endpoint's host name does not resolve.") from None
    addresses = [ipaddress.ip_address(answer[4][0].split("%")[0]) for answer in answers]
    if not addresses:
        raise Refused("The endpoint's host name does not resolve.")
    return addresses


def public(address: Address) -> bool:
    """Whether `address` is on the public internet, and so is any IPv4 address it carries (mapped, 6to4, Teredo)."""
    if address.is_multicast or not address.is_global:
        return False
    if isinstance(address, ipaddress.IPv6Address):
        carried = [address.ipv4_mapped, address.sixtofour, address.teredo and address.teredo[1]]
        return all(public(inner) for inner in carried if inner is not None)
    return True


def allowed_network(address: Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in ipaddress.ip_network(network) for network in settings.PUSH_ALLOWED_NETWORKS)


# --- connecting ----------------------------------------------------------------------------------
class _CutOff:
    """A connection cut when its connect and read timeouts together have passed since it opened:
    the read timeout bounds each wait, and a host answering a byte at a time would never meet it."""

    _cut_off: threading.Timer | None = None

    def connect(self):
        super().connect()
        seconds = settings.PUSH_CONNECT_TIMEOUT_SECONDS + settings.PUSH_READ_TIMEOUT_SECONDS
        self._cut_off = threading.Timer(seconds, self._cut)
        self._cut_off.daemon = True
        self._cut_off.start()

    def _cut(self):
        with contextlib.suppress(OSError, AttributeError):  # closed meanwhile
            self.sock.shutdown(socket.SHUT_RDWR)

    def close(self):
        if self._cut_off is not None:
            self._cut_off.cancel()
        super().close()


class _CutOffHTTPConnection(_CutOff, HTTPConnection):
    pass


class _CutOffHTTPSConnection(_CutOff, HTTPSConnection):
    pass


class _HTTPPool(HTTPConnectionPool):
    ConnectionCls = _CutOffHTTPConnection


class _HTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _CutOffHTTPSConnection


class _PinnedAdapter(HTTPAdapter):
    """Connects to the checked address whatever the URL's host, and checks TLS for the name."""

    def __init__(self, destination: Destination):
        self.destination = destination
        super().__init__(max_retries=0)

    def init_poolmanager(self, *args, **kwargs):
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _HTTPPool, "https": _HTTPSPool}

    def build_connection_pool_key_attributes(self, request, verify, cert=None):
        host_params, pool_kwargs = super().build_connection_pool_key_attributes(request, verify, cert)
        host_params["host"] = self.destination.address
        if host_params["scheme"] == "https":
            pool_kwargs["server_hostname"] = self.destination.hostname
            pool_kwargs["assert_hostname"] = self.destination.hostname
        return host_params, pool_kwargs

    def send(self, request, stream=False, **kwargs):
        request.headers["Host"] = urlsplit(request.url).netloc
        response = super().send(request, stream=True, **kwargs)
        # A push service's answer is a few bytes; what is beyond this is never read or kept.
        with contextlib.closing(response):
            response._content = response.raw.read(ANSWER_MAX_BYTES, decode_content=True)
        return response


class _NoRedirects(requests.Session):
    def get_redirect_target(self, response):
        return None  # a redirect would lead to an address nobody checked


def session_to(destination: Destination) -> requests.Session:
    """A session whose every request goes to `destination.address`, following no redirect and no proxy."""
    session = _NoRedirects()
    session.trust_env = False  # a proxy from the environment would do its own lookup
    adapter = _PinnedAdapter(destination)
    session.mount("https://", adapter)
    session.mount("http://", adapter)
    return session

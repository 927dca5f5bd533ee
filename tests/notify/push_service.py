"""A push service on 127.0.0.1 for the tests: it takes the encrypted messages the site
sends, and a browser's subscription keys decrypt them as the browser would."""

from __future__ import annotations

import json
import os
import ssl
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from notify.models import PushSubscription
from notify.push import b64url


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes


@dataclass
class Browser:
    """A subscribing browser's keys: P-256 for the message key, 16 bytes of auth secret."""

    private_key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return b64url(point)

    def keys(self) -> dict:
        return {"p256dh": self.p256dh, "auth": b64url(self.auth)}

    def decrypt(self, received: Received) -> dict:
        plain = http_ece.decrypt(received.body, private_key=self.private_key, auth_secret=self.auth,
                                 version="aes128gcm")
        return json.loads(plain)


class PushService:
    """Over http; over https with `certificate` (a trustme LeafCert), noting the server names asked for."""

    def __init__(self, status: int = 201, certificate=None):
        self.status = status
        self.received: list[Received] = []
        self.server_names: list[str | None] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                headers = {name.lower(): value for name, value in self.headers.items()}
                service.received.append(Received(self.path, headers, self.rfile.read(length)))
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.scheme = "http"
        if certificate is not None:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            certificate.configure_cert(context)
            context.sni_callback = lambda _socket, name, _context: self.server_names.append(name)
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
            self.scheme = "https"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> PushService:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def url(self, path: str) -> str:
        return f"{self.scheme}://127.0.0.1:{self.server.server_port}{path}"

    def subscribe(self, user, browser: Browser, path: str = "/push/1") -> PushSubscription:
        """A subscription as the API stores it, at this plain-http endpoint (the API itself takes https only)."""
        return PushSubscription.objects.create(user=user, endpoint=self.url(path), **browser.keys())

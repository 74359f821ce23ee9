"""A push service of the tests' own, on loopback: an HTTP server that records every POST (path,
headers, body) and answers as its path says — ``/ok/…`` 201, ``/gone/…`` 410, ``/busy/…`` 429,
``/hang/…`` nothing until the test lets it go — a dead one (``DeadService``: it takes the
connections and never answers), and a phone of the tests' own: a P-256 key pair
and an authentication secret, which decrypts what the server sent it (RFC 8291) and checks the
VAPID signature (RFC 8292)."""

import base64
import json
import os
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Received:
    def __init__(self, path: str, headers: dict, body: bytes):
        self.path, self.headers, self.body = path, headers, body
        self.at = time.perf_counter()  # when it arrived (the machine's monotonic clock)


class PushService:
    """The server, started on a free loopback port; ``received`` holds every POST."""

    def __init__(self):
        self.received: list[Received] = []
        self.released = threading.Event()
        self.lock = threading.Condition()
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # connections kept open, as a push service's are

            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with service.lock:
                    service.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    service.lock.notify_all()
                if self.path.startswith("/hang/"):
                    service.released.wait(30)
                status = 410 if self.path.startswith("/gone/") else 429 if self.path.startswith("/busy/") else 201
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def to(self, path: str) -> list[Received]:
        return [r for r in self.received if r.path == path]

    def wait_for(self, count: int, deadline: float = 30.0) -> None:
        end = time.monotonic() + deadline
        with self.lock:
            while len(self.received) < count:
                left = end - time.monotonic()
                assert left > 0, f"the push service received {len(self.received)} of {count}"
                self.lock.wait(left)

    def close(self):
        self.released.set()
        self.server.shutdown()
        self.server.server_close()


class DeadService:
    """A push service that takes every connection and never says a word, on another loopback
    address than ``PushService``'s (127.0.0.2: a host of its own, for the circuit and the
    lanes). ``connections``: how many it took."""

    def __init__(self, host: str = "127.0.0.2"):
        self.sock = socket.create_server((host, 0))
        self.origin = f"http://{host}:{self.sock.getsockname()[1]}"
        self.held: list[socket.socket] = []
        self.connections = 0
        self.closed = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        while not self.closed.is_set():
            try:
                conn, _addr = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            self.held.append(conn)

    def close(self):
        """Hang up on everyone: a call still waiting ends at once."""
        self.closed.set()
        self.sock.close()
        for conn in self.held:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            conn.close()


def browser_keys():
    """A browser's keys for a subscription: (private key, auth secret, ``{"p256dh", "auth"}``)."""
    key = ec.generate_private_key(ec.SECP256R1())
    auth = os.urandom(16)
    point = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return key, auth, {"p256dh": b64url(point), "auth": b64url(auth)}


class Phone:
    """A browser's push subscription: its own keys, an endpoint at ``service``."""

    def __init__(self, service, path: str):
        self.key, self.auth, keys = browser_keys()
        self.path = path
        self.endpoint = service.origin + path
        self.subscription = {"endpoint": self.endpoint, "expirationTime": None, "keys": keys}

    def read(self, message: Received) -> dict:
        """The notice, decrypted as the phone's browser would (aes128gcm)."""
        assert message.headers["content-encoding"] == "aes128gcm"
        return json.loads(http_ece.decrypt(message.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))


def vapid_claims(message: Received, public_key: str) -> dict:
    """The VAPID token's claims, once its signature is checked with ``public_key`` (the key the
    phone page handed the browser) and the header names that key (RFC 8292: ``vapid t=…, k=…``)."""
    scheme, _sep, params = message.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(p.strip().split("=", 1) for p in params.split(","))
    assert parts["k"] == public_key
    header, claims, signature = parts["t"].split(".")
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    try:
        key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("the VAPID signature does not verify") from None
    return json.loads(unb64url(claims))

"""A Kubernetes validating admission webhook: ``preflight serve --admission``.

The API server POSTs an ``admission.k8s.io/v1`` AdmissionReview; the answer echoes the
request's ``uid``, says ``allowed``, puts the gate's reasons in ``status.message`` (HTTP-like
``code`` 403) and its warnings in ``warnings`` (kubectl prints them).

- Only CREATE and UPDATE of Pod, Job and PyTorchJob are gated; anything else is allowed
  unread. An UPDATE passes unread only when it is a ``status`` subresource update or leaves
  the object's ``spec`` as it was (``oldObject``); any other UPDATE is gated like a CREATE.
  A CREATE or UPDATE of a gated kind without an ``object`` is denied (fail-closed). A Pod
  owned by a controller (``ownerReferences`` with ``controller: true``) is allowed: its
  Job / PyTorchJob was gated when it was created.
- Fail-closed by default: a gate that errors or does not answer within ``timeout`` seconds
  denies (the cluster file's ``policy.on_failure: admit`` or ``--fail-open`` allows
  instead, with a warning); the message names the cluster file's ``contact``. The API
  server's own ``timeoutSeconds`` (at most 30, default 10) should be above ``timeout``.
- Bounded: at most ``max_checks`` gate computations run at once (a check that timed out
  keeps its slot until it really ends, so runaway work cannot pile up); a request that
  finds no free slot before its deadline fails per the failure policy. At most
  ``max_connections`` connections are open; more are closed at once. A client has
  ``read_timeout`` seconds (15) to send each whole request, TLS handshake included,
  however slowly it trickles bytes; an idle keep-alive connection is closed after that.
- HTTPS only, with the given certificate and key (TLS 1.2 or newer); bodies over
  ``MAX_BODY`` bytes are refused.
- Hostile HTTP gets a plain 4xx with a status line: no Content-Length or several that
  disagree, one that is not a decimal number, ``Transfer-Encoding``, a body that is not JSON
  or is nested too deeply. HTTP/0.9 requests too are answered as HTTP/1.0 (http.server would
  answer with a bare body). The connection is closed when the body's end is unknown. An
  AdmissionReview whose uid is readable but whose fields have the wrong shape is denied
  (fail-closed). A connection that fails is one log line, never a traceback.
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import ssl
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Optional

from preflight.gate.cluster import Cluster

MAX_BODY = 4 * 1024 * 1024  # the API server caps objects at ~1.5 MiB (etcd request limit)
GATED_KINDS = ("Pod", "Job", "PyTorchJob")
MAX_WARNING = 240
_DIGITS = re.compile(r"[0-9]{1,20}")


@dataclass
class WebhookConfig:
    cluster: Optional[Cluster] = None
    root: Optional[Path] = None  # where the scripts/configs a container names are looked up
    configs: list[Path] = field(default_factory=list)
    timeout: float = 8.0
    fail_open: bool = False
    allow_unknown: Optional[bool] = None
    read_timeout: float = 15.0  # seconds a client has for one whole request (headers and body)
    max_connections: int = 64  # open connections; more are closed at once
    max_checks: int = 4  # gate computations at once (timed-out ones included until they end)
    contact: str = ""  # whom to tell when the gate fails (the cluster file's contact)
    _slots: Optional[threading.BoundedSemaphore] = field(default=None, repr=False)

    def slots(self) -> threading.BoundedSemaphore:
        if self._slots is None:
            self._slots = threading.BoundedSemaphore(max(1, int(self.max_checks)))
        return self._slots


def review(body: Any, config: WebhookConfig) -> dict[str, Any]:
    """The AdmissionReview answer for a decoded request body."""
    request = body.get("request") if isinstance(body, dict) else None
    if not isinstance(request, dict) or not isinstance(request.get("uid"), str):
        raise ValueError("not an admission.k8s.io/v1 AdmissionReview with request.uid")
    uid = request["uid"]
    wrong = _wrong_shape(request)
    if wrong:
        return _failure(uid, f"malformed AdmissionReview: {wrong}", config)
    kind = (request.get("kind") or {}).get("kind")
    obj = request.get("object")
    operation = request.get("operation")
    if operation not in ("CREATE", "UPDATE") or kind not in GATED_KINDS:
        return _answer(uid, True)
    if operation == "UPDATE" and request.get("subResource") == "status":
        return _answer(uid, True)  # status updates by the operator / the kubelet
    if not isinstance(obj, dict):
        return _failure(uid, f"malformed AdmissionReview: {operation} of a {kind} without request.object", config)
    wrong = _wrong_object(obj)
    if wrong:
        return _failure(uid, f"malformed AdmissionReview: {wrong}", config)
    if kind == "Pod" and any(isinstance(o, dict) and o.get("controller")
                             for o in (obj.get("metadata") or {}).get("ownerReferences") or []):
        return _answer(uid, True)
    old = request.get("oldObject")
    if operation == "UPDATE" and isinstance(old, dict) and "spec" in obj and old.get("spec") == obj.get("spec"):
        return _answer(uid, True)  # labels, annotations, finalizers: nothing the gate reads changed
    return _gate_with_deadline(uid, obj, request, config)


def _wrong_shape(request: dict[str, Any]) -> str:
    """What in a request has a shape the API server never sends ("" if nothing)."""
    kind = request.get("kind")
    if kind is not None and not isinstance(kind, dict):
        return f"request.kind is a {type(kind).__name__}, not a mapping"
    return ""


def _wrong_object(obj: dict[str, Any]) -> str:
    """The same for the object of a gated kind."""
    meta = obj.get("metadata")
    if meta is not None and not isinstance(meta, dict):
        return f"request.object.metadata is a {type(meta).__name__}, not a mapping"
    refs = (meta or {}).get("ownerReferences")
    if refs is not None and not isinstance(refs, list):
        return f"request.object.metadata.ownerReferences is a {type(refs).__name__}, not a list"
    return ""


def _gate_with_deadline(uid: str, obj: dict[str, Any], request: dict[str, Any],
                        config: WebhookConfig) -> dict[str, Any]:
    """The gate in a worker thread, answered within ``config.timeout``. A slot of
    ``config.slots()`` is held until the work really ends: Python cannot stop a thread, so
    a check that timed out keeps running but counts against ``max_checks``."""
    deadline = time.monotonic() + config.timeout
    slots = config.slots()
    if not slots.acquire(timeout=max(0.0, config.timeout)):
        return _failure(uid, f"the preflight gate is busy ({config.max_checks} checks running) and did not "
                             f"start within {config.timeout:g} s", config)
    box: dict[str, Any] = {}
    done = threading.Event()

    def work() -> None:
        try:
            box["result"] = _gate(obj, request, config)
        except BaseException as exc:  # reported below; fail closed on any bug
            box["error"] = exc
        finally:
            slots.release()
            done.set()

    try:
        threading.Thread(target=work, name=f"preflight-gate-{uid[:8]}", daemon=True).start()
    except RuntimeError as exc:  # no thread could be started
        slots.release()
        return _failure(uid, f"the preflight gate could not start ({exc})", config)
    if not done.wait(max(0.0, deadline - time.monotonic())):
        return _failure(uid, f"the preflight gate did not answer within {config.timeout:g} s", config)
    if "error" in box:
        error = box["error"]
        return _failure(uid, f"the preflight gate failed ({type(error).__name__}: {error})", config)
    result = box["result"]
    from preflight.gate.verdict import ADMIT, ERROR

    warnings = [_short(w) for w in result.warnings]
    if result.decision == ADMIT:
        return _answer(uid, True, warnings=warnings)
    if result.decision == ERROR:
        return _failure(uid, "the preflight gate could not read the job: " + "; ".join(result.reasons), config)
    name = f"{obj.get('kind')} {(obj.get('metadata') or {}).get('name', '')}".strip()
    message = f"preflight gate rejected {name}: " + "; ".join(result.reasons)
    return _answer(uid, False, message=message, code=403, warnings=warnings)


def _gate(obj: dict[str, Any], request: dict[str, Any], config: WebhookConfig) -> Any:
    from preflight.gate.verdict import GateRequest, gate

    meta = obj.get("metadata") or {}
    display = f"{obj.get('kind')}/{request.get('namespace') or meta.get('namespace') or 'default'}/" \
              f"{meta.get('name') or meta.get('generateName') or '?'}"
    return gate(GateRequest(manifest=obj, display=display, kind="k8s", root=config.root,
                            configs=list(config.configs), cluster=config.cluster,
                            allow_unknown=config.allow_unknown))


def _failure(uid: str, message: str, config: WebhookConfig) -> dict[str, Any]:
    if config.fail_open:
        return _answer(uid, True, warnings=[_short(message + "; admitted (fail-open)")])
    whom = config.contact or "the cluster's administrators"
    return _answer(uid, False, message=f"{message} (fail-closed); if this persists, tell {whom}", code=500)


def _short(text: str) -> str:
    return text if len(text) <= MAX_WARNING else text[:MAX_WARNING - 3] + "..."


def _answer(uid: str, allowed: bool, *, message: str = "", code: int = 200,
            warnings: Optional[list[str]] = None) -> dict[str, Any]:
    response: dict[str, Any] = {"uid": uid, "allowed": allowed}
    if not allowed:
        response["status"] = {"code": code, "message": message}
    if warnings:
        response["warnings"] = warnings
    return {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": response}


# --------------------------------------------------------------------------- server


class _Handler(BaseHTTPRequestHandler):
    server_version = "preflight-admission"
    protocol_version = "HTTP/1.1"
    timeout = 15  # seconds a client may take to send its request
    config: WebhookConfig

    def log_message(self, format: str, *args: Any) -> None:
        sys.stderr.write(f"preflight serve: {self.address_string()} {format % args}\n")

    def send_response_only(self, code: int, message: Optional[str] = None) -> None:
        # http.server answers HTTP/0.9 (a request line without a version, or "HTTP/0.9"), and
        # errors found before the version is read (HTTP/2.0, a malformed version), with a bare
        # body: no status line, no headers. Every answer here has them.
        if self.request_version == "HTTP/0.9":
            self.request_version = "HTTP/1.0"
        super().send_response_only(code, message)

    def handle_one_request(self) -> None:
        """One request under a deadline for reading all of it (the TLS handshake, the request
        line, headers and body): the socket timeout alone restarts with every byte, so a
        client trickling one byte every few seconds would hold the connection for ever.
        When the deadline passes, the socket is shut down and the blocked read returns."""
        timer = threading.Timer(self.config.read_timeout, self._expire)
        timer.daemon = True
        self._read_timer = timer
        timer.start()
        try:
            super().handle_one_request()
        finally:
            timer.cancel()

    def _expire(self) -> None:
        self.close_connection = True
        sys.stderr.write(f"preflight serve: {self.address_string()} did not send a whole request within "
                         f"{self.config.read_timeout:g} s; connection closed\n")
        with contextlib.suppress(OSError):
            socket.socket.shutdown(self.connection, socket.SHUT_RDWR)  # the TCP socket, not a TLS close

    def _request_read(self) -> None:
        timer = getattr(self, "_read_timer", None)
        if timer is not None:
            timer.cancel()

    def do_GET(self) -> None:
        self._request_read()
        if self.path in ("/healthz", "/readyz"):
            self._send(200, b"ok\n", "text/plain")
        else:
            self._send(404, b"not found\n", "text/plain")

    def do_POST(self) -> None:
        length = self._length()
        if length is None:
            return
        raw = self.rfile.read(length)
        if len(raw) < length:  # the client went away before the end of its body (or its time ran out)
            self.close_connection = True
            return
        self._request_read()
        try:
            body = json.loads(raw)
        except RecursionError:
            self._send(400, b"bad AdmissionReview: JSON nested too deeply\n", "text/plain")
            return
        except ValueError as exc:  # UnicodeDecodeError included
            self._send(400, f"bad AdmissionReview: {exc}\n".encode(), "text/plain")
            return
        try:
            answer = review(body, self.config)
        except ValueError as exc:
            self._send(400, f"bad AdmissionReview: {exc}\n".encode(), "text/plain")
            return
        self._send(200, json.dumps(answer).encode(), "application/json")

    def _length(self) -> Optional[int]:
        """The body's length from its one Content-Length; None after an error answer (the
        connection is then closed: where the body ends is not known)."""
        problem, code = "", 400
        values = {v.strip() for v in self.headers.get_all("Content-Length") or []}
        if self.headers.get("Transfer-Encoding") is not None:
            problem, code = "Transfer-Encoding is not supported; send a Content-Length", 411
        elif not values:
            problem, code = "a body with Content-Length up to 4 MiB is required", 411
        elif len(values) > 1:
            problem = "Content-Length headers that disagree"
        elif not _DIGITS.fullmatch(next(iter(values))):
            problem = "Content-Length is not a decimal number"
        elif int(next(iter(values))) > MAX_BODY:
            problem, code = "a body with Content-Length up to 4 MiB is required", 413
        if problem:
            self.close_connection = True
            self._send(code, f"{problem}\n".encode(), "text/plain")
            return None
        return int(next(iter(values)))

    def _send(self, code: int, data: bytes, ctype: str) -> None:
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)


class _Server(ThreadingHTTPServer):
    max_connections = 64
    _open: Optional[threading.BoundedSemaphore] = None

    def process_request(self, request: Any, client_address: Any) -> None:
        """A thread per connection, up to ``max_connections``; a connection over that is
        closed at once (the API server retries; a flood cannot exhaust threads or memory)."""
        if self._open is None:
            self._open = threading.BoundedSemaphore(max(1, int(self.max_connections)))
        if not self._open.acquire(blocking=False):
            host = client_address[0] if isinstance(client_address, tuple) and client_address else client_address
            sys.stderr.write(f"preflight serve: {host} refused: {self.max_connections} connections open\n")
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._open.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            assert self._open is not None
            self._open.release()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection that fails (a plain-HTTP client on the TLS port, a client that hangs
        up mid-answer) is one log line; the server goes on."""
        exc = sys.exc_info()[1]
        host = client_address[0] if isinstance(client_address, tuple) and client_address else client_address
        sys.stderr.write(f"preflight serve: {host} connection error: {type(exc).__name__}: {exc}\n")


def make_server(host: str, port: int, cert: Path, key: Path, config: WebhookConfig) -> ThreadingHTTPServer:
    """An HTTPS server bound to (host, port); ``port`` 0 picks a free one."""
    handler = type("Handler", (_Handler,), {"config": config, "timeout": config.read_timeout})
    server = _Server((host, port), handler)
    server.max_connections = config.max_connections
    server.daemon_threads = True
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(str(cert), str(key))
    # the handshake runs in the handler's thread, under its timeout: a client that never
    # completes it cannot hold up accept()
    server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    return server


def serve_forever(server: ThreadingHTTPServer) -> None:
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()

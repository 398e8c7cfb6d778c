"""Hostile HTTP input for the admission webhook (`preflight serve --admission`).

Property tests drive the real server over HTTPS on loopback (a subprocess, as in
tests/test_webhook.py) with random and malformed requests: random bytes, lying or repeated
Content-Length, chunked bodies, wrong methods, paths and versions, non-JSON, JSON of the
wrong shape or nested 10,000 deep, huge strings. The properties: the answer is a well-formed
HTTP response (an AdmissionReview echoing the request's uid when one is readable, else a
4xx, or http.server's own 501/505 for a method or version it does not speak); the server
log never shows a traceback; the server answers the next request. ``review()`` itself gets
AdmissionReviews with every field of the wrong type, in-process.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import shutil
import socket
import ssl
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from preflight.gate.webhook import WebhookConfig, review

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "gate" / "k8s"
pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="the openssl CLI makes the test certificate")
SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                          HealthCheck.function_scoped_fixture])
UID = "fuzz-0000-4000-8000-000000000001"
# answers http.server gives on its own: a method it has no handler for, an HTTP version it does not speak
PROTOCOL_ANSWERS = {501, 505}


@dataclass
class Server:
    port: int
    context: ssl.SSLContext
    log: Path
    seen: int = 0  # bytes of the log already checked

    def new_log(self) -> str:
        text = self.log.read_text(encoding="utf-8", errors="replace")
        new, self.seen = text[self.seen:], len(text)
        return new


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    d = tmp_path_factory.mktemp("fuzz-tls")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(d / "key.pem"),
                    "-out", str(d / "cert.pem"), "-days", "1", "-subj", "/CN=preflight-gate.local",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"], check=True, capture_output=True)
    log = d / "server.log"
    with open(log, "w", encoding="utf-8") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "preflight", "serve", "--admission", "--cert", str(d / "cert.pem"),
             "--key", str(d / "key.pem"), "--host", "127.0.0.1", "--port", "0",
             "--cluster", str(FIXTURES / "cluster.yaml"), "--root", str(FIXTURES), "--timeout", "20"],
            stdout=subprocess.PIPE, stderr=err, text=True)
    line = proc.stdout.readline() if proc.stdout else ""
    if "https://" not in line:
        proc.kill()
        pytest.fail(f"the webhook did not start: {line}{log.read_text()}")
    port = int(line.rsplit(":", 1)[1].split("/")[0])
    context = ssl.create_default_context(cafile=str(d / "cert.pem"))
    yield Server(port, context, log)
    proc.terminate()
    proc.wait(timeout=10)


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes


def exchange(server: Server, data: bytes, *, hang_up: bool = False, head: bool = False) -> Optional[Reply]:
    """Send raw bytes over TLS and read one HTTP response (None when ``hang_up``: the client
    closes right after sending, as one whose body was cut short)."""
    raw = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    with server.context.wrap_socket(raw, server_hostname="127.0.0.1") as sock:
        try:
            sock.sendall(data)
        except OSError:  # the server answered early and closed before the whole body was sent
            if hang_up:
                return None
            try:
                return _read(sock, head)
            except OSError:
                return Reply(0, {}, b"")
        if hang_up:
            return None
        return _read(sock, head)


def _read(sock: ssl.SSLSocket, head: bool) -> Reply:
    resp = http.client.HTTPResponse(sock, method="HEAD" if head else "GET")  # type: ignore[arg-type]
    resp.begin()  # raises on a malformed status line or headers
    body = resp.read()
    return Reply(resp.status, {k.lower(): v for k, v in resp.getheaders()}, body)


def still_serving(server: Server) -> None:
    """The server answers a well-formed AdmissionReview after whatever came before."""
    body = json.dumps(_review({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}})).encode()
    reply = exchange(server, b"POST /validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                             b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    assert reply is not None and reply.status == 200
    assert json.loads(reply.body)["response"] == {"uid": UID, "allowed": True}


def assert_clean_log(server: Server) -> None:
    new = server.new_log()
    assert "Traceback" not in new, new
    assert "Exception occurred" not in new, new


def _review(obj: Any, uid: Any = UID, kind: Any = None, operation: Any = "CREATE") -> dict[str, Any]:
    if kind is None:
        kind = {"group": "", "version": "v1", "kind": obj.get("kind") if isinstance(obj, dict) else "Pod"}
    return {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
            "request": {"uid": uid, "kind": kind, "operation": operation, "namespace": "default", "object": obj}}


# --------------------------------------------------------------------------- strategies

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
                      st.text(max_size=20))
json_any = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)), max_leaves=20)
wrong = st.one_of(json_leaf, st.lists(json_leaf, max_size=3), st.dictionaries(st.text(max_size=5), json_leaf,
                                                                               max_size=3))
gated_kind = st.sampled_from(["Pod", "Job", "PyTorchJob"])


def nested(depth: int, leaf: Any = 1) -> str:
    return "[" * depth + json.dumps(leaf) + "]" * depth


@st.composite
def hostile_objects(draw: Any) -> Any:
    """A Kubernetes object for a gated kind, with fields of the wrong type or size."""
    kind = draw(gated_kind)
    obj: dict[str, Any] = {"apiVersion": "v1" if kind == "Pod" else "batch/v1", "kind": kind}
    obj["metadata"] = draw(st.one_of(
        wrong, st.fixed_dictionaries({"name": wrong}),
        st.fixed_dictionaries({"name": st.just("p"), "ownerReferences": wrong}),
        st.fixed_dictionaries({"name": st.just("p"), "ownerReferences": st.lists(wrong, max_size=3)})))
    obj["spec"] = draw(st.one_of(wrong, json_any, st.fixed_dictionaries({"containers": wrong}),
                                 st.fixed_dictionaries({"template": st.fixed_dictionaries({"spec": wrong})})))
    return draw(st.one_of(st.just(obj), wrong))


@st.composite
def hostile_reviews(draw: Any) -> Any:
    """AdmissionReview-like JSON values with every level of the wrong shape."""
    choice = draw(st.integers(0, 5))
    if choice == 0:
        return draw(json_any)  # anything at all
    if choice == 1:
        return {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": draw(wrong)}
    obj = draw(hostile_objects())
    uid = draw(st.one_of(st.just(UID), wrong)) if choice == 2 else UID
    kind = draw(st.one_of(wrong, st.fixed_dictionaries({"kind": st.one_of(gated_kind, wrong)}))) \
        if choice == 3 else None
    operation = draw(st.one_of(st.sampled_from(["CREATE", "UPDATE", "DELETE"]), wrong)) if choice == 4 else "CREATE"
    return _review(obj, uid, kind, operation)


def check_answer(answer: Any, sent: Any) -> None:
    """An AdmissionReview answer with the uid of the request."""
    assert answer["apiVersion"] == "admission.k8s.io/v1" and answer["kind"] == "AdmissionReview"
    resp = answer["response"]
    assert resp["uid"] == sent["request"]["uid"]
    assert isinstance(resp["allowed"], bool)
    if not resp["allowed"]:
        assert isinstance(resp["status"]["code"], int) and isinstance(resp["status"]["message"], str)
    json.dumps(answer)  # serialisable


def readable_uid(body: Any) -> bool:
    return isinstance(body, dict) and isinstance(body.get("request"), dict) \
        and isinstance(body["request"].get("uid"), str)


# --------------------------------------------------------------------------- in-process review()


@SETTINGS
@given(body=hostile_reviews())
def test_review_answers_any_json_with_the_uid_or_refuses_it(body):
    config = WebhookConfig(root=FIXTURES, timeout=20)
    if not readable_uid(body):
        with pytest.raises(ValueError):
            review(body, config)
        return
    check_answer(review(body, config), body)


def test_review_of_wrong_shapes_fails_closed():
    """Regression (found by the property test above): a Pod whose metadata is a list, or a
    request whose kind is a string, raised AttributeError out of review() (the server logged a
    traceback and closed the connection without an answer)."""
    for body in (_review({"kind": "Pod", "metadata": ["x"]}),
                 _review({"kind": "Pod", "metadata": {"ownerReferences": 3}}),
                 _review({"kind": "Job", "metadata": "x"}, kind="Job")):
        resp = review(body, WebhookConfig(root=FIXTURES))["response"]
        assert resp["uid"] == UID
        assert resp["allowed"] is False and resp["status"]["code"] == 500
        assert "fail-closed" in resp["status"]["message"]
        opened = review(body, WebhookConfig(root=FIXTURES, fail_open=True))["response"]
        assert opened["allowed"] is True and "fail-open" in opened["warnings"][0]


# --------------------------------------------------------------------------- over HTTPS

def mostly(common: Any, rare: Any) -> Any:
    """``common`` 8 times in 10, else ``rare``: most requests reach the AdmissionReview code."""
    return st.integers(0, 9).flatmap(lambda i: common if i < 8 else rare)


methods = mostly(st.just("POST"), st.one_of(
    st.sampled_from(["GET", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "TRACE", "CONNECT", "post", "P0ST"]),
    st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=8)))
paths = mostly(st.just("/validate"), st.one_of(
    st.sampled_from(["/", "/healthz", "/readyz", "*", "//../../etc/passwd", "/validate?x=1#f", "/%00",
                     "http://evil/validate", "/" + "a" * 70000]),
    st.text(st.characters(min_codepoint=33, max_codepoint=126), max_size=30)))
versions = mostly(st.just("HTTP/1.1"), st.sampled_from(["HTTP/1.0", "HTTP/2.0", "HTTP/0.9", "HTTP/1.1 extra", "",
                                                        "HTTP/x", "http/1.1"]))
header_text = st.text(st.characters(min_codepoint=32, max_codepoint=255, blacklist_characters="\r\n"),
                      max_size=40)
bodies = st.one_of(
    st.binary(max_size=2000),
    st.builds(lambda v: json.dumps(v).encode(), json_any),
    st.builds(lambda v: json.dumps(v).encode(), hostile_reviews()),
    st.builds(lambda v: json.dumps(v).encode(), hostile_reviews()),  # twice: most bodies have a uid
    st.builds(lambda d: nested(d).encode(), st.sampled_from([900, 1100, 10_000, 100_000])),
    st.builds(lambda d: json.dumps(_review({"kind": "Pod", "metadata": {"name": "p"},
                                             "spec": json.loads(nested(d))})).encode(),
              st.sampled_from([50, 400, 900])),
    st.builds(lambda n: json.dumps(_review({"kind": "Pod", "metadata": {"name": "x" * n}})).encode(),
              st.sampled_from([10_000, 1_000_000])),
    st.just(json.dumps(_review({"kind": "Pod"}, uid="u" * 1_000_000)).encode()),
    st.just(b"\xef\xbb\xbf" + json.dumps(_review({"kind": "ConfigMap"})).encode()),  # UTF-8 BOM
    st.just(json.dumps(_review({"kind": "ConfigMap"})).encode("utf-16")),
)
LENGTH_MODES = ["exact", "missing", "repeated", "conflicting", "smaller", "larger", "negative", "garbage",
                "huge", "underscore", "chunked", "chunked+length"]
EARLY_REFUSALS = {"missing", "conflicting", "negative", "garbage", "huge", "underscore", "chunked",
                  "chunked+length"}


@st.composite
def requests(draw: Any) -> tuple[bytes, dict[str, Any]]:
    method, path, version = draw(methods), draw(paths), draw(versions)
    body = draw(bodies)
    mode = draw(mostly(st.just("exact"), st.sampled_from(LENGTH_MODES[1:])))
    headers = [("Host", "127.0.0.1"), ("Content-Type", draw(st.sampled_from(
        ["application/json", "text/plain", "", "application/json; charset=utf-16"])))]
    headers += draw(st.lists(st.tuples(st.sampled_from(["X-Junk", "Content-Type", "Expect", "Connection",
                                                        "Host", "Accept-Encoding"]), header_text), max_size=4))
    hang_up = False
    if mode == "exact":
        headers.append(("Content-Length", str(len(body))))
    elif mode == "repeated":
        headers += [("Content-Length", str(len(body)))] * 2
    elif mode == "conflicting":
        headers += [("Content-Length", str(len(body))), ("Content-Length", str(len(body) + 7))]
    elif mode == "smaller":
        headers.append(("Content-Length", str(max(len(body) - draw(st.integers(1, 64)), 0))))
    elif mode == "larger":
        headers.append(("Content-Length", str(len(body) + draw(st.integers(1, 4096)))))
        hang_up = True  # a body cut short: the client is gone
    elif mode == "negative":
        headers.append(("Content-Length", "-5"))
    elif mode == "garbage":
        value = draw(header_text)
        headers.append(("Content-Length", value))
        declared = value.strip(" \t")
        # a plain number above the body's size: the server waits for the rest, so the client hangs up
        hang_up = declared.isascii() and declared.isdigit() and len(body) < int(declared) <= 4 * 1024 * 1024
    elif mode == "huge":
        headers.append(("Content-Length", str(draw(st.sampled_from([4 * 1024 * 1024 + 1, 2 ** 63, 10 ** 40])))))
    elif mode == "underscore":
        headers.append(("Content-Length", "1_0"))
    elif mode in ("chunked", "chunked+length"):
        chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body) if body else b"0\r\n\r\n"
        headers.append(("Transfer-Encoding", "chunked"))
        if mode == "chunked+length":
            headers.append(("Content-Length", str(len(chunked))))
        body = chunked
    if any(name == "Expect" for name, _ in headers) and version != "HTTP/1.1":
        headers = [(n, v) for n, v in headers if n != "Expect"]
    line = f"{method} {path} {version}".rstrip() if version else f"{method} {path}"
    head = line.encode("latin-1") + b"\r\n" + b"".join(
        f"{n}: {v}\r\n".encode("latin-1") for n, v in headers) + b"\r\n"
    return head + body, {"method": method, "mode": mode, "body": body, "hang_up": hang_up, "path": path,
                         "version": version}


@SETTINGS
@given(request=requests())
def test_any_request_gets_a_well_formed_answer(server, request):
    data, info = request
    reply = exchange(server, data, hang_up=info["hang_up"], head=info["method"] == "HEAD")
    if reply is not None and reply.status == 0:
        # the answer was lost because the server closed while the client still sent its body:
        # only where the server answers without reading the body
        body_read = info["method"] == "POST" and info["version"] in ("HTTP/1.1", "HTTP/1.0") \
            and len(info["path"]) < 60_000 and info["mode"] not in EARLY_REFUSALS
        assert not body_read
    elif reply is not None:
        assert reply.status == 200 or 400 <= reply.status < 500 or reply.status in PROTOCOL_ANSWERS, reply
        if reply.status == 200 and reply.headers.get("content-type") == "application/json":
            answer = json.loads(reply.body)
            assert answer["kind"] == "AdmissionReview"
            sent = _decoded(info["body"]) if info["mode"] in ("exact", "repeated") else None
            if readable_uid(sent):
                check_answer(answer, sent)
    still_serving(server)
    assert_clean_log(server)


def _decoded(body: bytes) -> Any:
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        return None


@pytest.mark.parametrize("data", [
    pytest.param(b"POST /validate HTTP/1.1\r\nContent-Length: %d\r\n\r\n%s" % (len(nested(10_000)),
                                                                              nested(10_000).encode()),
                 id="nested-10k-deep"),
    pytest.param(b"POST /validate\r\n\r\n", id="http-0.9"),
    pytest.param(b"POST /validate HTTP/2.0\r\nContent-Length: 0\r\n\r\n", id="http-2.0"),
    pytest.param(b"POST /validate HTTP/1.1\r\nContent-Length: 1_0\r\n\r\n{}", id="underscore-length"),
    pytest.param(b"POST /validate HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 7\r\n\r\n"
                 b"2\r\n{}\r\n0\r\n\r\n", id="chunked-with-length"),
])
def test_regressions_over_https(server, data):
    """Requests the property test above found (each was a traceback in the server log, an
    answer that was not HTTP, or a body read wrongly)."""
    reply = exchange(server, data)
    assert reply is not None and (400 <= reply.status < 500 or reply.status in PROTOCOL_ANSWERS)
    still_serving(server)
    assert_clean_log(server)


def test_a_request_line_without_version_gets_a_status_line(server):
    """Regression: http.server answered ``GET /healthz`` (HTTP/0.9) with a bare body."""
    reply = exchange(server, b"GET /healthz\r\n\r\n")
    assert reply is not None and (reply.status, reply.body) == (200, b"ok\n")


def test_clients_that_hang_up_or_speak_plain_http_leave_no_traceback(server):
    body = json.dumps(_review({"kind": "ConfigMap"})).encode()
    exchange(server, b"POST /validate HTTP/1.1\r\nContent-Length: %d\r\n\r\n%s" % (len(body) + 100, body),
             hang_up=True)
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as plain:
        plain.sendall(b"POST /validate HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}")
        with contextlib.suppress(OSError):
            plain.recv(100)
    time.sleep(0.5)  # the handler threads log after the client is gone
    still_serving(server)
    assert_clean_log(server)


def test_the_server_log_is_clean_at_the_end(server):
    time.sleep(0.5)
    still_serving(server)
    assert_clean_log(server)

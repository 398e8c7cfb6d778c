"""The admission webhook over real HTTPS on loopback: `preflight serve --admission` in a
subprocess, a certificate made with the openssl CLI, AdmissionReview v1 requests."""

from __future__ import annotations

import http.client
import json
import shutil
import ssl
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from preflight.gate.k8s import documents
from preflight.gate.webhook import WebhookConfig, review

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "gate" / "k8s"
pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="the openssl CLI makes the test certificate")


def _object(name: str) -> dict:
    text = (FIXTURES / name).read_text()
    return documents(text, name)[0][0]


def admission_review(obj: dict, operation: str = "CREATE", uid: str = "") -> dict:
    kind = obj["kind"]
    group, _, version = obj["apiVersion"].rpartition("/")
    return {
        "apiVersion": "admission.k8s.io/v1",
        "kind": "AdmissionReview",
        "request": {
            "uid": uid or str(uuid.uuid4()),
            "kind": {"group": group, "version": version, "kind": kind},
            "resource": {"group": group, "version": version, "resource": kind.lower() + "s"},
            "requestKind": {"group": group, "version": version, "kind": kind},
            "name": obj["metadata"]["name"],
            "namespace": obj["metadata"].get("namespace", "default"),
            "operation": operation,
            "userInfo": {"username": "alice@example.com", "groups": ["system:authenticated"]},
            "object": obj,
            "oldObject": None,
            "dryRun": False,
            "options": {"apiVersion": "meta.k8s.io/v1", "kind": "CreateOptions"},
        },
    }


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    d = tmp_path_factory.mktemp("tls")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(d / "key.pem"),
                    "-out", str(d / "cert.pem"), "-days", "1", "-subj", "/CN=preflight-gate.local",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                   check=True, capture_output=True)
    return d / "cert.pem", d / "key.pem"


@pytest.fixture(scope="module")
def server(certs):
    cert, key = certs
    proc = subprocess.Popen(
        [sys.executable, "-m", "preflight", "serve", "--admission", "--cert", str(cert), "--key", str(key),
         "--host", "127.0.0.1", "--port", "0", "--cluster", str(FIXTURES / "cluster.yaml"),
         "--root", str(FIXTURES), "--timeout", "20"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    if "https://" not in line:
        proc.kill()
        pytest.fail(f"the webhook did not start: {line}{proc.stderr.read()}")
    port = int(line.rsplit(":", 1)[1].split("/")[0])
    yield port, cert
    proc.terminate()
    proc.wait(timeout=10)


def post(server, body: bytes, path: str = "/validate") -> tuple[int, bytes]:
    port, cert = server
    context = ssl.create_default_context(cafile=str(cert))
    conn = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=60)
    try:
        conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def test_oom_pytorchjob_is_denied_with_reasons_and_uid(server):
    body = admission_review(_object("pytorchjob_oom.yaml"), uid="705a1b2c-0000-4000-8000-000000000001")
    status, raw = post(server, json.dumps(body).encode())
    assert status == 200
    answer = json.loads(raw)
    assert answer["apiVersion"] == "admission.k8s.io/v1" and answer["kind"] == "AdmissionReview"
    resp = answer["response"]
    assert resp["uid"] == "705a1b2c-0000-4000-8000-000000000001"
    assert resp["allowed"] is False
    assert resp["status"]["code"] == 403
    message = resp["status"]["message"]
    assert "PyTorchJob finetune-7b" in message and "PF705" in message and "Llama-2-7B" in message


def test_good_pytorchjob_is_allowed(server):
    body = admission_review(_object("pytorchjob_good.yaml"))
    status, raw = post(server, json.dumps(body).encode())
    resp = json.loads(raw)["response"]
    assert status == 200
    assert resp["uid"] == body["request"]["uid"]
    assert resp["allowed"] is True, resp
    assert "status" not in resp


def test_other_kinds_and_operations_pass_unread(server):
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "data": {}}
    resp = json.loads(post(server, json.dumps(admission_review(cm)).encode())[1])["response"]
    assert resp["allowed"] is True
    delete = admission_review(_object("pytorchjob_oom.yaml"), operation="DELETE")
    assert json.loads(post(server, json.dumps(delete).encode())[1])["response"]["allowed"] is True


def test_a_pod_owned_by_a_controller_is_not_gated_twice(server):
    pod = {"apiVersion": "v1", "kind": "Pod",
           "metadata": {"name": "finetune-7b-master-0", "ownerReferences": [
               {"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "name": "finetune-7b", "controller": True,
                "uid": "u"}]},
           "spec": _object("pytorchjob_oom.yaml")["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["spec"]}
    resp = json.loads(post(server, json.dumps(admission_review(pod)).encode())[1])["response"]
    assert resp["allowed"] is True


def test_bad_requests_get_http_errors(server):
    assert post(server, b"{not json")[0] == 400
    assert post(server, json.dumps({"kind": "AdmissionReview"}).encode())[0] == 400


def test_plain_http_is_refused(server):
    port, _ = server
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    with pytest.raises((ConnectionError, http.client.HTTPException, OSError)):
        conn.request("POST", "/validate", body=b"{}")
        conn.getresponse().read()
    conn.close()


def test_fail_closed_on_timeout_and_open_when_asked(monkeypatch):
    import threading

    from preflight.gate import webhook

    release = threading.Event()
    monkeypatch.setattr(webhook, "_gate", lambda *a: release.wait(30))  # a gate that hangs
    body = admission_review(_object("pytorchjob_good.yaml"))
    try:
        closed = review(body, WebhookConfig(timeout=0.05))["response"]
        opened = review(body, WebhookConfig(timeout=0.05, fail_open=True))["response"]
    finally:
        release.set()
    assert closed["uid"] == body["request"]["uid"]
    assert closed["allowed"] is False and closed["status"]["code"] == 500
    assert "did not answer within 0.05 s" in closed["status"]["message"]
    assert "fail-closed" in closed["status"]["message"]
    assert opened["allowed"] is True and "fail-open" in opened["warnings"][0]


def test_fail_closed_when_the_gate_crashes(monkeypatch):
    from preflight.gate import webhook

    def broken(*args):
        raise RuntimeError("boom")

    monkeypatch.setattr(webhook, "_gate", broken)
    resp = review(admission_review(_object("pytorchjob_good.yaml")), WebhookConfig())["response"]
    assert resp["allowed"] is False and "RuntimeError: boom" in resp["status"]["message"]


def test_unknown_gpu_is_denied_unless_allowed():
    body = admission_review(_object("pytorchjob_good.yaml"))
    denied = review(body, WebhookConfig(root=FIXTURES))["response"]  # no cluster file: GPU unknown
    assert denied["allowed"] is False and "PF704" in denied["status"]["message"]
    allowed = review(body, WebhookConfig(root=FIXTURES, allow_unknown=True))["response"]
    assert allowed["allowed"] is True and any("PF704" in w for w in allowed["warnings"])

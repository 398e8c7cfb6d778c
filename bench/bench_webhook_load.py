"""Load on `preflight serve --admission`: N concurrent AdmissionReviews whose check takes
longer than `--timeout`, and a client that trickles its request (docs/hardening.md, the gate
campaign). Prints the server's threads and peak RSS after the burst, and how long the slow
client held its connection. Everything on loopback; needs the openssl CLI.

    python bench/bench_webhook_load.py [--requests 16] [--lines 3000] [--trickle 40]
"""

from __future__ import annotations

import argparse
import http.client
import json
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

K8S = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "gate" / "k8s"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=16)
    ap.add_argument("--lines", type=int, default=3000, help="lines of the generated training script (check time)")
    ap.add_argument("--trickle", type=float, default=40, help="seconds the slow client trickles (0: skip)")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="pf-webhook-load-"))
    try:
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(work / "key.pem"),
                        "-out", str(work / "cert.pem"), "-days", "1", "-subj", "/CN=localhost",
                        "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
        for name in ("cluster.yaml", "pytorchjob_good.yaml"):
            shutil.copy(K8S / name, work / name)
        lines = ["import torch", "from transformers import AutoModelForCausalLM",
                 "model = AutoModelForCausalLM.from_pretrained('gpt2')"]
        for i in range(args.lines):
            lines.append(f"x{i} = torch.randn(4, 4) + {i}")
            if i % 3 == 0:
                lines.append(f"loss{i} = model(x{i}).loss")
        (work / "finetune_small.py").write_text("\n".join(lines) + "\n")
        sys.path.insert(0, str(K8S.parent.parent.parent))
        from test_webhook import _object, admission_review

        body = json.dumps(admission_review(_object("pytorchjob_good.yaml"))).encode()
        proc = subprocess.Popen([sys.executable, "-m", "preflight", "serve", "--admission", "--cert",
                                 str(work / "cert.pem"), "--key", str(work / "key.pem"), "--host", "127.0.0.1",
                                 "--port", "0", "--cluster", "cluster.yaml", "--root", ".", "--timeout", "0.5"],
                                cwd=work, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            port = int(proc.stdout.readline().rsplit(":", 1)[1].split("/")[0])
            ctx = ssl.create_default_context(cafile=str(work / "cert.pem"))

            def status(key: str) -> int:
                with open(f"/proc/{proc.pid}/status") as fh:
                    return int(next(line for line in fh if line.startswith(key)).split()[1])

            print(f"server: {status('VmRSS') // 1024} MB, {status('Threads')} thread(s) at start")
            answers: list[str] = []

            def one() -> None:
                conn = http.client.HTTPSConnection("127.0.0.1", port, context=ctx, timeout=60)
                conn.request("POST", "/", body=body)
                resp = json.loads(conn.getresponse().read())["response"]
                answers.append(resp.get("status", {}).get("message", "allowed")[:70])
                conn.close()

            threads = [threading.Thread(target=one) for _ in range(args.requests)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            peak_threads = peak_rss = 0
            for _ in range(20):
                peak_threads, peak_rss = max(peak_threads, status("Threads")), max(peak_rss, status("VmRSS"))
                time.sleep(0.5)
            for answer in sorted(set(answers)):
                print(f"  {answers.count(answer):3d} x {answer}")
            print(f"server after {args.requests} requests: peak {peak_rss // 1024} MB, {peak_threads} threads "
                  "over the next 10 s")
            if args.trickle:
                sock = ctx.wrap_socket(socket.create_connection(("127.0.0.1", port)), server_hostname="127.0.0.1")
                sock.sendall(b"POST / HTTP/1.1\r\nHost: x\r\n")
                start, held = time.monotonic(), None
                while time.monotonic() - start < args.trickle:
                    try:
                        sock.sendall(b"X")
                    except OSError:
                        held = time.monotonic() - start
                        break
                    time.sleep(2)
                print("slow client (a byte every 2 s): " +
                      (f"closed after {held:.1f} s" if held else f"still open after {args.trickle:.0f} s"))
        finally:
            proc.terminate()
            proc.wait(10)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

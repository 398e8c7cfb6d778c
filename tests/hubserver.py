"""A local stand-in for the Hugging Face Hub, for tests of ``preflight.hub`` and ``preflight fit``.

It serves what huggingface_hub's real client asks for (point ``HF_ENDPOINT`` at ``.url``):

- ``HEAD/GET /{repo}/resolve/{revision}/{file}``: the headers ``hf_hub_download`` and
  ``get_hf_file_metadata`` check (``X-Repo-Commit``, ``ETag``, ``Content-Length``), byte ranges
  (``get_safetensors_metadata`` reads the first 100 kB of each safetensors file), and the Hub's
  error convention (``X-Error-Code``: ``RepoNotFound``, ``GatedRepo``, ``RevisionNotFound``,
  ``EntryNotFound`` with 401/403/404). Safetensors files, like the Hub's LFS files, answer
  302 to a storage host (``http://localhost:{port}/cdn/...``, a different host name to the
  client) with ``X-Linked-Etag`` and ``X-Linked-Size`` on the redirect.
- ``GET /api/models/{repo}[/revision/{rev}]``: a minimal ``model_info`` answer.

Safetensors files are virtual: a real header (8-byte little-endian length + JSON, as the
format defines) followed by zero bytes up to the size the header's offsets declare, never
held in memory. Private and gated repositories accept one token (``Bearer <token>``).

Run as a script, it executes ``preflight``'s CLI after refusing every socket connection to
anything but 127.0.0.1 (``python tests/hubserver.py fit MODEL ...``); attempts are appended to
the file named by ``HUBSERVER_BLOCKED_LOG``.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import struct
import sys
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Dict, List, Mapping, Optional, Sequence, Tuple, Union
from urllib.parse import unquote, urlsplit

_DTYPE_BYTES = {"F64": 8, "I64": 8, "F32": 4, "I32": 4, "U32": 4, "F16": 2, "BF16": 2, "I16": 2,
                "F8_E4M3": 1, "F8_E5M2": 1, "I8": 1, "U8": 1, "BOOL": 1}

TensorSpec = Mapping[str, Tuple[str, Sequence[int]]]   # name -> (dtype, shape)


def safetensors_header(tensors: TensorSpec, metadata: Optional[Mapping[str, str]] = None) -> Tuple[bytes, int]:
    """(the bytes before the tensor data, the whole file's size) of a safetensors file."""
    header: dict = {"__metadata__": dict(metadata or {"format": "pt"})}
    offset = 0
    for name, (dtype, shape) in tensors.items():
        n = 1
        for d in shape:
            n *= int(d)
        size = n * _DTYPE_BYTES[dtype]
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + size]}
        offset += size
    raw = json.dumps(header, separators=(",", ":")).encode()
    raw += b" " * (-len(raw) % 8)  # safetensors pads the header to 8 bytes
    prefix = struct.pack("<Q", len(raw)) + raw
    return prefix, len(prefix) + offset


@dataclass
class VirtualFile:
    """``prefix`` followed by zeros up to ``size`` bytes."""

    prefix: bytes
    size: int

    def read(self, start: int, end: int) -> bytes:  # [start, end)
        end = min(end, self.size)
        head = self.prefix[start:end] if start < len(self.prefix) else b""
        return head + b"\0" * max(0, end - start - len(head))


FileBody = Union[bytes, VirtualFile]


@dataclass
class Repo:
    repo_id: str
    revisions: Dict[str, Dict[str, FileBody]] = field(default_factory=dict)   # commit -> files
    refs: Dict[str, str] = field(default_factory=dict)                         # branch/tag -> commit
    private: bool = False
    gated: bool = False


def _etag(commit: str, filename: str) -> str:
    return hashlib.sha256(f"{commit}/{filename}".encode()).hexdigest()


def _commit_for(repo_id: str, n: int) -> str:
    return hashlib.sha1(f"{repo_id}@{n}".encode()).hexdigest()


class HubServer:
    """``with HubServer() as hub: hub.add_model(...); os.environ["HF_ENDPOINT"] = hub.url``."""

    def __init__(self, token: str = "hf_test_reader") -> None:
        self.token = token
        self.repos: Dict[str, Repo] = {}
        self.requests: List[Tuple[str, str, bool]] = []   # (method, path, had Authorization)
        self._lock = threading.Lock()
        server = self

        class Handler(_Handler):
            hub = server

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> HubServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> HubServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def add_model(
        self,
        repo_id: str,
        config: Optional[Mapping] = None,
        *,
        tensors: Optional[TensorSpec] = None,
        shards: Optional[Sequence[TensorSpec]] = None,
        files: Optional[Mapping[str, FileBody]] = None,
        revision: str = "main",
        private: bool = False,
        gated: bool = False,
    ) -> str:
        """Publish a new commit of ``repo_id`` (moving ``revision`` to it); returns the commit hash.

        ``tensors``: one ``model.safetensors``; ``shards``: ``model-0000i-of-0000n.safetensors``
        plus ``model.safetensors.index.json``.
        """
        body: Dict[str, FileBody] = {}
        if config is not None:
            body["config.json"] = json.dumps(config, indent=2).encode()
        if tensors is not None:
            body["model.safetensors"] = VirtualFile(*safetensors_header(tensors))
        if shards:
            weight_map: Dict[str, str] = {}
            total = 0
            for i, shard in enumerate(shards, 1):
                name = f"model-{i:05d}-of-{len(shards):05d}.safetensors"
                prefix, size = safetensors_header(shard)
                body[name] = VirtualFile(prefix, size)
                total += size - len(prefix)
                weight_map.update({t: name for t in shard})
            index = {"metadata": {"total_size": total}, "weight_map": weight_map}
            body["model.safetensors.index.json"] = json.dumps(index, indent=2).encode()
        body.update(files or {})
        with self._lock:
            repo = self.repos.setdefault(repo_id, Repo(repo_id))
            repo.private, repo.gated = private, gated
            commit = _commit_for(repo_id, len(repo.revisions) + 1)
            repo.revisions[commit] = body
            repo.refs[revision] = commit
        return commit


class _Handler(BaseHTTPRequestHandler):
    hub: HubServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        return

    def do_HEAD(self) -> None:
        self._serve(head=True)

    def do_GET(self) -> None:
        self._serve(head=False)

    # -- routing

    def _serve(self, *, head: bool) -> None:
        path = urlsplit(self.path).path
        auth = self.headers.get("Authorization")
        with self.hub._lock:
            self.hub.requests.append((self.command, path, auth is not None))
        parts = [unquote(p) for p in path.strip("/").split("/")]
        if parts == ["api", "agent-harnesses"]:  # huggingface_hub >= 2 asks for it once a day
            return self._json({"standardEnvVars": [], "harnesses": {}}, head=head)
        if parts[:2] == ["api", "models"]:
            return self._model_info(parts[2:], head=head)
        if parts[:1] == ["cdn"] and len(parts) > 3:  # /cdn/{commit}/{repo...}/{file}: LFS storage
            return self._cdn(parts[1], parts[2:], head=head)
        if "resolve" in parts:
            i = parts.index("resolve")
            if 1 <= i <= 2 and len(parts) > i + 2:
                return self._resolve("/".join(parts[:i]), parts[i + 1], "/".join(parts[i + 2:]), head=head)
        self._error(404, "", "Not Found", head=head)

    def _access(self, repo_id: str, head: bool) -> Optional[Repo]:
        """The repo if this request may read it; else the error is sent and None returned."""
        auth = self.headers.get("Authorization")
        authorised = auth == f"Bearer {self.hub.token}"
        repo = self.hub.repos.get(repo_id)
        if repo is None or (repo.private and not authorised):
            # As the Hub does: a missing or private repo looks the same (401 without a token).
            status = 404 if auth else 401
            self._error(status, "RepoNotFound", "Repository not found", head=head)
            return None
        if repo.gated and not authorised:
            status = 403 if auth else 401
            self._error(status, "GatedRepo", f"Access to model {repo_id} is restricted.", head=head)
            return None
        return repo

    def _commit(self, repo: Repo, revision: str, head: bool) -> Optional[str]:
        commit = repo.refs.get(revision) or (revision if revision in repo.revisions else None)
        if commit is None:
            self._error(404, "RevisionNotFound", "Invalid rev id", head=head)
        return commit

    def _resolve(self, repo_id: str, revision: str, filename: str, *, head: bool) -> None:
        repo = self._access(repo_id, head)
        if repo is None:
            return
        commit = self._commit(repo, revision, head)
        if commit is None:
            return
        body = repo.revisions[commit].get(filename)
        if body is None:
            self._error(404, "EntryNotFound", "Entry not found", head=head, commit=commit)
            return
        if isinstance(body, VirtualFile):
            # Large (LFS) files: the Hub answers 302 to its storage host, with the file's metadata
            # on the redirect. "localhost" is another host name than "127.0.0.1" to the client,
            # so it behaves as with a real CDN (no Authorization header forwarded).
            port = self.hub._httpd.server_address[1]
            self.send_response(302)
            self.send_header("Location", f"http://localhost:{port}/cdn/{commit}/{repo_id}/{filename}")
            self.send_header("X-Repo-Commit", commit)
            self.send_header("X-Linked-Etag", f'"{_etag(commit, filename)}"')
            self.send_header("X-Linked-Size", str(body.size))
            self.send_header("ETag", f'"{_etag(commit, filename + ".pointer")[:40]}"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self._send_file(body, commit, filename, head=head)

    def _cdn(self, commit: str, rest: List[str], *, head: bool) -> None:
        repo = self.hub.repos.get("/".join(rest[:-1]))
        body = repo.revisions.get(commit, {}).get(rest[-1]) if repo is not None else None
        if body is None:
            self._error(404, "", "Not Found", head=head)
            return
        self._send_file(body, commit, rest[-1], head=head)

    def _send_file(self, body: FileBody, commit: str, filename: str, *, head: bool) -> None:
        size = body.size if isinstance(body, VirtualFile) else len(body)
        etag = _etag(commit, filename)
        start, end, status = 0, size, 200
        rng = self.headers.get("Range")
        if rng and rng.startswith("bytes=") and not head:
            first, _, last = rng[len("bytes="):].partition("-")
            start = int(first or 0)
            end = min(size, int(last) + 1) if last else size
            status = 206
        data = b"" if head else (body.read(start, end) if isinstance(body, VirtualFile) else body[start:end])
        self.send_response(status)
        self.send_header("X-Repo-Commit", commit)
        self.send_header("ETag", f'"{etag}"')
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Content-Type", "application/octet-stream")
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{end - 1}/{size}")
        self.send_header("Content-Length", str(size if head else len(data)))
        self.end_headers()
        if not head:
            self.wfile.write(data)

    def _model_info(self, parts: List[str], *, head: bool) -> None:
        revision = "main"
        if "revision" in parts:
            i = parts.index("revision")
            parts, revision = parts[:i], "/".join(parts[i + 1:])
        repo = self._access("/".join(parts), head)
        if repo is None:
            return
        commit = self._commit(repo, revision, head)
        if commit is None:
            return
        files = repo.revisions[commit]
        info = {
            "id": repo.repo_id, "modelId": repo.repo_id, "sha": commit, "private": repo.private,
            "gated": "auto" if repo.gated else False,
            "siblings": [{"rfilename": name} for name in sorted(files)],
        }
        self._json(info, head=head)

    def _json(self, payload: object, *, head: bool) -> None:
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if not head:
            self.wfile.write(data)

    def _error(self, status: int, code: str, message: str, *, head: bool, commit: str = "") -> None:
        data = json.dumps({"error": message}).encode()
        self.send_response(status)
        if code:
            self.send_header("X-Error-Code", code)
        self.send_header("X-Error-Message", message)
        if commit:
            self.send_header("X-Repo-Commit", commit)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if not head:
            self.wfile.write(data)


# --------------------------------------------------------------------------- socket guard

_LOCAL = ("127.0.0.1", "::1", "localhost")


def block_non_local_sockets(log_path: Optional[str] = None) -> None:
    """Refuse (and log) every connection and name lookup that is not for the local machine."""

    def refuse(what: str) -> OSError:
        if log_path:
            with open(log_path, "a", encoding="utf-8") as fh:
                fh.write(what + "\n")
        return OSError(f"hubserver test guard: no network outside 127.0.0.1 ({what})")

    original_connect = socket.socket.connect
    original_connect_ex = socket.socket.connect_ex
    original_getaddrinfo = socket.getaddrinfo

    def allowed(address: object) -> bool:
        if isinstance(address, (str, bytes)):  # AF_UNIX
            return True
        host = address[0] if isinstance(address, tuple) and address else None
        return host in _LOCAL

    def connect(self: socket.socket, address: object) -> None:
        if not allowed(address):
            raise refuse(f"connect {address!r}")
        return original_connect(self, address)  # type: ignore[arg-type]

    def connect_ex(self: socket.socket, address: object) -> int:
        if not allowed(address):
            raise refuse(f"connect {address!r}")
        return original_connect_ex(self, address)  # type: ignore[arg-type]

    def getaddrinfo(host: object, *args: object, **kwargs: object) -> list:
        name = host.decode() if isinstance(host, bytes) else host
        if name not in _LOCAL and name is not None:
            raise refuse(f"getaddrinfo {name!r}")
        return original_getaddrinfo(host, *args, **kwargs)  # type: ignore[arg-type]

    socket.socket.connect = connect  # type: ignore[method-assign,assignment]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign,assignment]
    socket.getaddrinfo = getaddrinfo  # type: ignore[assignment]


def _resolve(argv: Sequence[str]) -> int:
    """``--resolve [--revision R] MODEL...``: one JSON line per model from preflight.hub."""
    from preflight import hub

    args = list(argv)
    revision = None
    if args[:1] == ["--revision"]:
        revision, args = args[1], args[2:]
    for model_id in args:
        try:
            arch = hub.resolve_architecture(model_id, revision=revision, timeout=5.0)
        except hub.HubError as exc:
            line = {"model": model_id, "error": type(exc).__name__, "exit_code": exc.exit_code,
                    "message": exc.message}
        else:
            info = dict(arch.extra.get("hub", {}))
            line = {"model": model_id, "family": arch.family, "model_type": arch.model_type,
                    "params_total": arch.params_total, "params_active": arch.params_active,
                    "params_source": arch.params_source, "hidden_size": arch.hidden_size,
                    "num_layers": arch.num_layers, "sliding_window": arch.sliding_window,
                    "tie_embeddings": arch.tie_embeddings, **info}
        print(json.dumps(line, sort_keys=True))
    return 0


def _cli_batch(spec: str) -> int:
    """``--cli-batch JSON``: run several preflight command lines in this one process (same
    environment) and print ``[{"code", "out", "err"}, ...]`` as JSON."""
    import contextlib
    import io

    from preflight.cli import main as cli_main

    results = []
    for argv in json.loads(spec):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli_main(list(argv))
        results.append({"code": code, "out": out.getvalue(), "err": err.getvalue()})
    print(json.dumps(results))
    return 0


def main(argv: Sequence[str]) -> int:
    """Run ``preflight`` with ``argv`` (or ``--resolve ...``, ``--cli-batch ...``) after
    installing the socket guard."""
    block_non_local_sockets(os.environ.get("HUBSERVER_BLOCKED_LOG"))
    if argv[:1] == ["--resolve"]:
        return _resolve(argv[1:])
    if argv[:1] == ["--cli-batch"]:
        return _cli_batch(argv[1])
    from preflight.cli import main as cli_main

    return cli_main(list(argv))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

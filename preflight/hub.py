"""Architecture numbers of a Hugging Face Hub model, read as data through ``huggingface_hub``.

Two files are read, never executed: the repository's ``config.json`` (downloaded into the
huggingface_hub cache by ``hf_hub_download``) and the headers of its safetensors files
(``get_safetensors_metadata``: names, dtypes and shapes of every tensor, sharded or not),
which give the exact parameter count (:mod:`preflight.safetensors_summary` counts them). The
safetensors summary is kept beside the Hub cache (``cached_assets_path("preflight", ...)``,
keyed by commit) so that a warm cache answers with no network at all, with
``HF_HUB_OFFLINE=1`` or with the network down.

Network discipline: the cache is read first; the Hub is asked only when the cache lacks the
revision (or ``refresh=True``), with one attempt and a timeout, so an unreachable host fails in
seconds instead of retrying. Tokens are never read here: ``huggingface_hub`` finds them
(``HF_TOKEN``, ``hf auth login``) and sends them; no message printed here contains one.
``trust_remote_code`` does not exist here: a remote-code architecture is only its JSON.

Errors are :class:`HubError` subclasses with a one-line user message and an exit code
(2 for a malformed model id, 3 when the model could not be read).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Optional, Tuple

from preflight.safetensors_summary import (
    HeaderMismatch,
    WeightsSummary,
    quantization_of,
    summarize_tensors,
)
from preflight.sources import read_text_limited

if TYPE_CHECKING:
    from preflight.estimate.arch import Architecture

EXIT_USAGE = 2
EXIT_INPUT = 3

CONFIG_FILE = "config.json"
_ASSETS_LIBRARY = "preflight"
_SUMMARY_FILE = "safetensors-summary.json"
_SUMMARY_VERSION = 1
_COMMIT_RE = re.compile(r"^[0-9a-f]{40}$")


# --------------------------------------------------------------------------- errors


class HubError(Exception):
    """A model could not be read from the Hub or its cache; ``message`` is for the user."""

    exit_code = EXIT_INPUT

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidModelIdError(HubError):
    """The text given is not a Hub repository id (exit 2: a usage error)."""

    exit_code = EXIT_USAGE


class RepoNotFoundError(HubError):
    """No such model, or a private one the current token (if any) cannot see."""


class GatedRepoError(HubError):
    """A gated model whose terms the current account has not accepted (or no token at all)."""


class RevisionNotFoundError(HubError):
    """The repository exists but not the branch, tag or commit asked for."""


class HubUnreachableError(HubError):
    """The Hub could not be reached (network, timeout, HTTP 5xx) and the cache lacks the model."""


class NotInCacheError(HubError):
    """Offline (``HF_HUB_OFFLINE=1`` or ``online=False``) and the model is not in the cache."""


class ConfigError(HubError):
    """The repository has no readable ``config.json``, or the config describes nothing we know."""


# --------------------------------------------------------------------------- model lookup


@dataclass(frozen=True)
class HubModel:
    """One revision of a Hub model as read: its config and (when it has them) safetensors."""

    repo_id: str
    revision: str                        # as asked ("main" by default)
    commit: str                          # the commit the files come from
    config: Mapping[str, Any]
    weights: Optional[WeightsSummary]
    weights_note: str = ""               # why ``weights`` is None, if it is
    from_cache: bool = False
    endpoint: str = "https://huggingface.co"
    notes: Tuple[str, ...] = field(default_factory=tuple)

    @property
    def config_url(self) -> str:
        return f"{self.endpoint}/{self.repo_id}/blob/{self.commit}/{CONFIG_FILE}"


# The Hub's rule for repository ids, as huggingface_hub's ``validate_repo_id`` checks it (kept
# here so that a cached answer does not pay for importing huggingface_hub's HTTP stack).
_REPO_ID_RE = re.compile(r"(\b[\w\-.]{1,96}\b/)?\b[\w\-.]{1,96}\b", re.ASCII)


def validate_model_id(model_id: str) -> str:
    """The repository id, stripped; :class:`InvalidModelIdError` if it cannot be one."""
    text = (model_id or "").strip()
    for prefix in ("https://huggingface.co/", "http://huggingface.co/", "hf://"):
        if text.startswith(prefix):
            text = text[len(prefix):].strip("/")
    problem = ""
    if not text:
        problem = "it is empty"
    elif text.count("/") > 1:
        problem = "a model id has at most one '/' (organisation/name)"
    elif not _REPO_ID_RE.fullmatch(text) or "--" in text or ".." in text:
        problem = ("use letters, digits, '-', '_' and '.', at most 96 characters per part, "
                   "no '--' or '..', not starting or ending with '-' or '.'")
    if problem:
        raise InvalidModelIdError(f"'{model_id}' is not a Hugging Face model id: {problem}")
    return text


def fetch_model(
    model_id: str,
    *,
    revision: Optional[str] = None,
    online: bool = True,
    timeout: float = 10.0,
    refresh: bool = False,
) -> HubModel:
    """Read ``model_id`` at ``revision`` from the huggingface_hub cache, else from the Hub.

    ``online=False`` or ``HF_HUB_OFFLINE=1``: the cache only. ``refresh=True``: ask the Hub
    even when the cache has the revision (a branch may have moved).
    """
    repo_id = validate_model_id(model_id)
    from huggingface_hub import constants

    rev = revision or constants.DEFAULT_REVISION
    offline = (not online) or _offline_env()
    endpoint = constants.ENDPOINT
    cached = None if (refresh and not offline) else _from_cache(repo_id, rev, endpoint)
    if cached is not None and (cached.weights is not None or cached.weights_note == _NO_SAFETENSORS or offline):
        return cached
    if offline:
        why = "HF_HUB_OFFLINE is set" if _offline_env() else "network access was not allowed (offline)"
        raise NotInCacheError(
            f"{repo_id}@{rev} is not in the Hugging Face cache ({constants.HF_HUB_CACHE}) and {why}; "
            f"run once with network access to cache it"
        )
    try:
        return _from_hub(repo_id, rev, endpoint, timeout)
    except HubUnreachableError:
        if cached is None:
            raise
        # The config is cached but not the safetensors summary: answer with the formula count.
        return replace(cached, weights_note=cached.weights_note + f" ({endpoint} unreachable)")


def resolve_architecture(
    model_id: str,
    *,
    revision: Optional[str] = None,
    online: bool = True,
    timeout: float = 10.0,
    refresh: bool = False,
) -> Architecture:
    """The :class:`~preflight.estimate.arch.Architecture` of a Hub model (see :func:`fetch_model`).

    Counts come from the safetensors headers when the repository has them
    (``params_source="safetensors"``), else from the config formula.
    """
    return architecture_of(fetch_model(model_id, revision=revision, online=online,
                                       timeout=timeout, refresh=refresh))


def architecture_of(model: HubModel) -> Architecture:
    """Build the Architecture from a :class:`HubModel`; exact counts when safetensors exist."""
    from preflight.estimate.arch import ArchitectureError, from_hf_config
    from preflight.estimate.params import count_params

    try:
        arch = from_hf_config(model.config, name=model.repo_id, source=model.config_url)
    except ArchitectureError as exc:
        raise ConfigError(f"{model.repo_id}: cannot read its config.json: {exc}") from None
    except (ArithmeticError, TypeError, ValueError, KeyError, AttributeError) as exc:
        # A config with numbers the reader did not expect (zero patch size, wrong types).
        raise ConfigError(f"{model.repo_id}: cannot read its config.json "
                          f"({type(exc).__name__}: {exc})") from None
    quant = quantization_of(model.config)
    hub_extra: dict = {
        "repo_id": model.repo_id,
        "revision": model.revision,
        "commit": model.commit,
        "from_cache": model.from_cache,
    }
    if quant:
        hub_extra["quantization"] = quant
    if model.config.get("auto_map"):
        hub_extra["remote_code"] = "read as JSON only; its code was not run"
    if model.weights is not None:
        hub_extra["weights"] = model.weights.to_json()
    elif model.weights_note:
        hub_extra["weights_note"] = model.weights_note
    extra = dict(arch.extra)
    extra["hub"] = hub_extra
    if model.weights is None or model.weights.params_total <= 0:
        if not arch.params_total:
            counted = count_params(arch)
            return replace(arch, params_total=counted.total, params_active=counted.active,
                           params_source="formula", extra=extra)
        return replace(arch, extra=extra)
    total = model.weights.params_total
    active = total
    if arch.num_experts and arch.experts_per_token:
        routed = model.weights.routed_expert_params
        if routed:
            active = total - routed + round(routed * arch.experts_per_token / arch.num_experts)
        elif arch.params_total:
            # Experts stored under names we do not recognise (fused tensors): the formula's ratio.
            active = round(total * arch.params_active / arch.params_total)
    return replace(arch, params_total=total, params_active=active, params_source="safetensors",
                   extra=extra)


# --------------------------------------------------------------------------- cache and Hub access

_NO_SAFETENSORS = "the repository has no safetensors weights; the count comes from config.json"


def _summary_path(repo_id: str, commit: str, *, create: bool) -> Optional[Path]:
    from huggingface_hub import constants

    # The same folder cached_assets_path() creates (it resolves the path the same way).
    base = Path(constants.HF_ASSETS_CACHE).expanduser().resolve()
    folder = base / _ASSETS_LIBRARY / repo_id.replace("/", "--") / commit
    if create:
        try:
            from huggingface_hub import cached_assets_path

            folder = cached_assets_path(_ASSETS_LIBRARY, namespace=repo_id, subfolder=commit)
        except (OSError, ValueError):
            return None
    return folder / _SUMMARY_FILE


def _read_summary(repo_id: str, commit: str) -> Tuple[Optional[WeightsSummary], str, bool]:
    """(summary, note, found) for a cached commit."""
    path = _summary_path(repo_id, commit, create=False)
    if path is None or not path.is_file():
        return None, "", False
    try:
        data = json.loads(read_text_limited(path))
        if data.get("version") != _SUMMARY_VERSION:
            return None, "", False
        if data.get("format") == "none":
            return None, _NO_SAFETENSORS, True
        return WeightsSummary.from_json(data["summary"]), "", True
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None, "", False


def _write_summary(repo_id: str, commit: str, summary: Optional[WeightsSummary]) -> None:
    path = _summary_path(repo_id, commit, create=True)
    if path is None:
        return
    data: dict = {"version": _SUMMARY_VERSION}
    if summary is None:
        data["format"] = "none"
    else:
        data["format"] = "safetensors"
        data["summary"] = summary.to_json()
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass  # a read-only cache only costs the next run a few requests


def _load_config(path: str, repo_id: str) -> Mapping[str, Any]:
    try:
        config = json.loads(read_text_limited(path))
    except (OSError, ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise ConfigError(f"{repo_id}: config.json is not readable JSON ({type(exc).__name__}: {exc})") from None
    if not isinstance(config, dict):
        raise ConfigError(f"{repo_id}: config.json is not a JSON object")
    return config


def _cached_config(repo_id: str, rev: str) -> Optional[Tuple[Path, str]]:
    """(path of config.json, commit) in the huggingface_hub cache, else None.

    Follows the cache layout huggingface_hub documents and ``try_to_load_from_cache`` reads:
    ``models--{org}--{name}/refs/{revision}`` holds the commit of a branch or tag, and
    ``snapshots/{commit}/config.json`` the file.
    """
    from huggingface_hub import constants

    folder = Path(constants.HF_HUB_CACHE) / "--".join(["models", *repo_id.split("/")])
    commit = rev
    ref = folder / "refs" / rev
    try:
        if ref.is_file():
            commit = read_text_limited(ref, 4096, errors="replace").strip()
    except OSError:
        return None
    if not _COMMIT_RE.match(commit):
        return None
    path = folder / "snapshots" / commit / CONFIG_FILE
    return (path, commit) if path.is_file() else None


def _from_cache(repo_id: str, rev: str, endpoint: str) -> Optional[HubModel]:
    found = _cached_config(repo_id, rev)
    if found is None:
        return None
    path, commit = found
    config = _load_config(str(path), repo_id)
    summary, note, known = _read_summary(repo_id, commit)
    if not known:
        summary = _local_safetensors(path.parent, config)
        if summary is not None:
            _write_summary(repo_id, commit, summary)
        else:
            note = "safetensors metadata not in the cache; the count comes from config.json"
    return HubModel(repo_id=repo_id, revision=rev, commit=commit, config=config, weights=summary,
                    weights_note=note, from_cache=True, endpoint=endpoint)


def _read_header(path: Path) -> Optional[Mapping[str, Any]]:
    """The JSON header of a local safetensors file (8-byte little-endian length, then JSON)."""
    import os
    import stat
    import struct

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # a FIFO would block, a device never end
            os.close(fd)
            return None
        with os.fdopen(fd, "rb") as fh:
            head = fh.read(8)
            if len(head) < 8:
                return None
            (size,) = struct.unpack("<Q", head)
            if size > 100_000_000:
                return None
            data = json.loads(fh.read(size).decode("utf-8", errors="replace"))
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _local_safetensors(snapshot: Path, config: Mapping[str, Any]) -> Optional[WeightsSummary]:
    """Summarise the safetensors files of a snapshot the cache already holds in full (a model
    downloaded before, e.g. by transformers), reading only their headers; None if any is missing."""
    index = snapshot / "model.safetensors.index.json"
    files: list = []
    if index.is_file():
        try:
            weight_map = json.loads(read_text_limited(index)).get("weight_map", {})
            files = sorted(set(weight_map.values()))
        except (OSError, ValueError, AttributeError, RecursionError):
            return None
    elif (snapshot / "model.safetensors").is_file():
        files = ["model.safetensors"]
    if not files:
        return None
    triples = []
    for name in files:
        header = _read_header(snapshot / name)
        if header is None:
            return None
        for tensor, info in header.items():
            if tensor == "__metadata__" or not isinstance(info, Mapping):
                continue
            triples.append((tensor, str(info.get("dtype", "")), info.get("shape") or []))
    try:
        return summarize_tensors(triples, quantization_of(config), files=len(files))
    except HeaderMismatch:
        return None  # the Hub path reads them again and says why they are not used


def _from_hub(repo_id: str, rev: str, endpoint: str, timeout: float) -> HubModel:
    from huggingface_hub import (
        get_hf_file_metadata,
        get_safetensors_metadata,
        hf_hub_download,
        hf_hub_url,
    )
    from huggingface_hub.utils import (
        are_progress_bars_disabled,
        disable_progress_bars,
        enable_progress_bars,
    )

    bars_were_off = are_progress_bars_disabled()
    disable_progress_bars()
    try:
        # One attempt with our timeout first: hf_hub_download alone retries an unreachable host
        # with backoff for about half a minute before giving up.
        with _hub_errors(repo_id, rev, endpoint):
            meta = get_hf_file_metadata(hf_hub_url(repo_id, CONFIG_FILE, revision=rev), timeout=timeout)
            path = hf_hub_download(repo_id, CONFIG_FILE, revision=rev, etag_timeout=timeout)
        commit = meta.commit_hash or Path(path).parent.name
        config = _load_config(path, repo_id)
        summary: Optional[WeightsSummary] = None
        note = ""
        try:
            with _hub_errors(repo_id, rev, endpoint):
                st = get_safetensors_metadata(repo_id, revision=commit, **_timeout_kw(get_safetensors_metadata, timeout))
        except _hf_error("NotASafetensorsRepoError"):
            note = _NO_SAFETENSORS
            _write_summary(repo_id, commit, None)
        except _hf_error("SafetensorsParsingError"):
            note = "the safetensors headers could not be parsed; the count comes from config.json"
        except HubError as exc:
            note = f"safetensors metadata not read ({exc.message}); the count comes from config.json"
        else:
            triples = ((name, info.dtype, info.shape)
                       for fm in st.files_metadata.values() for name, info in fm.tensors.items())
            try:
                summary = summarize_tensors(triples, quantization_of(config), files=len(st.files_metadata))
            except HeaderMismatch as exc:
                note = f"the safetensors headers do not add up ({exc}); the count comes from config.json"
            else:
                _write_summary(repo_id, commit, summary)
    finally:
        if not bars_were_off:
            enable_progress_bars()
    return HubModel(repo_id=repo_id, revision=rev, commit=commit, config=config, weights=summary,
                    weights_note=note, from_cache=False, endpoint=endpoint)


def _offline_env() -> bool:
    from huggingface_hub import constants

    return bool(getattr(constants, "HF_HUB_OFFLINE", False))


def _timeout_kw(func: Any, timeout: float) -> dict:
    """``{"timeout": timeout}`` if ``func`` takes one (huggingface_hub >= 0.26 does)."""
    import inspect

    try:
        return {"timeout": timeout} if "timeout" in inspect.signature(func).parameters else {}
    except (TypeError, ValueError):
        return {}


class _hub_errors:
    """Translate huggingface_hub / httpx errors into :class:`HubError` with our own messages.

    The library's messages are not reused: they are long, and ours must never carry a token.
    """

    def __init__(self, repo_id: str, rev: str, endpoint: str) -> None:
        self.repo_id, self.rev, self.endpoint = repo_id, rev, endpoint

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: Any, exc: Optional[BaseException], tb: Any) -> None:
        if exc is None or isinstance(exc, HubError):
            return
        mapped = _map_error(exc, self.repo_id, self.rev, self.endpoint)
        if mapped is not None:
            raise mapped from None


def _hf_error(name: str) -> tuple:
    """The huggingface_hub exception class ``name`` as a 1-tuple, () if this version lacks it."""
    import importlib

    hf_utils: Any = importlib.import_module("huggingface_hub.utils")
    try:
        hf_errors: Any = importlib.import_module("huggingface_hub.errors")
    except ImportError:  # huggingface_hub < 0.24 keeps them in utils
        hf_errors = hf_utils
    cls = getattr(hf_errors, name, None) or getattr(hf_utils, name, None)
    return (cls,) if isinstance(cls, type) else ()


def _transport_errors() -> tuple:
    """Network failures of whichever HTTP client this huggingface_hub uses."""
    found: list = [ConnectionError, TimeoutError]
    for module, attr in (("httpx2", "TransportError"), ("httpx", "TransportError"),
                         ("requests", "RequestException")):
        try:
            found.append(getattr(__import__(module), attr))
        except (ImportError, AttributeError):
            continue
    return tuple(found)


def _map_error(exc: BaseException, repo_id: str, rev: str, endpoint: str) -> Optional[HubError]:
    login = "log in with `hf auth login` or set HF_TOKEN"
    if isinstance(exc, _hf_error("GatedRepoError")):
        return GatedRepoError(
            f"{repo_id} is gated: accept its terms at {endpoint}/{repo_id} with your account, then {login}"
        )
    if isinstance(exc, _hf_error("RepositoryNotFoundError")):
        return RepoNotFoundError(
            f"{repo_id}: no such model on {endpoint} (if it is private, {login} with a token that can read it)"
        )
    if isinstance(exc, _hf_error("RevisionNotFoundError")):
        return RevisionNotFoundError(f"{repo_id}: revision '{rev}' does not exist (a branch, tag or commit hash)")
    if isinstance(exc, _hf_error("RemoteEntryNotFoundError") + _hf_error("EntryNotFoundError")):
        return ConfigError(f"{repo_id}@{rev} has no config.json: not a transformers model repository")
    if isinstance(exc, _hf_error("HfHubHTTPError")):
        status = exc.response.status_code if exc.response is not None else "?"
        if status == 401:
            return RepoNotFoundError(f"{repo_id}: the Hub refused the credentials (HTTP 401); {login} again")
        return HubUnreachableError(f"{repo_id}: {endpoint} answered HTTP {status}; try again later")
    if isinstance(exc, _hf_error("OfflineModeIsEnabled")):
        return NotInCacheError(f"{repo_id}@{rev} is not in the Hugging Face cache and HF_HUB_OFFLINE is set")
    if isinstance(exc, _hf_error("LocalEntryNotFoundError") + _hf_error("FileMetadataError")):
        return HubUnreachableError(f"{repo_id}: could not read it from {endpoint} and it is not in the cache")
    if isinstance(exc, _transport_errors()):
        kind = "timed out" if "Timeout" in type(exc).__name__ else "connection failed"
        return HubUnreachableError(
            f"{repo_id}: cannot reach {endpoint} ({kind}) and the model is not in the cache; "
            f"check the network or set HF_ENDPOINT"
        )
    return None

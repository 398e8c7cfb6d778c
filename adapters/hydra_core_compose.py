"""Composing with hydra-core, confined to the config directory.

hydra-core is used when it is importable (the ``hydra`` extra) and composing with it would
not import project code (see :func:`local_plugin_dirs`, :func:`searchpath_packages`). While
preflight calls it, its ``file://`` and ``pkg://`` config sources are replaced by confined
ones, so it cannot read a file outside the config directory; a read it asks for there
raises :class:`HydraReadRefused` and :func:`preflight.adapters.hydra_compose.compose`
composes with preflight's own composer instead.
"""

from __future__ import annotations

import os
import re
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Optional, Sequence, cast

from preflight.adapters.hydra_compose import (
    ComposeError,
    Composition,
    Item,
    OutsideConfigDir,
    Override,
    find_file,
    read_config_file,
    strip_config_ext,
    within,
    yaml_error,
)

# hydra-core's GlobalHydra and its config source registry are process-wide: one composition
# at a time (the admission webhook gates requests in parallel threads)
_HYDRA_LOCK = threading.Lock()


def hydra_available() -> Optional[str]:
    """The hydra-core version when it can be imported, else None."""
    try:
        import hydra
    except ImportError:
        return None
    return str(getattr(hydra, "__version__", "?"))


class HydraReadRefused(ComposeError):
    """hydra-core asked for files outside the config directory (refused), or its file
    source could not be confined: preflight's composer is used instead."""

    def __init__(self, message: str, paths: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.paths = list(paths)


@contextmanager
def _confined_file_source(config_dir: Path) -> Iterator[list[str]]:
    """hydra-core's config sources confined while preflight composes: hydra-core itself
    follows ``..``, absolute names (even through its own ``pkg://hydra.conf`` source),
    symbolic links and ``hydra.searchpath`` entries anywhere. ``file://`` sources read only
    inside ``config_dir`` (symbolic links resolved), ``pkg://`` sources only names that stay
    inside their package. Yields the list of refused paths (filled as hydra-core asks).
    Raises :class:`HydraReadRefused` when this hydra-core version lacks the parts replaced."""
    try:
        from hydra._internal.core_plugins.file_config_source import FileConfigSource
        from hydra._internal.core_plugins.importlib_resources_config_source import (
            ImportlibResourcesConfigSource,
        )
        from hydra._internal.sources_registry import SourcesRegistry
        from hydra.core.plugins import Plugins
        from hydra.plugins.config_source import ConfigLoadError

        registry = SourcesRegistry.instance()
        Plugins.instance()  # registers the built-in sources now, never over the confined ones
        originals = {scheme: registry.types[scheme] for scheme in ("file", "pkg")}
    except (ImportError, AttributeError, KeyError) as exc:
        raise HydraReadRefused(f"hydra-core's config sources could not be confined ({exc})") from None
    root = os.path.realpath(config_dir)
    refused: list[str] = []

    def allowed(source: Any, config_path: str) -> bool:
        name = os.path.normpath(config_path) if config_path else "."
        inside = not os.path.isabs(name) and name != ".." and not name.startswith(".." + os.sep)
        if inside and isinstance(source, FileConfigSource):
            inside = within(root, os.path.realpath(os.path.join(source.path, config_path)))
        if not inside:
            refused.append(os.path.normpath(os.path.join(str(source.path), config_path)))
        return inside

    def confined(base: Any) -> Any:
        class Confined(base):
            def load_config(self, config_path: str) -> Any:
                if not allowed(self, self._normalize_file_name(config_path)):
                    raise ConfigLoadError(f"{config_path} is outside the config directory; not read")
                if isinstance(self, FileConfigSource):  # what preflight reads, hydra-core reads too
                    refusal = _unreadable(os.path.join(self.path, self._normalize_file_name(config_path)))
                    if refusal is not None:
                        raise ConfigLoadError(f"{config_path}: {refusal}")
                return super().load_config(config_path)

            def available(self) -> bool:
                outside = isinstance(self, FileConfigSource) and not within(root, os.path.realpath(self.path))
                return not outside and bool(super().available())

            def is_group(self, config_path: str) -> bool:
                return allowed(self, config_path) and bool(super().is_group(config_path))

            def is_config(self, config_path: str) -> bool:
                return allowed(self, self._normalize_file_name(config_path)) and bool(super().is_config(config_path))

            def list(self, config_path: str, results_filter: Any) -> list[str]:
                return list(super().list(config_path, results_filter)) if allowed(self, config_path) else []

        Confined.__name__ = Confined.__qualname__ = f"Confined{base.__name__}"
        return Confined

    registry.types["file"] = confined(FileConfigSource)
    registry.types["pkg"] = confined(ImportlibResourcesConfigSource)
    try:
        yield refused
    finally:
        registry.types.update(originals)


def compose_with_hydra(config_dir: Path, config_name: str, overrides: Sequence[Override],
                       version_base: Optional[str]) -> Composition:
    """Compose with hydra-core's compose API; the defaults list gives the file of each part.
    hydra-core reads files only inside ``config_dir`` (:func:`_confined_file_source`); when it
    asks for one outside, :class:`HydraReadRefused` is raised whatever the outcome."""
    import hydra
    from omegaconf import OmegaConf

    texts = [ov.text for ov in overrides if not ov.sweep]
    with _HYDRA_LOCK:
        refused, cfg, items, error = _compose_locked(config_dir, config_name, texts, version_base)
    if refused:
        shown = ", ".join(sorted(set(refused))[:3])
        raise HydraReadRefused(f"hydra-core asked for {shown}, outside the config directory (not read)", refused)
    if error is not None:
        located = yaml_error(error, config_dir=config_dir)
        if located is not None and located.file is not None:
            raise located
        raise ComposeError(f"{type(error).__name__}: {error}")
    data = OmegaConf.to_container(cfg, resolve=False)
    assert isinstance(data, dict)
    data.pop("hydra", None)
    return Composition(cast("dict[str, Any]", data), items, list(overrides), f"hydra-core {hydra.__version__} (compose API)")


_STUBS = threading.local()


@contextmanager
def stub_configs(names: Sequence[str]) -> Iterator[None]:
    """While composing in this thread, each of ``names`` (a top-level config the script would put in
    Hydra's ConfigStore when it runs) is an empty config: the files' values compose around it."""
    _STUBS.names = tuple(n for n in names if "/" not in n)
    try:
        yield
    finally:
        _STUBS.names = ()


@contextmanager
def stored_nodes(entries: Sequence[tuple[Optional[str], str, dict]]) -> Iterator[None]:
    """While composing in this thread, each (group, name, mapping) is in Hydra's ConfigStore: the
    project's structured configs read statically (:mod:`preflight.adapters.hydra_config_store`)."""
    _STUBS.entries = tuple(entries)
    try:
        yield
    finally:
        _STUBS.entries = ()


def _compose_locked(config_dir: Path, config_name: str, texts: list[str],
                    version_base: Optional[str]) -> tuple[list[str], Any, list[Item], Optional[Exception]]:
    import warnings

    from hydra import compose, initialize_config_dir
    from hydra.core.config_store import ConfigStore
    from hydra.core.global_hydra import GlobalHydra

    GlobalHydra.instance().clear()
    cfg: Any = None
    items: list[Item] = []
    error: Optional[Exception] = None
    store = ConfigStore.instance()
    saved = dict(store.repo)
    for name in getattr(_STUBS, "names", ()):
        store.store(name=name, node={})
    for group, name, node in getattr(_STUBS, "entries", ()):
        store.store(name=name, node=node, group=group)
    try:
        with _confined_file_source(config_dir) as refused, _defaults_lists() as lists, \
                warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                with initialize_config_dir(config_dir=str(config_dir), version_base=version_base):
                    cfg = compose(config_name=config_name, overrides=texts)
                    items = _hydra_items(config_dir, config_name, texts, lists[-1] if lists else None)
            except Exception as exc:  # hydra's own exceptions: missing configs, bad overrides, ...
                error = exc
    finally:
        GlobalHydra.instance().clear()
        store.repo.clear()
        store.repo.update(saved)
    return refused, cfg, items, error


@contextmanager
def _defaults_lists() -> Iterator[list[Any]]:
    """The defaults lists hydra-core's compose builds while this is open: the last is the one its
    config was composed from, so the parts' files need not be looked up by composing twice
    (hydra-core 1.3's ``create_defaults_list``; where it is not found, nothing is recorded)."""
    from hydra._internal import config_loader_impl

    made: list[Any] = []
    original = getattr(config_loader_impl, "create_defaults_list", None)
    if original is None:
        yield made
        return

    def recording(*args: Any, **kwargs: Any) -> Any:
        result = original(*args, **kwargs)
        made.append(result)
        return result

    config_loader_impl.create_defaults_list = recording
    try:
        yield made
    finally:
        config_loader_impl.create_defaults_list = original


def _hydra_items(config_dir: Path, config_name: str, overrides: list[str], result: Any = None) -> list[Item]:
    from hydra.core.global_hydra import GlobalHydra
    from hydra.types import RunMode

    if result is None:  # compose did not record its defaults list: compute it again
        result = GlobalHydra.instance().config_loader().compute_defaults_list(config_name, overrides, RunMode.RUN)
    items = []
    for d in result.defaults:
        if d.config_path is None or d.package == "hydra" or (d.package or "").startswith("hydra."):
            continue
        items.append(Item(strip_config_ext(d.config_path), d.package or "", find_file(config_dir, d.config_path)))
    return items


def searchpath_packages(config_dir: Path, config_name: str) -> list[str]:
    """``pkg://`` entries of the primary config's ``hydra.searchpath`` (hydra-core would import them)."""
    try:
        path = find_file(config_dir, strip_config_ext(config_name))
    except OutsideConfigDir:
        return []
    if path is None:
        return []
    try:
        body = read_config_file(path).body
    except ComposeError:
        return []
    hydra_node = body.get("hydra")
    entries = hydra_node.get("searchpath") if isinstance(hydra_node, dict) else None
    return [e for e in entries or [] if isinstance(e, str) and e.startswith("pkg://")]


def _unreadable(path: str) -> Optional[str]:
    """Why preflight's reader would refuse ``path`` (not a regular file, over the size limit),
    or None."""
    import stat

    from preflight.sources import MAX_FILE_BYTES, _too_large

    try:
        st = os.stat(path)
    except OSError:
        return None  # hydra-core says it is missing
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file; not read"
    if st.st_size > MAX_FILE_BYTES:
        return _too_large(st.st_size, MAX_FILE_BYTES)
    return None


def _about_hydra_settings(message: str) -> bool:
    """An error in Hydra's own settings, not the job's config: a ``hydra/...`` group, or a key of the
    primary config's ``hydra:`` section that this hydra-core's ``HydraConf`` does not have (a Hydra 0.11 app's
    ``hydra.name``, renamed ``hydra.job.name`` in 1.0: denisyarats/pytorch_sac @ 81c5b53 config/train.yaml:32)."""
    return "In 'hydra/" in message or "'hydra/" in message.split("\n", 1)[0] or \
        bool(re.search(r"not in 'HydraConf'[\s\S]*full_key: hydra\.", message))


def _first_line(message: str) -> str:
    return message.strip().splitlines()[0] if message.strip() else message


def local_plugin_dirs() -> list[str]:
    """``hydra_plugins`` folders on ``sys.path`` outside installed packages (the user's own
    plugins, e.g. when preflight runs as ``python -m preflight`` from the project):
    hydra-core imports every ``hydra_plugins`` module it finds when it starts."""
    import sys

    found = []
    for entry in sys.path:
        base = Path(entry or os.getcwd())
        if "site-packages" in base.parts or "dist-packages" in base.parts:
            continue
        if os.path.isdir(base / "hydra_plugins"):
            found.append(str(base / "hydra_plugins"))
    return found

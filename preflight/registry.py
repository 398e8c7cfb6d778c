"""Registries of rules and adapters, built-in and from third-party entry points.

Built-in rules live one per module in :mod:`preflight.rules` and register
themselves with :func:`register`; importing the package's modules is what loads
them. Third-party packages add rules or adapters through the entry-point groups
``preflight.rules`` and ``preflight.adapters``; an entry point may name a module
(whose import registers) or a class (registered here).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Callable, Iterable, Optional, TypeVar

from preflight.codes import code_sort_key, sorted_codes

if TYPE_CHECKING:
    from preflight.adapters_api import Adapter
    from preflight.rules.base import Rule

RULE_GROUP = "preflight.rules"
ADAPTER_GROUP = "preflight.adapters"

_RULES: dict[str, type[Rule]] = {}
_ADAPTERS: dict[str, type[Adapter]] = {}
_loaded = {"rules": False, "rule_plugins": False, "adapters": False, "adapter_plugins": False}
_plugin_errors: list[str] = []

R = TypeVar("R")


class RegistryError(Exception):
    pass


def _by_code(item: tuple[str, object]) -> tuple[str, int, str]:
    """Sort key of a (code, rule) pair: numeric code order (PF999 before PF1000)."""
    return code_sort_key(item[0])


def _import(name: str):
    """``importlib.import_module`` for an absolute name, without importing ``importlib``
    (a measurable share of a one-file ``check``)."""
    __import__(name)
    return sys.modules[name]


def register(cls: type[R]) -> type[R]:
    """Class decorator: add a rule (a ``Rule`` subclass) to the registry."""
    from preflight.rules.base import Rule, validate_metadata

    if not (isinstance(cls, type) and issubclass(cls, Rule)):
        raise RegistryError(f"@register expects a Rule subclass, got {cls!r}")
    validate_metadata(cls)
    builtin = _builtin_module(cls.code)
    if builtin is not None and cls.__module__ != builtin:
        raise RegistryError(f"rule code {cls.code} is registered twice: {builtin} (built in) "
                            f"and {cls.__module__}.{cls.__qualname__}")
    existing = _RULES.get(cls.code)
    if existing is not None and existing is not cls:
        if existing.__qualname__ == cls.__qualname__ and existing.__module__ == cls.__module__:
            _RULES[cls.code] = cls  # the same module imported twice (reload)
            return cls
        raise RegistryError(
            f"rule code {cls.code} is registered twice: {existing.__module__}.{existing.__qualname__} "
            f"and {cls.__module__}.{cls.__qualname__}"
        )
    _RULES[cls.code] = cls
    return cls


def register_adapter(cls: type[R]) -> type[R]:
    """Class decorator: add a framework adapter to the registry."""
    from preflight.adapters_api import Adapter

    if not (isinstance(cls, type) and issubclass(cls, Adapter)):
        raise RegistryError(f"@register_adapter expects an Adapter subclass, got {cls!r}")
    name = cls.name
    if not name or not isinstance(name, str):
        raise RegistryError(f"adapter {cls.__module__}.{cls.__qualname__} has no name")
    existing = _ADAPTERS.get(name)
    if existing is not None and existing is not cls and (
            existing.__qualname__ != cls.__qualname__ or existing.__module__ != cls.__module__):
        # the same class imported twice (reload) replaces itself; any other class is refused,
        # so a plugin cannot silently replace a built-in adapter that has the same class name
        raise RegistryError(f"adapter {name!r} is registered twice: {existing.__module__}."
                            f"{existing.__qualname__} and {cls.__module__}.{cls.__qualname__}")
    _ADAPTERS[name] = cls
    return cls


def _module_names(paths: Iterable[str], folders: bool = False) -> list[str]:
    """Modules and sub-packages in ``paths`` (``pkgutil.iter_modules`` imports ``inspect``,
    a measurable share of a one-file ``check``); with ``folders``, every folder whose name is
    an identifier counts as a sub-package, ``__init__.py`` or not."""
    names: set[str] = set()
    for path in paths:
        try:
            entries = list(os.scandir(path))
        except OSError:
            continue
        for entry in entries:
            name = entry.name
            if name.endswith(".py") and name != "__init__.py":
                names.add(name[:-3])
            elif entry.is_dir() and (folders or os.path.isfile(os.path.join(entry.path, "__init__.py"))):
                names.add(name)
    return sorted(n for n in names if n.isidentifier())


def _import_package_modules(package: str, recursive: bool = False) -> None:
    """Import every public module of ``package``; with ``recursive``, of its sub-packages too
    (the built-in rules sit one folder per kind: ``preflight/rules/code/``, ``plan/``, ...;
    a rule module dropped at the top level or in any sub-folder is found as well). What it
    reads is no dependency of a cached config result (:class:`preflight.config_cache.unrecorded`)."""
    from preflight.config_cache import unrecorded

    with unrecorded():
        _import_modules_of(package, recursive)


def _import_modules_of(package: str, recursive: bool) -> None:
    pkg = _import(package)
    for name in _module_names(pkg.__path__, folders=recursive):
        if name.startswith("_") or name in {"base"}:
            continue
        module = _import(f"{package}.{name}")
        if recursive and hasattr(module, "__path__"):
            _import_modules_of(module.__name__, recursive=True)


class _EntryPoint:
    """The part of ``importlib.metadata.EntryPoint`` that plugin loading needs."""

    def __init__(self, name: str, value: str) -> None:
        self.name = name
        self.value = value

    def load(self) -> object:
        module_name, _, attrs = self.value.partition(":")
        obj: object = _import(module_name.strip())
        for attr in filter(None, attrs.strip().split(".")):
            obj = getattr(obj, attr)
        return obj


def _entry_points(group: str) -> list[_EntryPoint]:
    """Entry points of ``group`` from the distributions on ``sys.path``.

    A direct scan of ``*.dist-info/entry_points.txt``: ``importlib.metadata`` parses
    every distribution's metadata and costs tens of milliseconds at start-up, which
    a one-file ``preflight check`` cannot afford. As with importlib.metadata, the
    first distribution of a name on ``sys.path`` wins.
    """
    import os

    header = f"[{group}]"
    seen: set[str] = set()
    out: list[_EntryPoint] = []
    try:
        here: Optional[str] = os.getcwd()
    except OSError:  # the current directory was removed
        here = None
    for entry in sys.path:
        # never the current directory (a job's directory, a checkout under review): a
        # ``*.dist-info`` there is not an installed plugin (docs/hardening.md)
        if entry in ("", os.curdir) or (here is not None and os.path.realpath(entry) == here):
            continue
        directory = entry
        try:
            names = sorted(os.listdir(directory))
        except OSError:
            continue
        for name in names:
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            dist = name.rsplit("-", 1)[0].lower().replace("_", "-") if name.count("-") else name
            if dist in seen:
                continue
            seen.add(dist)
            try:
                from preflight.sources import read_text_limited

                text = read_text_limited(os.path.join(directory, name, "entry_points.txt"), 1 << 20,
                                         errors="replace")
            except OSError:
                continue
            if header not in text:
                continue
            out.extend(_parse_group(text, header))
    return out


def _parse_group(text: str, header: str) -> list[_EntryPoint]:
    out = []
    active = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            active = line == header
            continue
        if active and "=" in line:
            name, _, value = line.partition("=")
            out.append(_EntryPoint(name.strip(), value.strip()))
    return out


def _load_plugins(group: str, registrar: Callable[[type], type]) -> None:
    from preflight.config_cache import unrecorded

    with unrecorded():  # sys.path's folders and entry points: keyed by plugin_fingerprint
        _load_plugins_unrecorded(group, registrar)


def _load_plugins_unrecorded(group: str, registrar: Callable[[type], type]) -> None:
    for ep in sorted(_entry_points(group), key=lambda e: e.name):
        try:
            obj = ep.load()
        except Exception as exc:  # a broken plugin must not stop the run
            _plugin_errors.append(f"plugin {ep.name!r} ({ep.value}) failed to load: {exc}")
            continue
        if isinstance(obj, type):
            try:
                registrar(obj)
            except RegistryError as exc:
                _plugin_errors.append(f"plugin {ep.name!r}: {exc}")


def plugin_errors() -> list[str]:
    return list(_plugin_errors)


def plugin_fingerprint() -> tuple[str, ...]:
    """What identifies the loaded rule plugins' code, for the check cache's key: each plugin
    rule's code and module file with its size and modification time (a new version or an
    edit of an editable install changes it)."""
    builtin = _builtin_index()
    out = []
    for code, cls in sorted(_RULES.items(), key=_by_code):
        if code in builtin:
            continue
        module = sys.modules.get(cls.__module__)
        path = getattr(module, "__file__", None) or ""
        try:
            st = os.stat(path)
            stamp = f"{st.st_size}:{st.st_mtime_ns}"
        except OSError:
            stamp = "?"
        out.append(f"{code}={cls.__module__}:{path}:{stamp}")
    return tuple(out)


def _builtin_index() -> dict[str, str]:
    """Built-in rule code -> module under ``preflight.rules`` (``code.pf101_retained_graph``),
    from the generated ``preflight.rules._index``."""
    from preflight.rules import _index

    return {**_index.FILE, **_index.JOB}


def _builtin_module(code: str) -> Optional[str]:
    name = _builtin_index().get(code)
    return None if name is None else f"preflight.rules.{name}"


def _ensure_rule_plugins() -> None:
    if not _loaded["rule_plugins"]:
        _loaded["rule_plugins"] = True
        _load_plugins(RULE_GROUP, register)


def all_rules(plugins: bool = True) -> dict[str, type[Rule]]:
    """Every registered rule by code (built-ins, then entry points), loaded once."""
    if not _loaded["rules"]:
        _loaded["rules"] = True
        _import_package_modules("preflight.rules", recursive=True)
    if plugins:
        _ensure_rule_plugins()
    return dict(sorted(_RULES.items(), key=_by_code))


def rule_codes(plugins: bool = True) -> list[str]:
    """Every rule code, sorted, without importing the built-in rules' modules (their codes
    come from the generated index; a plugin's from its loaded module)."""
    if plugins:
        _ensure_rule_plugins()
    return sorted_codes(set(_builtin_index()) | set(_RULES))


def file_rules(codes: Iterable[str]) -> list[type[Rule]]:
    """The rules among ``codes`` that read one Python file, in the order given; only their
    modules are imported (plugins are loaded by :func:`rule_codes`, which resolves codes)."""
    from preflight.rules import _index

    out = []
    for code in codes:
        module = _index.FILE.get(code)
        if module is not None:
            _import(f"preflight.rules.{module}")
        elif code in _index.JOB:
            continue
        elif code not in _RULES:
            _ensure_rule_plugins()
        cls = _RULES.get(code)
        if cls is not None and cls.scope == "file":
            out.append(cls)
    return out


def all_adapters(plugins: bool = True) -> dict[str, type[Adapter]]:
    """Every registered adapter by name (built-ins, then entry points), loaded once.

    An adapter plugin that fails to load is reported here, one warning line on stderr
    each: ``check`` and ``audit`` report rule plugins before any adapter is loaded.
    """
    if not _loaded["adapters"]:
        _loaded["adapters"] = True
        _import_package_modules("preflight.adapters")
    if plugins and not _loaded["adapter_plugins"]:
        _loaded["adapter_plugins"] = True
        before = len(_plugin_errors)
        _load_plugins(ADAPTER_GROUP, register_adapter)
        for err in _plugin_errors[before:]:
            sys.stderr.write(f"preflight: warning: {err}\n")
    return dict(sorted(_ADAPTERS.items()))


def documented_rules(plugins: bool = True) -> dict[str, type[Rule]]:
    """Every rule a user can see in ``rules``, ``explain`` and the docs, by code: the code and
    plan rules of :func:`all_rules` plus the scheduler gate's job rules (a registry of their
    own, since their examples are batch scripts, not Python)."""
    from preflight.gate.rules import job_rules

    merged = {**all_rules(plugins=plugins), **job_rules()}
    return dict(sorted(merged.items(), key=_by_code))

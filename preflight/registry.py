"""Registries of rules and adapters, built-in and from third-party entry points.

Built-in rules live one per module in :mod:`preflight.rules` and register
themselves with :func:`register`; importing the package's modules is what loads
them. Third-party packages add rules or adapters through the entry-point groups
``preflight.rules`` and ``preflight.adapters``; an entry point may name a module
(whose import registers) or a class (registered here).
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from typing import TYPE_CHECKING, Callable, TypeVar

if TYPE_CHECKING:
    from preflight.adapters_api import Adapter
    from preflight.rules.base import Rule

RULE_GROUP = "preflight.rules"
ADAPTER_GROUP = "preflight.adapters"

_RULES: dict[str, type[Rule]] = {}
_ADAPTERS: dict[str, type[Adapter]] = {}
_loaded = {"rules": False, "adapters": False}
_plugin_errors: list[str] = []

R = TypeVar("R")


class RegistryError(Exception):
    pass


def register(cls: type[R]) -> type[R]:
    """Class decorator: add a rule (a ``Rule`` subclass) to the registry."""
    from preflight.rules.base import Rule, validate_metadata

    if not (isinstance(cls, type) and issubclass(cls, Rule)):
        raise RegistryError(f"@register expects a Rule subclass, got {cls!r}")
    validate_metadata(cls)
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
    existing = _ADAPTERS.get(name)
    if existing is not None and existing is not cls and existing.__qualname__ != cls.__qualname__:
        raise RegistryError(f"adapter {name!r} is registered twice")
    _ADAPTERS[name] = cls
    return cls


def _import_package_modules(package: str) -> None:
    pkg = importlib.import_module(package)
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        if info.name.startswith("_") or info.name in {"base"}:
            continue
        importlib.import_module(f"{package}.{info.name}")


def _entry_points(group: str) -> list:
    from importlib import metadata

    if sys.version_info >= (3, 10):
        return list(metadata.entry_points(group=group))
    return list(metadata.entry_points().get(group, []))  # type: ignore[attr-defined]


def _load_plugins(group: str, registrar: Callable[[type], type]) -> None:
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


def all_rules(plugins: bool = True) -> dict[str, type[Rule]]:
    """Every registered rule by code (built-ins, then entry points), loaded once."""
    if not _loaded["rules"]:
        _loaded["rules"] = True
        _import_package_modules("preflight.rules")
        if plugins:
            _load_plugins(RULE_GROUP, register)
    return dict(sorted(_RULES.items()))


def all_adapters(plugins: bool = True) -> dict[str, type[Adapter]]:
    if not _loaded["adapters"]:
        _loaded["adapters"] = True
        _import_package_modules("preflight.adapters")
        if plugins:
            _load_plugins(ADAPTER_GROUP, register_adapter)
    return dict(sorted(_ADAPTERS.items()))

"""Walking a composed Hydra config as plain nested dicts, shared by PF519 and PF259: its leaves
(an empty mapping is not one), a value at a key path, the key path of a package."""

from __future__ import annotations

from typing import Any, Iterable


def config_leaves(data: Any, path: tuple[str, ...]) -> Iterable[tuple[tuple[str, ...], Any]]:
    if isinstance(data, dict) and data:
        for key, value in data.items():
            yield from config_leaves(value, (*path, str(key)))
    elif not isinstance(data, dict):
        yield path, data


def config_lookup(data: Any, path: tuple[str, ...]) -> Any:
    for part in path:
        if not isinstance(data, dict) or part not in data:
            return config_lookup  # a sentinel: not there
        data = data[part]
    return data


def package_path(package: str) -> tuple[str, ...]:
    return tuple(p for p in package.split(".") if p)

"""The Hydra applications of a project (``@hydra.main``, ``compose``, ``initialize*``) and their composed configurations, with the file each value came from."""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union

from preflight.adapters.hydra_compose import (
    MISSING,
    ComposeError,
    Composition,
    Item,
    compose,
    find_file,
    read_config_file,
    relative,
    strip_config_ext,
    within,
)

from preflight.adapters_api import CallSite, Project
from preflight.diagnostics import FileError
from preflight.loaders import LoadedConfig, load_config
from preflight.plan import Source
from preflight.sources import ParsedPython, read_source, read_text_limited


@dataclass
class HydraApp:
    """One Hydra entry point found in a script."""

    script: Optional[ParsedPython]  # None for a directory given with --config
    line: Optional[int]
    config_dir: Optional[Path]
    config_name: Optional[str]
    version_base: Optional[str]
    how: str  # "@hydra.main" or "compose()"
    overrides: list[str] = field(default_factory=list)  # compose(overrides=[...])
    guess: Optional[str] = None  # how config_dir was guessed (:mod:`preflight.adapters.hydra_env_root`)


@dataclass
class Composed:
    """A composed config with where each value came from."""

    app: HydraApp
    composition: Composition
    origins: dict[tuple[str, ...], tuple[str, Optional[int], str]]  # key path -> (file, line, key in file)
    cli: dict[tuple[str, ...], str]  # key path -> override text
    files: dict[str, LoadedConfig]
    missing: list[tuple[tuple[str, ...], Optional[str], Optional[int]]]  # ??? keys: path, file, line
    item_configs: list[tuple[Item, LoadedConfig]] = field(default_factory=list)  # defaults list, loaded
    config_dir: Optional[Path] = None  # the directory composed from (--config-path/--config-dir may move it)
    # group options composed without, their files not in the project (:mod:`preflight.adapters.hydra_partial`)
    dropped: list[str] = field(default_factory=list)

    @property
    def config(self) -> dict[str, Any]:
        return self.composition.config

    def source(self, path: tuple[str, ...], detail: str, kind: str = "config") -> Source:
        key = ".".join(path)
        if path in self.cli:
            return Source("cli", None, None, self.cli[path], f"Hydra override; {detail}")
        origin = self.origins.get(path)
        if origin is None:
            return Source(kind, None, None, key, detail)
        file, line, _ = origin
        return Source(kind, file, line, key, detail)


def _text(idx: Any, expr: Optional[ast.AST]) -> Optional[str]:
    resolved = idx.resolve(expr)
    if resolved is None or not isinstance(resolved.value, str):
        return None
    return resolved.value


def find_apps(project: Project) -> list[HydraApp]:
    """Hydra entry points of the scripts, then config directories given with ``--config``."""
    apps: list[HydraApp] = []
    for script in project.scripts:
        idx = project.index(script)
        if not idx.imports_any("hydra", "dora"):
            continue
        folder = Path(script.source.path).resolve().parent
        # Dora's ``hydra_main`` takes hydra.main's arguments (facebookresearch/dora dora/hydra.py;
        # facebookresearch/demucs @ e976d93 demucs/train.py:222)
        for site in idx.find("hydra.main", "dora.hydra_main"):
            apps.append(_app(idx, site, folder, "@hydra.main", Path(str(project.root))))
        inits = idx.find("hydra.initialize", "hydra.initialize_config_dir")
        composes = idx.find("hydra.compose")
        if inits and composes:
            init = inits[0]
            comp = composes[0]
            app = _app(idx, init, folder, "compose()")
            name = _text(idx, comp.arg(0, "config_name"))
            app.config_name = name
            app.line = comp.line
            overrides = idx.resolve(comp.arg(1, "overrides"))
            if overrides is not None and isinstance(overrides.value, list):
                app.overrides = [str(v) for v in overrides.value]
            apps.append(app)
    seen = {a.config_dir for a in apps}
    for directory in project.config_dirs:
        resolved = directory.resolve()
        if resolved not in seen:
            seen.add(resolved)
            apps.append(HydraApp(None, None, resolved, _primary_name(resolved), None, "--config directory"))
    return apps


def _primary_name(directory: Path) -> Optional[str]:
    """``config.yaml`` when present, else the one top-level YAML file with a defaults list."""
    for name in ("config.yaml", "config.yml"):
        if os.path.isfile(directory / name):
            return name
    found = []
    root = os.path.realpath(directory)
    for path in sorted([*directory.glob("*.yaml"), *directory.glob("*.yml")]):
        if not os.path.isfile(path) or not within(root, os.path.realpath(path)):
            continue  # a named pipe, or a symbolic link out of the directory: not read
        try:
            head = read_text_limited(path, errors="replace")
        except OSError:
            continue
        if any(line.startswith("defaults:") for line in head.splitlines()):
            found.append(path.name)
    return found[0] if len(found) == 1 else None


def _before_1_2(version: Any, idx: Any) -> bool:
    """Whether a ``version_base`` argument (None: not given) selects Hydra's pre-1.2 defaults."""
    if version is None:
        return True
    text = _text(idx, version)
    if not isinstance(text, str):
        return False  # version_base=None: the running Hydra's defaults
    parts = text.strip().split(".")
    try:
        return (int(parts[0]), int(parts[1]) if len(parts) > 1 else 0) < (1, 2)
    except ValueError:
        return False


def _app(idx: Any, site: CallSite, folder: Path, how: str, root: Optional[Path] = None) -> HydraApp:
    if site.matches("hydra.initialize_config_dir"):
        directory = _text(idx, site.arg(0, "config_dir"))
        config_dir = Path(directory) if directory else None
    else:
        from preflight.adapters.hydra_paths import (
            config_dir as computed,  # or an expression (F5-TTS)
        )

        path = _text(idx, site.arg(0, "config_path")) or computed(site.arg(0, "config_path"), idx, root or folder)
        if path is None and site.arg(0, "config_path") is None and how == "@hydra.main" \
                and _before_1_2(site.kwarg("version_base"), idx):
            # hydra/main.py: config_path not given and version_base not given or < 1.2: config_path = "."
            path = "."
        config_dir = (folder / path).resolve() if path is not None else None
    version = site.kwarg("version_base")
    # not given: Hydra >= 1.2 behaves as version_base="1.1" (with a warning)
    version_base = _text(idx, version) if version is not None else "1.1"
    name = _text(idx, site.arg(1, "config_name")) if how == "@hydra.main" else None
    if how == "@hydra.main" and name is None and config_dir is not None and config_dir.suffix in (".yaml", ".yml"):
        # Hydra before 1.0: config_path names the primary config file itself (`config_path="conf/config.yaml"`),
        # its folder holds the config groups
        config_dir, name = config_dir.parent, config_dir.stem
        version_base = LEGACY  # group files merge at the top level (hydra_compose.Composer(legacy=True))
    guess = None
    if config_dir is None and how == "@hydra.main":
        from preflight.adapters.hydra_env_root import env_rooted

        got = env_rooted(site.arg(0, "config_path"), idx, root or folder, name)
        if got is None:
            from preflight.adapters.hydra_cwd_root import cwd_rooted

            got = cwd_rooted(site.arg(0, "config_path"), idx, root or folder, name)
        if got is not None:
            config_dir, guess = got
    return HydraApp(idx.script, site.line, config_dir, name, version_base, how, guess=guess)


LEGACY = "0.11"  # a Hydra app from before 1.0 (``config_path`` names the primary config file)


def compositions(project: Project, *, use_hydra: bool = True) -> list[Union[Composed, FileError]]:
    """The composed config of every Hydra app of the project (cached on the project)."""
    cache = project.cache.setdefault("hydra.compositions", {})
    if use_hydra in cache:
        return cache[use_hydra]
    out: list[Union[Composed, FileError]] = []
    for app in find_apps(project):
        out.append(_compose_app(project, app, use_hydra))
    cache[use_hydra] = out
    return out


def app_tokens(project: Project, app: HydraApp) -> list[str]:
    """The overrides an app is composed with: its ``compose(overrides=...)``, then the launch line's."""
    args = project.script_args(app.script) if app.script is not None else list(project.argv)
    return [*app.overrides, *args]


def _compose_app(project: Project, app: HydraApp, use_hydra: bool,
                 added: frozenset[str] = frozenset(), skipped: Optional[list[str]] = None,
                 given: Optional[list[str]] = None) -> Union[Composed, FileError]:
    """``added``: keys whose plain ``key=value`` overrides are composed as ``++key=value``
    (:mod:`preflight.adapters.hydra_added_keys`); ``skipped``: composed by preflight's composer, group
    options whose files are missing left out and named there, composed with the overrides ``given`` instead of
    the app's own (:mod:`preflight.adapters.hydra_partial`)."""
    display = app.script.source.display if app.script is not None else relative(app.config_dir or Path("."),
                                                                                    project.root)
    tokens = list(given) if given is not None else app_tokens(project, app)
    if added:
        tokens = [f"++{t}" if t.partition("=")[0] in added and "=" in t else t for t in tokens]
    from preflight.adapters.hydra_compose import parse_overrides

    _, flags, _ = parse_overrides(tokens)
    config_dir = app.config_dir
    if "config_path" in flags:
        base = Path(app.script.source.path).resolve().parent if app.script is not None else project.root
        config_dir = (base / flags["config_path"]).resolve()
    name = flags.get("config_name", app.config_name)
    appended_note = ""
    if name is None and config_dir is not None and project.may_read(config_dir):
        got = _appended_global(config_dir, tokens)
        if got is not None:
            name, tokens, appended_note = got
    config_dir, extra_note = _with_config_dir_flag(project, config_dir, name, flags.get("config_dir"))
    if config_dir is not None and project.may_read(config_dir):
        try:
            os.listdir(config_dir)
        except PermissionError:
            return FileError(relative(config_dir, project.root),
                             "cannot list the Hydra config directory: permission denied; skipped")
        except OSError:
            pass  # missing: said below
    if config_dir is None or name is None:
        if app.script is None:
            return FileError(display, "a Hydra config directory needs a primary config: config.yaml, one "
                                      "top-level file with a defaults list, or --config-name after --")
        return FileError(display, f"{app.how} without a config_path and config_name preflight can read "
                                  "(a ConfigStore config?); Hydra config not composed", line=app.line)
    if not project.may_read(config_dir):
        return FileError(display, f"{app.how}: config directory {relative(config_dir, project.root)} is "
                                  "outside the job's directories and was not read", line=app.line)
    if not os.path.isdir(config_dir):
        return FileError(display, f"{app.how}: config directory {relative(config_dir, project.root)} "
                                  "does not exist", line=app.line)
    try:
        composition = compose(config_dir, name, tokens, app.version_base, use_hydra=use_hydra, skipped=skipped)
    except ComposeError as exc:
        if exc.file is not None:  # a defaults entry of a config file: located there
            return FileError(relative(exc.file, project.root), f"Hydra config {name!r} not composed: {exc}",
                             line=exc.line, column=exc.column)
        return FileError(display, f"Hydra config {name!r} not composed: {exc}", line=app.line)
    for note in (appended_note, extra_note):
        if note:
            composition.notes.append(note)
    return compose_with_origins(project, app, composition, config_dir)


def _appended_global(config_dir: Path, tokens: list[str]) -> Optional[tuple[str, list[str], str]]:
    """``@hydra.main(config_path="config", config_name=None)`` launched with ``+group=option`` naming a config
    whose header is ``# @package _global_``: hydra-core composes an empty primary config, then appends that
    config at the top level, so the job's config is that file (its own defaults list included) as if it were
    the primary. facebookresearch/omnivore @ 1d55abd ``omnivision/train_app_submitit.py:55`` launched with
    ``+experiments=omnimae/omnimae_vitbase_ft_in1k`` (``config/experiments/omnimae/*.yaml``: ``# @package
    _global_`` over ``defaults: [/experiments/base.yaml, _self_]``); the lightning-hydra-template's
    ``experiment=...`` files carry the same header (there the primary config is named); ``@hydra.main(...,
    config_path="conf", config_name=None)`` is common in public code (find_string: 10 hits). Returns (the config's
    name, the tokens without that override, a note), or None unless exactly one such override is given.
    Only file names and headers are read; nothing is instantiated."""
    found: list[tuple[int, str]] = []
    for k, token in enumerate(tokens):
        key, eq, value = token.partition("=")
        if not eq or not key.startswith("+") or key.startswith("++") or "," in value or not value:
            continue
        name = f"{key[1:]}/{strip_config_ext(value)}"
        try:
            file = find_file(config_dir, name)
            if file is not None and read_config_file(file).header == "_global_":
                found.append((k, name))
        except ComposeError:
            continue
    if len(found) != 1:
        return None
    k, name = found[0]
    note = (f"no primary config (config_name=None): {tokens[k]} appends {name} at the top level (# @package "
            "_global_), composed as the job's config")
    return name, tokens[:k] + tokens[k + 1:], note


def _has_config(directory: Path, name: str) -> bool:
    from preflight.adapters.hydra_compose import find_file, strip_config_ext

    try:
        return find_file(directory, strip_config_ext(name)) is not None
    except Exception:  # a name leaving the directory: not a config of it
        return False


def _with_config_dir_flag(project: Project, config_dir: Optional[Path], name: Optional[str],
                          flag: Optional[str]) -> tuple[Optional[Path], str]:
    """``--config-dir DIR`` / ``-cd DIR`` on the launch line: hydra-core adds ``DIR`` (relative
    to the directory the job starts in) to the search path after the app's ``config_path``
    (``search_path.prepend(..., anchor=SearchPathQuery(provider="schema"))`` in
    ``hydra/_internal/utils.py``). The primary config is composed from the first of the two
    that holds it; configs of the other directory are not searched (a note says so)."""
    if not flag or name is None:
        return config_dir, ""
    extra = (project.root / flag).resolve()
    shown = relative(extra, project.root) or "."
    if not os.path.isdir(extra) or not project.may_read(extra):
        return config_dir, ""
    if config_dir is not None and os.path.isdir(config_dir) and _has_config(config_dir, name):
        return config_dir, (f"--config-dir {flag}: the primary config {name!r} is found first in the app's "
                            f"config_path; configs only in {shown} are not searched")
    if not _has_config(extra, name):
        return config_dir, ""
    return extra, (f"--config-dir {flag}: the primary config {name!r} is read from {shown} (the launch "
                   "line's config directory); configs only in the app's config_path are not searched")


def compose_with_origins(project: Project, app: HydraApp, composition: Composition,
                         config_dir: Optional[Path] = None) -> Composed:
    """``composition`` with its configs loaded: the file, line and key each value of the composed
    config comes from (its origins), the command-line overrides applied."""
    files: dict[str, LoadedConfig] = {}
    origins: dict[tuple[str, ...], tuple[str, Optional[int], str]] = {}
    item_configs: list[tuple[Item, LoadedConfig]] = []
    for item in composition.items:
        loaded = _load(project, item, files)
        if loaded is None:
            continue
        item_configs.append((item, loaded))
        data = loaded.data if isinstance(loaded.data, dict) else {}
        prefix = tuple(p for p in item.package.split(".") if p)
        for path, value in composed_leaves(data, ()):
            if path[:1] == ("defaults",):
                continue
            full = (*prefix, *path)
            if value == MISSING and full in origins:
                continue  # OmegaConf keeps the earlier value over ???
            for cut in range(len(prefix) + 1, len(full) + 1):
                origins.setdefault(full[:cut], (loaded.path, loaded.line_of(path[: cut - len(prefix)],
                                                                             nearest=True), ""))
            origins[full] = (loaded.path, loaded.line_of(path, nearest=True), ".".join(map(str, path)))
    cli: dict[tuple[str, ...], str] = {}
    for ov in composition.overrides:
        if ov.prefix != "~" and not ov.sweep and "@" not in ov.key:
            cli[tuple(ov.key.split("."))] = ov.text
    missing = []
    for path, value in composed_leaves(composition.config, ()):
        if value == MISSING:
            origin = origins.get(path)
            missing.append((path, origin[0] if origin else None, origin[1] if origin else None))
    return Composed(app, composition, origins, cli, files, missing, item_configs, config_dir)


def targeted_nodes(config: dict[str, Any]) -> list[tuple[tuple[str, ...], str, str]]:
    """Nodes of a composed config whose ``_target_`` names a kind preflight validates
    (Lightning ``Trainer``, TrainingArguments, SFTConfig): (key path, kind, target)."""
    from preflight.validate_kinds import target_kind

    out = []
    for path, node in _nodes(config, ()):
        target = node.get("_target_")
        kind = target_kind(target)
        if kind is not None:
            out.append((path, kind, str(target)))
    return out


def _load(project: Project, item: Item, files: dict[str, LoadedConfig]) -> Optional[LoadedConfig]:
    if item.file is None:
        return None
    display = relative(item.file, project.root)
    if display in files:
        return files[display]
    source = read_source(item.file, display, "yaml")
    if isinstance(source, FileError):
        return None
    loaded = load_config(source)
    if isinstance(loaded, FileError):
        return None
    files[display] = loaded
    return loaded


def composed_leaves(data: Any, path: tuple[str, ...]) -> list[tuple[tuple[str, ...], Any]]:
    """(key path, value) of every leaf of a loaded config under ``path``; an empty mapping below the
    top is a leaf (``optimizer: {}``)."""
    out: list[tuple[tuple[str, ...], Any]] = []
    if isinstance(data, dict):
        if not data and path:
            out.append((path, data))
        for key, value in data.items():
            out.extend(composed_leaves(value, (*path, str(key))))
    else:
        out.append((path, data))
    return out


def _nodes(data: Any, path: tuple[str, ...], depth: int = 0) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
    out: list[tuple[tuple[str, ...], dict[str, Any]]] = []
    if isinstance(data, dict) and depth <= 12:
        out.append((path, data))
        for key, value in data.items():
            out.extend(_nodes(value, (*path, str(key)), depth + 1))
    return out

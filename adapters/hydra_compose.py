"""Composing a Hydra config without running the app (helper of the Hydra adapter).

Two paths give the same :class:`Composition`:

* **hydra-core** (the ``hydra`` extra): ``initialize_config_dir`` + ``compose`` for the
  values and ``ConfigLoader.compute_defaults_list`` for which file each part came from.
  Compose reads YAML files only: it never imports the user's code and never
  instantiates ``_target_`` (only ``hydra.utils.instantiate`` does). Two cases would
  import user code, so preflight's composer takes them: a primary config whose
  ``hydra.searchpath`` names a ``pkg://`` package, and a ``hydra_plugins`` folder on
  ``sys.path`` outside installed packages (hydra-core imports every plugin it finds).
* **preflight's composer**, for the documented common subset (files read with OmegaConf's
  YAML loader, merged with OmegaConf's merge rules on plain data): defaults
  lists with config groups, ``_self_`` (appended last when absent), ``override``,
  ``optional``, ``null`` options, ``group@package`` and ``# @package`` headers
  (``_global_``), config (non-group) entries, and command-line overrides
  ``group=option``, ``+group=option``, ``~group``, ``key=value``, ``+key=value``,
  ``++key=value``, ``~key``. Not supported: ConfigStore (structured) configs, search
  path plugins, defaults-list interpolation, sweeps.

Interpolations are resolved on plain data, never by OmegaConf (:mod:`preflight.adapters.
hydra_values`, which also reads an override's value).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence, Union

from preflight.adapters.hydra_files import (  # noqa: F401  (moved; re-exported)
    ComposeError,
    ConfigFile,
    OutsideConfigDir,
    check_name,
    find_file,
    merge,
    read_config_file,
    within,
    yaml_error,
)
from preflight.adapters.hydra_values import (  # noqa: F401 (Unknown, resolve: the adapter's names)
    _ABSENT,
    MAX_DEPTH,
    MISSING,
    Unknown,
    parse_value,
    resolve,
)

from preflight.sources import read_text_limited

MAX_ITERATIONS = 8






@dataclass(frozen=True)
class Item:
    """One entry of the final defaults list: a config file merged at a package."""

    config_path: str  # "trainer/gpu" (no extension)
    package: str  # "trainer", "" for the top level
    file: Optional[Path]  # None for configs outside the config directory (Hydra's own)


@dataclass
class Override:
    """One command-line override, parsed."""

    text: str
    key: str
    value: Any = None
    prefix: str = ""  # "", "+", "++", "~"
    sweep: bool = False


@dataclass
class Composition:
    config: dict[str, Any]
    items: list[Item]
    overrides: list[Override]
    method: str  # "hydra-core 1.3.8" or "preflight's composer"
    notes: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------- overrides


def parse_overrides(tokens: Sequence[str]) -> tuple[list[Override], dict[str, str], list[str]]:
    """Overrides, Hydra flags (config-name, config-path, config-dir, multirun) and notes."""
    overrides: list[Override] = []
    flags: dict[str, str] = {}
    notes: list[str] = []
    names = {"--config-name": "config_name", "-cn": "config_name", "--config-path": "config_path",
             "-cp": "config_path", "--config-dir": "config_dir", "-cd": "config_dir"}
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        i += 1
        if tok.startswith("-") and not tok.startswith("--") and len(tok) > 1 and tok not in names \
                and tok not in ("-m",):
            continue
        if tok in ("-m", "--multirun"):
            flags["multirun"] = "1"
            notes.append("--multirun: each job of the sweep composes its own config; the plan shows the "
                         "overrides that are not sweeps")
            continue
        head, eq, val = tok.partition("=")
        if head in names:
            if eq:
                flags[names[head]] = val
            elif i < len(tokens):
                flags[names[head]] = tokens[i]
                i += 1
            continue
        if tok.startswith("--"):
            continue  # --cfg, --resolve, --info ...: not composition
        if tok.startswith("~"):
            overrides.append(Override(tok, head[1:], parse_value(val) if eq else None, "~"))
            continue
        if not eq:
            continue
        prefix = "++" if head.startswith("++") else "+" if head.startswith("+") else ""
        key = head[len(prefix):]
        if key.startswith(("hydra.", "hydra/")) or key == "hydra":
            continue  # Hydra's own settings (run dir, launcher, sweeper): not the job's config
        sweep = ("," in val and not val.strip().startswith(("[", "{", "'", '"'))) or val.startswith(
            ("range(", "choice(", "interval(", "glob("))
        overrides.append(Override(tok, key, None if sweep else parse_value(val), prefix, sweep))
        if sweep:
            notes.append(f"override {tok!r} is a sweep (multirun); its value is not a fact")
    return overrides, flags, notes


# --------------------------------------------------------------------------- files






















def defaults_line(path: Path, index: int) -> Optional[int]:
    """The line of entry ``index`` of the defaults list of ``path`` (None if not found)."""
    import yaml

    try:
        node = yaml.compose(read_text_limited(path), Loader=yaml.SafeLoader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if key.value == "defaults" and isinstance(value, yaml.SequenceNode) and index < len(value.value):
                return int(value.value[index].start_mark.line) + 1
    return None


def _entry_text(entry: Any) -> str:
    if isinstance(entry, dict) and len(entry) == 1:
        (key, value), = entry.items()
        return f"{key}: {value}"
    return str(entry)


def strip_config_ext(name: str) -> str:
    """A config name without its ``.yaml``/``.yml`` extension (``trainer/gpu.yaml`` -> ``trainer/gpu``)."""
    for ext in (".yaml", ".yml"):
        if name.endswith(ext):
            return name[: -len(ext)]
    return name


def _join(*parts: str) -> str:
    return ".".join(p for p in parts if p)


def _abs_package(pkg: str) -> Optional[str]:
    if pkg == "_global_":
        return ""
    if pkg.startswith("_global_."):
        return pkg[len("_global_."):]
    return None


# --------------------------------------------------------------------------- own composer


_Choice = Union[str, "list[str]", None]  # a group's option, several (a list), or deleted


class Composer:
    """preflight's defaults-list composer (the common subset of Hydra >= 1.1)."""

    def __init__(self, config_dir: Path, overrides: Sequence[Override], legacy: bool = False,
                 skipped: Optional[list[str]] = None) -> None:
        self.config_dir = config_dir
        # given: a group option whose file is missing is left out and named here instead of stopping the
        # composition (:mod:`preflight.adapters.hydra_partial`)
        self.skipped = skipped
        # Hydra before 1.0 (denisyarats/pytorch_sac @ 81c5b53 ``config_path='config/train.yaml'``): a group's
        # file is merged at the top level (``config/agent/sac.yaml``'s ``agent:`` is ``agent``, not ``agent.agent``)
        self.legacy = legacy
        self.cli_groups: dict[str, _Choice] = {}  # group key -> option (None: deleted)
        self.cli_added: list[tuple[str, str]] = []
        self.values: list[Override] = []
        self.notes: list[str] = []
        self.cache: dict[Path, ConfigFile] = {}
        for ov in overrides:
            group = ov.key.split("@", 1)[0]
            try:
                check_name(config_dir, group)
                if os.path.isdir(config_dir / group) and ov.prefix != "~" and ov.value is not None:
                    check_name(config_dir, f"{group}/{strip_config_ext(str(ov.value))}")
            except OutsideConfigDir as exc:
                raise ComposeError(f"the command-line override {ov.text} names '{exc.config_path}', outside "
                                   f"the config directory ({exc.why()}); not read") from None
            if os.path.isdir(config_dir / group):
                if ov.prefix == "~":
                    self.cli_groups[ov.key] = None
                elif ov.prefix.startswith("+") and ov.key not in self.cli_groups:
                    self.cli_added.append((ov.key, str(ov.value)))
                else:
                    self.cli_groups[ov.key] = None if ov.value is None else \
                        [str(v) for v in ov.value] if isinstance(ov.value, list) else str(ov.value)
            else:
                self.values.append(ov)

    def load(self, path: Path) -> ConfigFile:
        found = self.cache.get(path)
        if found is None:
            found = self.cache[path] = read_config_file(path)
        return found

    def defaults_list(self, config_name: str) -> list[Item]:
        try:
            primary = find_file(self.config_dir, strip_config_ext(config_name))
        except OutsideConfigDir as exc:
            raise ComposeError(f"the primary config '{config_name}' is outside the config directory "
                               f"({exc.why()}); not read") from None
        if primary is None:
            raise ComposeError(f"Cannot find primary config '{config_name}' in {self.config_dir}")
        config_overrides: dict[str, _Choice] = {}
        items: list[Item] = []
        for _ in range(MAX_ITERATIONS):
            found: dict[str, _Choice] = {}
            used: set[str] = set()
            items = []
            header = self.load(primary).header
            top = (_abs_package(header) if _abs_package(header) is not None else header) if header else ""
            self._expand(strip_config_ext(config_name), primary, top or "", None, True,
                         {**config_overrides, **self.cli_groups}, found, used, items, 0)
            if found == config_overrides:
                break
            config_overrides = found
        missing = [k for k in self.cli_groups if k not in used]
        for key in missing:
            raise ComposeError(f"Could not override '{key}'. No match in the defaults list. "
                               f"To append to your default list use +{key}={self.cli_groups[key]}")
        return items

    def _expand(self, config_path: str, file: Path, package: str, group: Optional[str], primary: bool,
                choices: dict[str, _Choice], found: dict[str, _Choice], used: set[str],
                items: list[Item], depth: int) -> None:
        if depth > MAX_DEPTH:
            raise ComposeError(f"defaults list nested deeper than {MAX_DEPTH} levels at {config_path}")
        cfg = self.load(file)
        own_group = config_path.rsplit("/", 1)[0] if "/" in config_path else ""
        entries = list(cfg.defaults)
        if primary:
            entries.extend({f"{k}": v} for k, v in self.cli_added)
        if "_self_" not in entries:
            entries.append("_self_")
        for index, entry in enumerate(entries):
            if entry == "_self_":
                items.append(Item(strip_config_ext(config_path), package, file))
                continue
            try:
                self._entry(entry, config_path, file, own_group, package, choices, found, used, items, depth)
            except OutsideConfigDir as exc:
                if index >= len(cfg.defaults):  # an entry added by +group=option
                    raise ComposeError(f"the command-line override +{_entry_text(entry).replace(': ', '=')} "
                                       f"names '{exc.config_path}', outside the config directory "
                                       f"({exc.why()}); not read") from None
                raise ComposeError(f"defaults entry '{_entry_text(entry)}' names '{exc.config_path}', outside "
                                   f"the config directory ({exc.why()}); not read", file,
                                   defaults_line(file, index)) from None

    def _entry(self, entry: Any, config_path: str, file: Path, own_group: str, package: str,
               choices: dict[str, _Choice], found: dict[str, _Choice], used: set[str],
               items: list[Item], depth: int) -> None:
        """Expand one defaults list entry of ``file`` (not ``_self_``)."""
        if isinstance(entry, str):
            self._config_entry(entry, own_group, package, choices, found, used, items, depth)
            return
        if not isinstance(entry, dict) or len(entry) != 1:
            raise ComposeError(f"{file}: unsupported defaults list entry {entry!r}")
        (key, option), = entry.items()
        key = str(key).strip()
        words = key.split()
        is_override = "override" in words[:-1]
        optional = "optional" in words[:-1]
        key = words[-1]
        group_key, _, pkg = key.partition("@")
        absolute = group_key.startswith("/")
        group_path = group_key[1:] if absolute else "/".join(p for p in (own_group, group_key) if p)
        match_key = group_path + (f"@{pkg}" if pkg else "")
        if is_override:
            for opt in option if isinstance(option, list) else [] if option is None else [option]:
                check_name(self.config_dir, f"{group_path}/{strip_config_ext(str(opt))}")
            # ``override /callbacks: [default, norm-monitor]``: a list selects several options
            found[match_key] = None if option is None else \
                [str(o) for o in option] if isinstance(option, list) else str(option)
            return
        global_key = group_path if pkg == "_global_" else None
        if match_key in choices:
            used.add(match_key)
            option = choices[match_key]
        elif global_key is not None and global_key in choices:
            # Hydra 1.1's override key for a group at the global package is the group alone
            # (InputDefault.get_override_key: final package "" -> no "@"); Hydra >= 1.2 wants
            # `group@_global_=...` (facebookresearch/hydra#1791)
            used.add(global_key)
            option = choices[global_key]
            self.notes.append(f"override {global_key}={option} selects the defaults entry {match_key} "
                              f"({_relative_file(self.config_dir, file)}): Hydra 1.1 keys a group at the "
                              f"global package by the group alone; Hydra >= 1.2 asks for {match_key}={option}")
        if option is None:
            return
        options = option if isinstance(option, list) else [option]
        for opt in options:
            opt_path = f"{group_path}/{strip_config_ext(str(opt))}"
            child = find_file(self.config_dir, opt_path)
            if child is None:
                if optional:
                    continue
                if self.skipped is not None:
                    self.skipped.append(opt_path)
                    continue
                raise ComposeError(f"Could not find '{opt_path}' (in the defaults list of "
                                   f"{config_path}); ConfigStore entries are registered by code "
                                   "preflight does not run")
            child_pkg = self._package(child, pkg, package,
                                      "" if self.legacy else group_key.lstrip("/").replace("/", "."))
            self._expand(opt_path, child, child_pkg, group_path, False, choices, found, used, items, depth + 1)

    def _config_entry(self, entry: str, own_group: str, package: str, choices: dict[str, _Choice],
                      found: dict[str, _Choice], used: set[str], items: list[Item], depth: int) -> None:
        name, _, pkg = entry.partition("@")
        optional = name.startswith("optional ")
        name = name.split()[-1]
        path = name[1:] if name.startswith("/") else "/".join(p for p in (own_group, name) if p)
        path = strip_config_ext(path)
        child = find_file(self.config_dir, path)
        if child is None:
            if optional:
                return
            if self.skipped is not None:
                self.skipped.append(path)
                return
            raise ComposeError(f"Could not find '{path}' in the config directory {self.config_dir}")
        child_pkg = self._package(child, pkg, package, "")
        self._expand(path, child, child_pkg, None, False, choices, found, used, items, depth + 1)

    def _package(self, child: Path, entry_pkg: str, parent_pkg: str, default_rel: str) -> str:
        if entry_pkg:
            absolute = _abs_package(entry_pkg)
            return absolute if absolute is not None else _join(parent_pkg, entry_pkg)
        header = self.load(child).header
        if header:
            absolute = _abs_package(header)
            return absolute if absolute is not None else header
        return _join(parent_pkg, default_rel)

    def compose(self, config_name: str) -> Composition:
        items = self.defaults_list(config_name)
        data: dict[str, Any] = {}
        for item in items:
            assert item.file is not None
            data = merge(data, _wrap(item.package, self.load(item.file).body))
        apply_values(data, self.values)
        data.pop("hydra", None)  # Hydra's own settings (compose drops them too)
        items = [i for i in items if i.package != "hydra" and not i.package.startswith("hydra.")]
        return Composition(data, items, [], "preflight's composer (OmegaConf)", list(dict.fromkeys(self.notes)))


def _wrap(package: str, body: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = body
    for part in reversed([p for p in package.split(".") if p]):
        out = {part: out}
    return out


def apply_values(data: dict[str, Any], overrides: Sequence[Override]) -> None:
    """Apply ``key=value`` overrides the way Hydra does (struct mode: a new key needs ``+``)."""
    for ov in overrides:
        if ov.sweep:
            continue
        parts = ov.key.split(".")
        node: Any = data
        for part in parts[:-1]:
            if not isinstance(node, dict):
                node = None
                break
            if part not in node and ov.prefix in ("+", "++"):
                node[part] = {}
            node = node.get(part)
        last = parts[-1]
        if not isinstance(node, dict):
            raise ComposeError(f"Could not override '{ov.key}': its parent is not a mapping")
        if ov.prefix == "~":
            if last not in node:
                raise ComposeError(f"Could not delete from config. '{ov.key}' does not exist.")
            del node[last]
        elif ov.prefix == "+" and last in node:
            raise ComposeError(f"Could not append to config. An item is already at '{ov.key}'.")
        elif ov.prefix == "" and last not in node:
            raise ComposeError(f"Could not override '{ov.key}'. To append to your config use +{ov.text}")
        else:
            node[last] = ov.value


def _global_group_key(message: str) -> bool:
    """hydra-core's refusal of ``group=...`` for a defaults entry ``group@_global_``."""
    return bool(re.search(r"Could not override '([\w/.-]+)'\.\s*Did you mean to override \1@_global_\?", message))


def _relative_file(config_dir: Path, file: Path) -> str:
    try:
        return file.relative_to(config_dir).as_posix()
    except ValueError:
        return file.name


def compose(config_dir: Path, config_name: str, tokens: Sequence[str], version_base: Optional[str], *,
            use_hydra: bool = True, skipped: Optional[list[str]] = None) -> Composition:
    """Compose ``config_name`` from ``config_dir`` with the launch ``tokens``: with hydra-core
    when it is importable (and ``use_hydra``), else with preflight's composer (``skipped``: see
    :class:`Composer`)."""
    from preflight.adapters.hydra_core_compose import (
        HydraReadRefused,
        _about_hydra_settings,
        _first_line,
        compose_with_hydra,
        hydra_available,
        local_plugin_dirs,
        searchpath_packages,
    )

    overrides, _, notes = parse_overrides(tokens)
    legacy = version_base is not None and version_base.startswith("0.")
    version = hydra_available() if use_hydra and not legacy else None
    if legacy:
        notes.append("a Hydra app from before 1.0 (config_path names the primary config file): composed by "
                     "preflight's composer with that Hydra's rule, config group files merged at the top level")
    packages = searchpath_packages(config_dir, config_name) if version else []
    local_plugins = local_plugin_dirs() if version else []
    if local_plugins:
        notes.append(f"{', '.join(local_plugins)} would be imported by hydra-core's plugin discovery, so "
                     "preflight's composer was used")
        version = None
    elif packages:
        notes.append(f"hydra.searchpath names {', '.join(packages)}: hydra-core would import it, so "
                     "preflight's composer was used (search path entries are not followed)")
        version = None
    result = None
    refused: Optional[HydraReadRefused] = None
    if version is not None:
        try:
            result = compose_with_hydra(config_dir, config_name, overrides, version_base)
        except HydraReadRefused as exc:
            refused = exc
            notes.append(f"{exc}: composed by preflight's composer")
        except ComposeError as exc:
            if _global_group_key(str(exc)):
                # hydra-core >= 1.2 asks for `group@_global_=...`; Hydra 1.1 took `group=...`
                # (facebookresearch/hydra#1791): composed with the 1.1 rule, said in a note
                notes.append(f"hydra-core {version}: {' '.join(str(exc).splitlines()[:2])}; composed by "
                             "preflight's composer with Hydra 1.1's rule")
            elif not _about_hydra_settings(str(exc)):
                raise
            else:
                # e.g. `override hydra/job_logging: colorlog` without the hydra-colorlog plugin:
                # Hydra's own settings, not the job's config, so compose the job's config without them
                notes.append(f"hydra-core could not compose Hydra's own settings ({_first_line(str(exc))}); "
                             "the job's config was composed by preflight's composer")
    if result is None:
        composer = Composer(config_dir, overrides, legacy=legacy, skipped=skipped)
        try:
            result = composer.compose(config_name)
        except ComposeError as exc:
            if refused is None or "outside the config directory" in str(exc):
                raise
            raise ComposeError(f"{exc} ({refused})", exc.file, exc.line) from None
        result.overrides = list(overrides)
        if use_hydra and hydra_available() is None:
            notes.append("hydra-core is not installed (the 'hydra' extra): composed by preflight's composer")
    result.notes = notes + result.notes
    return result


def relative(path: Path, root: Path) -> str:
    try:
        return Path(os.path.relpath(path, root)).as_posix()
    except ValueError:
        return path.as_posix()

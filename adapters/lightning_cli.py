"""The Trainer of a ``LightningCLI`` script, read from the YAML config its launch line names.

``LightningCLI`` builds the Trainer from the ``trainer:`` section of the config files given with
``-c``/``--config`` (later files win) and from ``--trainer.KEY=VALUE`` flags (which win over the files);
what neither sets keeps the Trainer's own default (Lightning ``cli.py`` ``LightningCLI.instantiate_trainer``
-> ``Trainer(**config["trainer"])``, jsonargparse defaults from the Trainer signature). gemelo-ai/vocos
@ c859e3b7 ``train.py:5`` ``cli = LightningCLI(run=False)`` launched as ``python train.py -c
configs/vocos.yaml``, whose ``trainer:`` holds ``accelerator: gpu``, ``strategy: ddp``, ``devices: [0]``
(``configs/vocos.yaml:85-88``): one device, DDP, no accumulation (the default), 32-bit precision (the
default).

The section is handed to :meth:`preflight.adapters.lightning.LightningPass.trainer` as the keywords of a
``Trainer(...)`` call, each value keeping its file and line. Not read (the note stays): a CLI with
``trainer_defaults=`` that is not a literal dict, a ``trainer_class=``, ``parser_kwargs=`` (default config
files) or ``env_parse=``, a config file the audit did not
load, or a section whose precision/strategy/devices/num_nodes/accumulation is not a plain value (a
``class_path`` strategy): then only the plain keys are read, with no default assumed.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters_api import CallSite, Resolved

_KEYS = ("precision", "strategy", "devices", "gpus", "num_nodes", "accumulate_grad_batches", "accelerator",
         "use_distributed_sampler", "replace_sampler_ddp")


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str)) or (
        isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value))


def _flag_value(text: str) -> Any:
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("null", "none"):
        return None
    if low.lstrip("-").isdigit():
        return int(low)
    return text


def _config_files(argv: list[str]) -> Optional[list[str]]:
    out: list[str] = []
    for k, tok in enumerate(argv):
        name, eq, val = tok.partition("=")
        if name in ("-c", "--config"):
            value = val if eq else (argv[k + 1] if k + 1 < len(argv) else None)
            if value is None or value.startswith("$"):
                return None
            out.append(value)
    return out


def _default_sections(pass_: Any, paths: list) -> Optional[list[tuple[Any, str]]]:
    """The ``default_config_files`` a CLI subclass names, loaded: (config, shown path); None if one fails."""
    from pathlib import Path

    from preflight.loaders import LoadedConfig, load_config_text
    from preflight.sources import read_text_limited

    out = []
    for path in paths:
        try:
            shown = str(Path(path).resolve().relative_to(Path(str(pass_.project.root)).resolve()))
        except (ValueError, OSError, TypeError):
            shown = str(path)
        try:
            loaded = load_config_text(read_text_limited(path, errors="replace"), "yaml", shown)
        except OSError:
            return None
        if not isinstance(loaded, LoadedConfig) or not isinstance(loaded.data, dict):
            return None
        out.append((loaded, shown))
    return out


def _section_file(pass_: Any, config: Any, name: str) -> Optional[tuple[Any, str, Any]]:
    """(the loaded file, its path as shown, its data) of a section a config gives as a YAML path, resolved beside
    that config (then from the project root); None when it is not a YAML path or not found or not a mapping."""
    from pathlib import Path

    if not name.endswith((".yaml", ".yml")) or "$" in name:
        return None
    root = Path(str(pass_.project.root))
    here = Path(str(config.path))
    here = here if here.is_absolute() else root / here
    path = next((p for p in (here.parent / name, root / name) if p.is_file()), None)
    if path is None:
        return None
    got = _default_sections(pass_, [path])
    if not got:
        return None
    loaded, shown = got[0]
    return loaded, shown, loaded.data


_SUBCOMMANDS = ("fit", "validate", "test", "predict")


def _subcommand_section(config: Any, argv: list[str]) -> Any:
    """A config given before the subcommand (``pythpc --config X.yaml fit``) is parsed by the top-level parser,
    so its settings sit under the subcommand's name (Ruunyox/pytorch-hpc @ c5848148
    ``examples/fit/fashion_mnist_fcc_multi_node_multi_gpu.yaml:1`` ``fit:`` above ``trainer:``, ``model:``,
    ``data:``; jsonargparse's subcommand configs): that section, as a config of its own, keeping its lines."""
    from preflight.loaders import LoadedConfig

    sub = next((tok for tok in argv if tok in _SUBCOMMANDS), None)
    data = config.data if isinstance(config, LoadedConfig) else None
    if sub is None or not isinstance(data, dict) or "trainer" in data or not isinstance(data.get(sub), dict):
        return config
    lines = {k[1:]: v for k, v in config.lines.items() if k[:1] == (sub,) and len(k) > 1}
    return LoadedConfig(config.path, config.kind, data[sub], lines, list(config.notes), config.header)


def cli_trainer(pass_: Any, site: CallSite) -> bool:
    """Read ``site`` (a ``LightningCLI(...)`` call, or a call of a project subclass of it) as the Trainer its
    config builds; False when the config is not known (the caller keeps its note)."""
    chain = getattr(pass_, "cli_chains", {}).get(id(site.call))
    given = {kw.arg: kw.value for kw in site.call.keywords if kw.arg}
    if chain is not None:
        given = {**chain.keywords, **given}  # the subclass hands its own keywords on (``**kwargs``)
        if chain.unknown:
            return False
    if any(k in given for k in ("trainer_class", "env_parse", "args")):
        return False
    if chain is None and "parser_kwargs" in given:
        # ``LightningCLI(parser_kwargs={"fit": {"default_config_files": ["config.fit.yaml"]}})``
        from pathlib import Path

        from preflight.adapters.lightning_cli_subclass import CliChain, _default_files, _imports

        tree = pass_.script.tree
        if not isinstance(tree, ast.Module) or pass_.script.source.path is None:
            return False
        chain = CliChain()
        _default_files(given["parser_kwargs"], tree, _imports(tree), Path(str(pass_.script.source.path)), chain)
        if chain.unknown:
            return False
    argv = [str(a) for a in pass_.idx.args]
    files = _config_files(argv)
    if files is None:
        return False
    flags = any(tok.startswith("--trainer.") for tok in argv)
    if not files and not (chain is not None and (chain.default_files or flags)):
        return False
    loaded: list[tuple[Any, Optional[str]]] = []
    for name in files:
        norm = name.replace("\\", "/").lstrip("./")
        found = [c for _, c in pass_.project.configs
                 if str(c.path).replace("\\", "/").endswith(norm) and isinstance(c.data, dict)]
        if len(found) != 1:
            return False
        loaded.append((found[0], None))
    loaded = [(_subcommand_section(config, argv), shown) for config, shown in loaded]
    if chain is not None and chain.default_files:
        defaults_loaded = _default_sections(pass_, chain.default_files)
        if defaults_loaded is None:
            return False
        loaded = [*defaults_loaded, *loaded]  # default config files first: the files given win over them
    keywords: dict[str, tuple[Any, Resolved]] = {}
    plain = True
    defaults = given.get("trainer_defaults")
    if defaults is not None:
        if not isinstance(defaults, ast.Dict):
            return False
        for k, v in zip(defaults.keys, defaults.values):
            if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
                return False
            if k.value in _KEYS:
                if not isinstance(v, ast.Constant):
                    plain = False
                    continue
                keywords[k.value] = (v.value, Resolved(v.value, "code", v.lineno, None,
                                                       f"LightningCLI(trainer_defaults={{{k.value!r}: ...}})"))
    for config, shown in loaded:
        section = config.data.get("trainer")
        if section is None:
            continue
        if isinstance(section, str):
            # ``trainer: lisu_trainer.yaml``: jsonargparse reads a group given as a path from that file, relative
            # to the config naming it (malicd/LiSu @ 1be5fb5 ``configs/lisu_ptv3_..._fulltrainval.yaml:65``)
            got = _section_file(pass_, config, section)
            if got is None:
                return False
            config, shown, section = got
        if not isinstance(section, dict):
            return False
        for key, value in section.items():
            if key not in _KEYS:
                continue
            if not _scalar(value):
                plain = False
                keywords.pop(key, None)
                continue
            if shown is None:
                source = pass_.project.config_source(config, ("trainer", key))
                keywords[key] = (value, Resolved(value, "config", source.line, source.key, str(source.path)))
            elif "trainer" not in config.data:  # the section's own file: its keys sit at the top
                keywords[key] = (value, Resolved(value, "config", config.line_of((key,), nearest=True), key, shown))
            else:
                line = config.line_of(("trainer", key), nearest=True)
                keywords[key] = (value, Resolved(value, "config", line, f"trainer.{key}", shown))
    for i, tok in enumerate(argv):
        name, eq, val = tok.partition("=")
        if not name.startswith("--trainer."):
            continue
        key = name[len("--trainer."):]
        if key not in _KEYS:
            if "." in key and key.split(".", 1)[0] in _KEYS:
                plain = False
                keywords.pop(key.split(".", 1)[0], None)
            continue
        raw = val if eq else (argv[i + 1] if i + 1 < len(argv) else None)
        if raw is None or raw.startswith("$"):
            return False
        value = _flag_value(raw)
        keywords[key] = (value, Resolved(value, "cli", None, name, f"{name} {raw} (LightningCLI)"))
    if chain is not None:
        for key, when, to, detail in chain.rewrites:
            if key in keywords and keywords[key][0] == when:
                old = keywords[key][1]
                why = old.detail if old.kind == "config" else f"{old.detail}; {detail}"  # a config's detail: its path
                keywords[key] = (to, Resolved(to, old.kind, old.line, old.key, why))
        for key in chain.dropped:  # an override sets the key in a way not read
            plain = False
            keywords.pop(key, None)
    nodes = []
    for key, (value, resolved) in keywords.items():
        node = ast.copy_location(ast.Constant(value=value), site.call)
        pass_.mapped[id(node)] = resolved
        nodes.append(ast.keyword(arg=key, value=node))
    call = ast.copy_location(ast.Call(func=site.call.func, args=[], keywords=nodes), site.call)
    pass_.mapped_calls.append(call)  # kept alive: `mapped` is keyed by the ids of its nodes
    if chain is not None:
        pass_.medium_calls.add(id(call))
    synthetic = CallSite(site.script, call, site.name, site.qualified, site.target, site.guards, site.function,
                         site.klass)
    shown = ", ".join([*(name for _, name in loaded if name is not None), *files]) or "no config file"
    if plain:
        via = f" (through {' -> '.join(chain.names)})" if chain is not None and chain.names else ""
        pass_.note(f"{pass_.where(site.call)}: LightningCLI{via}: the Trainer is built from the trainer: section of "
                   f"{shown} and the --trainer.* flags; what they do not set keeps the Trainer's default")
        pass_.trainer(synthetic)
    else:
        pass_.note(f"{pass_.where(site.call)}: LightningCLI: the plain keys of {shown}'s trainer: section are read; "
                   "one is an object (class_path), so no Trainer default is assumed")
        pass_.explicit_only(synthetic, "medium")
    from preflight.adapters.lightning_cli_data import cli_sections

    cli_sections(pass_, site, argv, loaded)  # --optimizer, --data (lightning_cli_data.py)
    return True

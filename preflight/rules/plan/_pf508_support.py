"""Helpers of the plan rules PF508-PF513 (issue 18): TrainingArguments values from scripts and
argument files, the YAML files of Hydra config folders, walks over config trees."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator, Optional

from preflight.analysis.syntax import config_at, unpacked_key_path
from preflight.loaders import LoadedConfig
from preflight.plan_rules import PlanContext

ARG_CLASSES = ("TrainingArguments", "Seq2SeqTrainingArguments", "SFTConfig", "DPOConfig", "GRPOConfig",
               "ORPOConfig", "RewardConfig", "KTOConfig")
ARG_FILE_KEYS = frozenset({"output_dir", "per_device_train_batch_size", "learning_rate", "num_train_epochs",
                           "gradient_accumulation_steps", "save_strategy", "eval_strategy", "evaluation_strategy",
                           "logging_steps", "save_steps", "eval_steps", "load_best_model_at_end", "fp16", "bf16",
                           "max_grad_norm", "deepspeed", "warmup_ratio", "lr_scheduler_type"})


class ArgsSite:
    """One TrainingArguments-like set of values: a call in a script or an arguments file."""

    def __init__(self, values: dict[str, Any], where: Any, script: Any = None, call: Any = None,
                 config: Optional[LoadedConfig] = None, prefix: tuple = (), anchor: Any = None) -> None:
        self.values = values
        self.where = where
        self.script = script
        self.call = call
        self.config = config
        self.prefix = prefix  # the key path of the values in ``config`` (``TrainingArguments(**cfg["training"])``)
        self.anchor = anchor  # the launch line's values: the HfArgumentParser call that reads them

    def finding(self, pctx: PlanContext, rule: Any, key: str, message: str, evidence: Any = None) -> Any:
        if self.config is not None:
            return pctx.config_finding(rule, self.config, (*self.prefix, key), message, evidence=evidence)
        if self.anchor is not None:
            return pctx.code_finding(rule, self.script, self.anchor, message, evidence=evidence)
        expr = self.call.kwarg(key) if self.call is not None else None
        node = expr if expr is not None else self.call.call
        return pctx.code_finding(rule, self.script, node, message, evidence=evidence)


_UNSET = object()


def args_sites(pctx: PlanContext) -> Iterator[ArgsSite]:
    """Every TrainingArguments-like call with literal keyword values, and every arguments file."""
    for script in pctx.scripts:
        idx = pctx.index(script)
        for site in idx.calls:
            if site.last not in ARG_CLASSES:
                continue
            values: dict[str, Any] = {}
            for kw in site.call.keywords:
                if kw.arg is None:
                    yield from _unpacked_sites(pctx, kw.value)
                    continue
                found = idx.resolve(kw.value)
                values[kw.arg] = found.value if found is not None else _UNSET
            if values:
                yield ArgsSite(values, site.line, script=script, call=site)
    for config in pctx.configs:
        data = config.data
        if isinstance(data, dict) and len(ARG_FILE_KEYS & set(data)) >= 3:
            yield ArgsSite(dict(data), config.path, config=config)


def _unpacked_sites(pctx: PlanContext, expr: Any) -> Iterator[ArgsSite]:
    """``TrainingArguments(**cfg["training"])``: the mapping at that key path of the one
    config given to the audit that holds it."""
    path = unpacked_key_path(expr)
    if path is None:
        return
    at = [(c, config_at(c.data, path)) for c in pctx.configs]
    found = [(c, d) for c, d in at if d is not None and len(ARG_FILE_KEYS & set(d)) >= 2]
    if len(found) == 1:
        config, data = found[0]
        if not path and len(ARG_FILE_KEYS & set(data)) >= 3:
            return  # the whole file is an arguments file: already a site of its own
        yield ArgsSite(dict(data), config.path, config=config, prefix=path)


def launch_site(pctx: PlanContext) -> Optional[ArgsSite]:
    """The TrainingArguments of a script that reads them all from the launch line:
    ``HfArgumentParser((..., TrainingArguments)).parse_args_into_dataclasses()``, no JSON/YAML file,
    no ``<script>.args`` file, and a launch command that runs the script. Every key the line leaves
    out has its default."""
    import ast

    for script in pctx.scripts:
        parser = None
        methods = set()
        for node in ast.walk(script.tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name == "HfArgumentParser" and any(c in ast.unparse(node) for c in ARG_CLASSES):
                    parser = node
                if isinstance(func, ast.Attribute):
                    methods.add(func.attr)
        if parser is None or "parse_args_into_dataclasses" not in methods or methods & {
                "parse_json_file", "parse_yaml_file", "parse_dict"}:
            continue
        if "sys.argv" in script.source.text or Path(str(script.source.path)).with_suffix(".args").exists():
            continue
        tokens = pctx.project.script_args(script)
        if not tokens:
            continue
        return ArgsSite(_flags(tokens), "launch", script=script, anchor=parser)
    return None


def _flags(tokens: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        i += 1
        if not tok.startswith("--"):
            continue
        name, eq, text = tok[2:].partition("=")
        if not eq:
            if i < len(tokens) and not tokens[i].startswith("--"):
                text = tokens[i]
                i += 1
            else:
                text = "true"
        low = text.lower()
        out[name.replace("-", "_")] = True if low == "true" else False if low == "false" else (
            int(text) if text.lstrip("-").isdigit() else text)
    return out


def known(value: Any) -> bool:
    return value is not _UNSET


def literal_number(value: Any) -> Optional[float]:
    """A literal number, or numeric text (a launch-line flag arrives as text: ``"0.03"``); else None
    (booleans, unknown values, other text)."""
    if isinstance(value, bool) or not known(value):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def hydra_yaml_configs(pctx: PlanContext) -> list[LoadedConfig]:
    """The YAML configs given with --config, plus every YAML file under the Hydra config folders
    of the job (``--config conf/`` and each ``@hydra.main(config_path=...)`` folder)."""
    from preflight.loaders import load_config_file
    from preflight.workspace import display_path

    out = [c for c in pctx.configs if c.kind == "yaml"]
    seen = {c.path for c in out}
    folders: list[Path] = list(pctx.project.config_dirs)
    try:
        from preflight.adapters.hydra import find_apps

        folders += [a.config_dir for a in find_apps(pctx.project) if a.config_dir is not None]
    except Exception:
        pass
    done: set[str] = set()
    for folder in folders:
        real = os.path.realpath(folder)
        if real in done or not os.path.isdir(real):
            continue
        done.add(real)
        count = 0
        for path in sorted(Path(folder).rglob("*.y*ml")):
            count += 1
            if count > 500 or not path.is_file():
                break
            display = display_path(path, pctx.project.root)
            if display in seen:
                continue
            seen.add(display)
            loaded = load_config_file(path, display, "yaml")
            if loaded is not None:
                out.append(loaded)
    return out


def walk(data: Any, prefix: tuple = ()) -> Iterator[tuple[tuple, dict]]:
    """Every mapping of a config tree with its key path."""
    if isinstance(data, dict):
        yield prefix, data
        for key, value in data.items():
            yield from walk(value, (*prefix, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from walk(value, (*prefix, i))

"""PF601-PF603: config validation problems (:mod:`preflight.validate`) as audit findings.

The configs given with ``--config`` are validated as ``preflight validate`` does; the
files of each composed Hydra config are validated where a node targets a Lightning
``Trainer`` or TrainingArguments/SFTConfig (the node's part of each file of the defaults
list, read as OmegaConf reads it). Problems are computed once per audit and shared by
the three rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from preflight.diagnostics import Finding, Severity

if TYPE_CHECKING:
    from preflight.plan_rules import PlanContext, PlanRule
    from preflight.validate import Problem

RULE_OF_PROBLEM = {"unknown-key": "PF601", "wrong-type": "PF602", "invalid-value": "PF602"}
_SEVERITY = {"error": Severity.ERROR, "warning": Severity.WARNING, "note": Severity.NOTE}


def rule_code(problem: Problem) -> str:
    if problem.code.startswith("yaml11-"):
        return "PF603"
    return RULE_OF_PROBLEM.get(problem.code, "PF602")


def config_problems(pctx: PlanContext) -> list[Problem]:
    project = pctx.project
    cached = project.cache.get("validate.problems")
    if cached is not None:
        return cached
    from pathlib import Path

    from preflight.rules.config._pf603_keys import bool_keys
    from preflight.rules.config._pf603_scripts import script_read_floats
    from preflight.validate import dataclass_fields, drop_allowed_extra_keys, validate_loaded
    from preflight.validate_kinds import detect
    from preflight.validate_project import declared_fields, yaml_reader, yaml_to_flags

    known: set[str] = set()
    for script in project.scripts:
        known |= dataclass_fields(script.tree)
    problems: list[Problem] = []
    hf_reader = _hf_reader(project)
    for source, config in project.configs:
        extra = known
        flags_from = ""
        reader = hf_reader
        targets = detect(config, Path(source.path))
        if any(t.kind in ("training-args", "sft-config") for t in targets):
            if not reader:  # no script of the job says how it reads the file: its project's code does
                reader = yaml_reader(Path(source.path)) or ""
            # the fields the config's own project declares (LLaMA-Factory's hparams dataclasses), and a
            # loader of the project that passes each YAML key as a --flag (as `validate` reads them)
            extra = known | declared_fields(Path(source.path))
            flags_from = yaml_to_flags(Path(source.path)) if config.kind == "yaml" else ""
        overridden = _overridden(project, source, targets)
        found = drop_allowed_extra_keys(validate_loaded(
            config, source.text, known_extra=extra, hf_reader=reader or "pyyaml", flags_from=flags_from,
            targets=targets, overridden=overridden), targets, Path(source.path)).problems
        if not targets:  # a file of no known kind that an audited script reads with PyYAML
            found.extend(script_read_floats(project, config, source.text))
        elif any(t.kind == "axolotl" for t in targets) and not _runs_axolotl(project):
            found = _own_pyyaml_reader(project, config, source.text, found, script_read_floats)
        problems.extend(found)
        problems.extend(bool_keys(config, source.text, project))
    problems.extend(_hydra_problems(project))
    problems.extend(_composed_file_traps(project, {source.path for source, _ in project.configs}))
    seen: set[tuple[Any, ...]] = set()
    unique = []
    for p in sorted(problems, key=lambda p: p.sort_key()):
        if (p.path, p.line, p.key, p.code) not in seen:
            seen.add((p.path, p.line, p.key, p.code))
            unique.append(p)
    project.cache["validate.problems"] = unique
    return unique


def _runs_axolotl(project: Any) -> bool:
    """The job runs axolotl itself: a script imports it or the launch line runs ``-m axolotl.cli...``."""
    if any("axolotl" in str(a) for a in (project.argv or ())):
        return True
    for script in project.scripts:
        text = script.text if script.text is not None else script.source.text
        if text and ("import axolotl" in text or "from axolotl" in text):
            return True
    return False


def _own_pyyaml_reader(project: Any, config: Any, text: str, found: list[Problem], script_read_floats: Any
                       ) -> list[Problem]:
    """An axolotl-shaped file that the job's own script reads with PyYAML (``cfg = yaml.safe_load(f)``,
    no axolotl in the job): axolotl's pydantic models, which would turn ``7e-6`` into a number, never
    see it, so the note the axolotl kind gives is replaced by the script reader's warning."""
    own = script_read_floats(project, config, text)
    if not own:
        return found
    lines = {p.line for p in own}
    kept = [p for p in found if not (p.code == "yaml11-float" and p.severity == "note" and p.line in lines)]
    return kept + own


def _overridden(project: Any, source: Any, targets: list[Any]) -> dict[str, dict[str, str]]:
    """Per kind, the keys whose value the job sets again after reading the file: the audited
    ``accelerate launch`` line's own options when it names this file (else those every launch
    line of the file's project passes), and the fields the project's code reassigns after
    parsing (:mod:`preflight.validate_overrides`)."""
    from pathlib import Path

    from preflight.validate_overrides import launch_options, names_file, overrides_for

    named, options = launch_options(project.argv)
    audited = named is not None and names_file(named, Path(source.path))
    out = overrides_for(Path(source.path), targets, launches=not audited)
    if audited:
        why = {key: f"not read by this job: its launch line passes --{key}, which accelerate uses instead"
               for key in sorted(options)}
        for kind in ("accelerate", "accelerate-sagemaker"):
            out[kind] = why
    return out


def _hf_reader(project: Any) -> str:
    """How the scripts read a TrainingArguments-style YAML file: ``pyyaml`` when they use
    HfArgumentParser (``parse_yaml_file`` is ``yaml.safe_load``), ``omegaconf`` when they load
    configs with OmegaConf (``OmegaConf.load``) and never use HfArgumentParser, ``""`` when no
    script says (then the config's project decides, else PyYAML)."""
    hf = omegaconf = False
    for script in project.scripts:
        idx = project.index(script)
        hf = hf or bool(idx.find("transformers.HfArgumentParser", "HfArgumentParser"))
        omegaconf = omegaconf or bool(idx.find("omegaconf.OmegaConf.load", "omegaconf.OmegaConf.create"))
    return "omegaconf" if omegaconf and not hf else ("pyyaml" if hf else "")


def _hydra_problems(project: Any) -> list[Problem]:
    from preflight.adapters.hydra import Composed, compositions, targeted_nodes
    from preflight.validate import Target, validate_loaded

    out: list[Problem] = []
    done: set[tuple[str, tuple[str, ...]]] = set()
    for composed in compositions(project):
        if not isinstance(composed, Composed):
            continue
        nodes = targeted_nodes(composed.config)
        for item, loaded in composed.item_configs:
            if not isinstance(loaded.data, dict):
                continue
            package = tuple(p for p in item.package.split(".") if p)
            targets = []
            for path, kind, target in nodes:
                if path[: len(package)] != package:
                    continue
                rel = path[len(package):]
                node = loaded.get(rel)
                if isinstance(node, dict) and (loaded.path, rel) not in done:
                    done.add((loaded.path, rel))
                    targets.append(Target(kind, rel, node, f"_target_: {target}"))
            if targets:
                text = _read(loaded.path, project.root)
                out.extend(validate_loaded(loaded, text, targets=targets).problems)
        out.extend(_override_problems(composed, nodes))
    return out


def _composed_file_traps(project: Any, given: set[Any]) -> list[Problem]:
    """PF603's key and tuple traps in the files each Hydra composition loaded (a config folder given with
    ``--config`` is read through the composition, not as a list of configs)."""
    from pathlib import Path

    from preflight.adapters.hydra import Composed, compositions
    from preflight.rules.config._pf603_keys import bool_keys

    given_abs = {str(Path(p).resolve()) for p in given}
    out: list[Problem] = []
    seen: set[str] = set()
    for composed in compositions(project):
        if not isinstance(composed, Composed):
            continue
        for loaded in composed.files.values():
            if loaded.path in seen or str((Path(project.root) / loaded.path).resolve()) in given_abs:
                continue
            seen.add(loaded.path)
            text = _read(loaded.path, project.root)
            if text:
                out.extend(bool_keys(loaded, text, project))
    return out


def _override_problems(composed: Any, nodes: list[tuple[tuple[str, ...], str, str]]) -> list[Problem]:
    """Hydra command-line overrides (``+trainer.max_epoch=5``) validated like file values: each
    override that lands in a targeted node is checked against that node's schema, and reported
    at the Hydra entry point (the ``@hydra.main`` line) with the override's own text."""
    from preflight.loaders import LoadedConfig
    from preflight.validate import Target, validate_loaded

    app = composed.app
    where = app.script.source.display if app.script is not None else None
    out: list[Problem] = []
    for path, text in sorted(composed.cli.items()):
        for node_path, kind, target in nodes:
            n = len(node_path)
            if len(path) <= n or tuple(path[:n]) != tuple(node_path):
                continue
            value = composed.config
            for key in path:
                value = value.get(key) if isinstance(value, dict) else None
            rel = tuple(path[n:])
            data: Any = value
            for key in reversed(rel):
                data = {key: data}
            loaded = LoadedConfig(where or "<command line>", "yaml", data, {})
            report = validate_loaded(loaded, None, targets=[Target(kind, (), data, f"_target_: {target}",
                                                                    "omegaconf")])
            for problem in report.problems:
                out.append(type(problem)(where or "<command line>", app.line if where else None,
                                         ".".join(path), problem.severity, problem.code,
                                         f"Hydra override `{text}`: {problem.message}", problem.kind))
    return out


def _read(display: str, root: Any) -> Any:
    from pathlib import Path

    try:
        from preflight.sources import read_text_limited

        return read_text_limited(Path(root) / display)
    except (OSError, UnicodeDecodeError):
        return None


def findings(rule: type[PlanRule], pctx: PlanContext) -> Iterable[Finding]:
    for problem in config_problems(pctx):
        if rule_code(problem) != rule.code:
            continue
        finding = pctx.location_finding(rule, problem.path, problem.line or 1, problem.message)
        finding.severity = _SEVERITY[problem.severity]
        yield finding

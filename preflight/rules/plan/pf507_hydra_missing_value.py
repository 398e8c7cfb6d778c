"""PF507 hydra-missing-value: a ``???`` (mandatory) value that the launch leaves unset."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_app_support import config_chain, hydra_main_function
from preflight.rules.plan._hydra_apps import assigned_names as _assigned_names


def _filled_at_runtime(app: object, path: tuple[str, ...]) -> bool:
    """The ``@hydra.main`` function assigns the key (``cfg.model.vocab_size = ...``) before it
    reads the key or a node above it (``cfg.model``)."""
    script = getattr(app, "script", None)
    if script is None or getattr(app, "how", None) != "@hydra.main":
        return False
    fn = hydra_main_function(script, getattr(app, "line", None))
    if fn is None:
        return False
    root = fn.args.args[0].arg
    assigned: Optional[int] = None
    for node in ast.walk(fn):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if config_chain(target, root) == path and (assigned is None or node.lineno < assigned):
                    assigned = node.lineno
    if assigned is None:
        return False
    for node in ast.walk(fn):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and node.lineno < assigned:
            chain = config_chain(node, root)
            if chain is not None and chain == path[:len(chain)]:
                return False
    return True


def _store_compositions(project: Any) -> list:
    """The apps whose plain composition failed on a config the project stores in Hydra's ConfigStore
    (``cs.store(name="base_config", node=TrainConfig)`` named by the defaults list) and that compose once
    the stored dataclasses are read statically (:func:`preflight.adapters.hydra_added_keys.plan_compositions`):
    their ``MISSING`` fields are ``???`` keys like any other. Marked ``from_store``."""
    from preflight.adapters.hydra import Composed, compositions
    from preflight.adapters.hydra_added_keys import plan_compositions

    out = []
    for plain, planned in zip(compositions(project), plan_compositions(project)):
        if isinstance(plain, Composed) or not isinstance(planned, Composed):
            continue
        notes = getattr(planned.composition, "notes", [])
        if not any("registers in Hydra's ConfigStore when it runs (" in n for n in notes):
            continue  # composed with stubs or added keys only: the stored fields were not read
        planned.from_store = True  # type: ignore[attr-defined]
        out.append(planned)
    return out


def _read_in_scripts(pctx: PlanContext, name: str) -> bool:
    """``cfg.<name>`` or ``cfg["<name>"]`` is read in one of the job's scripts."""
    for script in pctx.scripts:
        for node in ast.walk(script.tree):
            if isinstance(node, ast.Attribute) and node.attr == name and isinstance(node.ctx, ast.Load):
                return True
            if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
                    and node.slice.value == name and isinstance(node.ctx, ast.Load):
                return True
    return False


def _missing_field(pctx: PlanContext, name: str) -> Optional[tuple[str, int]]:
    """Where a dataclass of the job's scripts declares ``<name>: T = MISSING``."""
    for script in pctx.scripts:
        for node in ast.walk(script.tree):
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
                value = node.value
                if (isinstance(value, ast.Name) and value.id == "MISSING") or (
                        isinstance(value, ast.Attribute) and value.attr == "MISSING"):
                    return script.source.display, node.lineno
    return None


@register
class HydraMissingValue(PlanRule):
    code = "PF507"
    name = "hydra-missing-value"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = "A Hydra config value is `???` (mandatory) and the launch command does not set it"
    explanation = """
## What it finds

A key of the composed Hydra config of a `@hydra.main` app (its primary config, the
defaults list and the launch's overrides after `--`, composed the way Hydra does)
whose value is still `???`, OmegaConf's marker for a mandatory value. That includes a field
declared `MISSING` in a dataclass the script stores in Hydra's ConfigStore
(`cs.store(name="base_config", node=TrainConfig)` named by the defaults list), read statically,
when the primary config does not set it and a script of the job reads it (`cfg.ckpt_dir`):
Hydra composes such a config without complaint and the run fails only when the field is first
read, possibly hours in, at the first checkpoint (hydra issue 2193, "Not failing when required
fields are missing when using structured config"). The finding is then on the dataclass field.

## Why it matters

`???` means "must be given": OmegaConf raises `MissingMandatoryValue` the moment
the app reads the key or instantiates the node that holds it. The job starts,
maybe builds its data and model, and stops there, after it waited in the queue
for its GPUs.

## How to fix it

Give the value on the command line (`python train.py model.lr=3e-4`), in an
experiment config that the defaults list selects, or as a default in the file.

## When preflight stays silent

* A `MISSING` field of a stored structured config that no script of the job reads (by attribute
  or string key): nothing raises.

* An override after `--` (`key=value`, `+key=value`) or a later config sets it.
* The app's `@hydra.main` function assigns the key (`cfg.model.vocab_size = len(vocab)`)
  before it reads the key or a node above it (`cfg.model`): the value is filled in at
  runtime, the pattern Hydra's maintainers recommend for values computed by the app.
* The config is not composed (the composition itself failed: that is reported as
  an error of the audit).
* The job lacks config files its defaults list or launch line names (`model/llama.yaml` not in
  the project): the config is composed without them, and a `???` key stays unreported when one of
  them may set it: an option of the group the key lies under (`model.name` and `model/llama`), or
  an option of a group whose configs are usually global (`experiment=...`, `debug`, `hparams_search`).
* The script that composes the config assigns the key before it is used
  (`cfg.obs_shape = obs_spec.shape`, `cfg["obs_shape"] = ...`, `setattr(cfg, "obs_shape", ...)`
  on any object: facebookresearch/drqv2 `train.py:28-31` fills `agent.obs_shape: ???` this way
  before `hydra.utils.instantiate`).
"""
    bad_examples = examples("preflight.rules.plan._pf507_examples", "PF507_BAD")
    good_examples = examples("preflight.rules.plan._pf507_examples", "PF507_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        try:
            from preflight.adapters.hydra import Composed, compositions
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        from preflight.adapters.hydra_partial import dropped_may_set, partial_compositions

        for comp in [*compositions(pctx.project), *partial_compositions(pctx.project),
                     *_store_compositions(pctx.project)]:
            if not isinstance(comp, Composed):
                continue
            app = comp.app
            main_fn = hydra_main_function(app.script, app.line) if app.script is not None else None
            assigned = _assigned_names(app.script.tree, main_fn) if app.script is not None else set()
            for path, file, line in comp.missing:
                if path and path[-1] in assigned:
                    continue  # a function of the script fills it in on the node it is handed
                if _filled_at_runtime(app, tuple(path)):
                    continue  # the app's main function fills it in before anything reads it
                if dropped_may_set(comp, tuple(path)):
                    continue  # a config option the job lacks may give the value
                stored_field = None
                if file is None and getattr(comp, "from_store", False):
                    # a MISSING field of a dataclass read from the project's ConfigStore: it fails only when
                    # something reads it, so the key must be read somewhere in the project's scripts
                    if not _read_in_scripts(pctx, path[-1]):
                        continue
                    stored_field = _missing_field(pctx, path[-1])
                key = ".".join(path)
                message = (f"`{key}` is `???` (mandatory) in the composed Hydra config and the launch does not "
                           "set it: OmegaConf raises MissingMandatoryValue as soon as the app reads it. Give it "
                           f"on the command line (`{key}=...`) or in the config")
                if comp.dropped:
                    message += f" (composed without {', '.join(comp.dropped[:3])}, whose files are not in the job)"
                evidence = []
                if app.script is not None and app.line is not None:
                    evidence.append(Evidence(line=app.line, path=app.script.source.display,
                                             message=f"{app.how} composes this config"))
                if stored_field is not None:
                    message += (" (a `MISSING` field of a structured config the script stores in Hydra's ConfigStore: "
                                "Hydra composes it without complaint and the run fails only when it is first read)")
                    yield pctx.location_finding(self, stored_field[0], stored_field[1], message, evidence=evidence)
                elif file is not None and line is not None:
                    yield pctx.location_finding(self, file, line, message, evidence=evidence)
                elif app.script is not None and app.line is not None:
                    yield pctx.location_finding(self, app.script.source.display, app.line, message,
                                                evidence=evidence)

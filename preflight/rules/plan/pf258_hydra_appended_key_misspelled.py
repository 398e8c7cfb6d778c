"""PF258 hydra-appended-key-misspelled: a ``+key=value`` / ``++key=value`` override that appends a
misspelling of a key the composed config has (or a key Hydra's own config never reads)."""

from __future__ import annotations

from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import hydra_main_apps
from preflight.rules.plan._hydra_override_keys import closest, misspelled_sibling, unknown_hydra_key


def _node(config: Any, path: list[str]) -> Optional[dict]:
    node = config
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node if isinstance(node, dict) else None


def _read_in_code(comp: Any, name: str) -> bool:
    """Whether a script of the job names the appended key (then the app reads it on purpose)."""
    script = comp.app.script
    return script is not None and name in script.source.text


@register
class HydraAppendedKeyMisspelled(PlanRule):
    code = "PF258"
    name = "hydra-appended-key-misspelled"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A `+key=value` override appends a misspelling of a key the config has (`+optim.weight_decy`): "
               "Hydra accepts it and the setting never takes effect")
    explanation = """
## What it finds

A `+a.b=value` or `++a.b=value` override on the launch line of a `@hydra.main` app where
the composed config has no `a.b` but `a` has a key one typo away (a letter left out or
added, two neighbouring letters swapped: `+optim.weight_decy=0.1` next to
`optim.weight_decay`), and no script of the job names the appended key; or a `+hydra.x`
override of a key Hydra's own config (`HydraConf`) does not have at a node whose keys
Hydra fixes (`+hydra.ouput_subdir=null`).

## Why it matters

`+` adds a key, so Hydra's struct check, which would stop a plain misspelled override
("Could not override ..."), is bypassed on purpose: the run starts with the new, unread
key and the intended key keeps its configured value. The run trains with the default
`weight_decay` while the command line says 0.1 (OpenMHC issue 14: "additive typo
overrides can be accepted by Hydra, then ignored during dataclass conversion, causing
the run to proceed with defaults"; hydra issue 1457 for keys under `hydra.`).

## How to fix it

Spell the existing key and drop the `+` (`optim.weight_decay=0.1`): Hydra then checks
that the key exists.

## When preflight stays silent

* The appended key is not one typo away from an existing key of the same node (a new
  key, `+trainer.limit_val_batches` beside `limit_train_batches`), differs by a digit
  (`layer1`/`layer2`), a plural `s` or a replaced letter (`dim_q`/`dim_k`).
* A script of the job names the appended key (the app reads it).
* Keys under Hydra's plugin nodes (`hydra.launcher`, `hydra.sweeper`, logging,
  callbacks), which take any key.
"""
    bad_examples = examples("preflight.rules.plan._pf258_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf258_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        project = pctx.project
        if not project.argv:
            return
        for comp in hydra_main_apps(pctx):
            script = comp.app.script
            for tok in project.script_args(script):
                head, eq, _ = tok.partition("=")
                if not eq or not head.startswith("+") or "$" in tok or "@" in head or "/" in head:
                    continue
                key = head.lstrip("+")
                message = self._message(comp, tok, key)
                if message is None:
                    continue
                evidence = [Evidence(line=comp.app.line or 1, path=script.source.display,
                                     message="@hydra.main composes the config with this override")]
                if project.launch_at is not None:
                    path, line = project.launch_at
                    yield pctx.location_finding(self, path, line, message, evidence=evidence)
                else:
                    yield pctx.location_finding(self, script.source.display, comp.app.line or 1, message,
                                                evidence=evidence)

    @staticmethod
    def _message(comp: Any, tok: str, key: str) -> Optional[str]:
        parts = key.split(".")
        if parts[0] == "hydra":
            unknown = unknown_hydra_key(key)
            if unknown is None:
                return None
            part, allowed = unknown
            near = closest(part, allowed)
            meant = f" (`{near}` was probably meant)" if near else ""
            return (f"`{tok}` appends `{part}` to Hydra's own config, which has no such key{meant}: the `+` bypasses "
                    f"the check that would have refused it, and Hydra never reads the key, so the setting does nothing. "
                    f"Write the existing key without `+`")
        if len(parts) < 2 or any(not p for p in parts):
            return None
        parent = _node(comp.config, parts[:-1])
        name = parts[-1]
        if parent is None or comp.origins.get(tuple(parts)) is not None:
            return None  # the key is in a config file: an override of an existing key
        siblings = [k for k in parent if k != name]
        typo = misspelled_sibling(name, siblings)
        if typo is None or _read_in_code(comp, name):
            return None
        meant = typo
        where = ".".join(parts[:-1])
        origin = comp.origins.get((*parts[:-1], meant))
        shown = f" ({origin[0]}:{origin[1]})" if origin and origin[1] else ""
        return (f"`{tok}` appends a new key `{name}` to `{where}`, which already has `{meant}`{shown}: the `+` "
                f"bypasses Hydra's check that the key exists, nothing reads `{name}`, and `{where}.{meant}` keeps its "
                f"configured value. Write `{where}.{meant}=...` without `+`")

"""PF569 arithmetic-around-interpolation: a YAML value that writes arithmetic around OmegaConf
interpolations (``lr: ${base_lr} * ${batch_size} / 256``), which stays a string."""

from __future__ import annotations

import re
from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import ConfigRule, PlanContext
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.config._hydra_app_configs import hydra_app_configs

_NUMBER = re.compile(r"\d+(?:\.\d*)?(?:[eE][-+]?\d+)?")
_OPERATOR = re.compile(r"\s[-+*/]\s|\*|\*\*")
_EVAL_CALL = re.compile(r"\b(?:eval|numexpr\.evaluate|simple_eval|literal_eval)\s*\(")


def _strip_interpolations(text: str) -> Optional[tuple[str, int]]:
    """``text`` with every top-level ``${...}`` replaced by ``0`` (an operand), and their count; None when
    the braces do not balance."""
    out: list[str] = []
    count = depth = 0
    i = 0
    while i < len(text):
        if text.startswith("${", i):
            if depth == 0:
                count += 1
                out.append("0")
            depth += 1
            i += 2
            continue
        ch = text[i]
        if depth:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
        else:
            out.append(ch)
        i += 1
    return None if depth else ("".join(out), count)


def arithmetic(text: str) -> bool:
    """An expression of interpolations, numbers and operators: ``${a} * ${b} / 256``,
    ``50 * ${x}``, ``${a} + 1`` (not a path ``${root}/data`` or a name ``${model}-${size}``)."""
    if "${" not in text or text.lstrip().startswith("${eval:") or text.lstrip().startswith("${oc."):
        return False
    found = _strip_interpolations(text)
    if found is None:
        return False
    rest, count = found
    if count == 0 or re.search(r"[A-Za-z_:'\"\[\]]", rest):
        return False
    if not re.fullmatch(r"[\s\d.eE()*/+-]*", rest):
        return False
    if _OPERATOR.search(" " + rest + " ") is None:
        return False
    bare = _NUMBER.sub("", rest)
    # an operator with spaces around it, or a multiplication: not a path or a dashed name
    return "*" in rest or re.search(r"\s[-+/]\s", " " + bare + " ") is not None


def _strings(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _strings(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _strings(value, (*path, i))
    elif isinstance(data, str):
        yield path, data


@register
class ArithmeticAroundInterpolation(ConfigRule):
    code = "PF569"
    name = "arithmetic-around-interpolation"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A config value writes arithmetic around interpolations (`${a} * ${b} / 256`): OmegaConf "
               "substitutes them and the value stays a string")
    explanation = """
## What it finds

A YAML value made of OmegaConf interpolations, numbers and arithmetic operators, such as
`lr: ${optimizer.base_lr} * ${data.batch_size} / 256` or `radius: 50 * ${data.step}`, in
a config of the job (a Hydra config folder or a config passed to `audit`).

## Why it matters

OmegaConf's grammar has interpolations (`${key}`, `${resolver:args}`) and string
interpolation, but no arithmetic: a value with text around an interpolation is a string
interpolation, so the code receives the string `"0.1 * 1024 / 256"` (omegaconf
grammar `OmegaConfGrammarParser.g4`; hydra issue 405, "Auto Resolve", where the answer
was to register an `eval` resolver). Passed to `torch.optim.SGD(lr=...)` it fails with
"'<' not supported between instances of 'str' and 'float'"; elsewhere it may be compared
or logged as text without failing.

## How to fix it

Register a resolver and call it: `OmegaConf.register_new_resolver("eval", eval)` before
`@hydra.main` runs, and `lr: ${eval:'${optimizer.base_lr} * ${data.batch_size} / 256'}`;
or compute the value in code.

## When preflight stays silent

* The value already goes through a resolver (`${eval:...}`, `${oc.env:...}`), or text
  other than numbers and operators sits around the interpolations (a path
  `${hydra:runtime.cwd}/data`, a name `${model}-${size}` or `${a}_${b}`).
* Some script of the job evaluates strings itself (`eval(...)`, `numexpr.evaluate`,
  `simple_eval`, `literal_eval`).
"""
    bad_examples = examples("preflight.rules.config._pf569_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.config._pf569_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if text and _EVAL_CALL.search(text):
                return  # the job evaluates the strings itself
        seen: set[str] = set()
        for cfg in [*pctx.configs, *hydra_app_configs(pctx, needle="${")]:
            if cfg.kind != "yaml" or not isinstance(cfg.data, dict) or cfg.path in seen:
                continue
            seen.add(cfg.path)
            for path, value in _strings(cfg.data):
                if not path or path[0] == "defaults" or not arithmetic(value):
                    continue
                dotted = ".".join(str(p) for p in path)
                line = cfg.line_of(path, nearest=True) or 1
                yield pctx.location_finding(
                    self, cfg.path, line,
                    f"`{dotted}: {value}` is not arithmetic for OmegaConf: the interpolations are substituted and "
                    f"the value stays a string (e.g. \"0.1 * 1024 / 256\"), which an optimizer or a comparison "
                    f"rejects. Register an eval resolver and write `${{eval:'{value}'}}`, or compute it in code")

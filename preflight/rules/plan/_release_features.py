"""The features of ``_release_defects`` a job's code must use to be hit by a release defect (PF384).

A feature is a named check with parameters from the table. ``calls`` reads a small vocabulary of call
specifications, searched over every script of the job:

* ``call``: the callee's last name (a string or a tuple of names); ``attr``: a method call;
  ``qual="lightning"``: the callee comes from Lightning (the file's imports);
* ``kw``: ``{keyword: (op, value)}`` on statically known values (``eq``, ``gt``, ``truthy``,
  ``float_lt1``, ``substring_pair``);
* ``arg_name``: a positional argument is a name matching the pattern; ``arg_text``: the source of a
  positional argument matches it;
* ``keys_overlap``: two dict keywords with different keys that name the same module (``q_proj`` and
  ``layers.0.self_attn.q_proj``);
* ``not_multiple``: two int keywords ``a``, ``b`` with ``b > 1`` and ``a % b != 0``;
* ``special``: a job-level fact (``epoch_scheduler``, ``scheduler``, ``defines``, ``subclass``,
  ``training_step_without_batch_idx``, ``micro_batch_schedule``: a scheduler whose length counts the
  loader's batches, ``len(loader) * epochs``, with no division by the accumulation steps;
  ``sync_guarded_scheduler_step``: a scheduler's ``.step()`` only under ``if <accelerator>.sync_gradients:``,
  the workaround accelerate issue 963 names for the releases that step a prepared scheduler on every
  micro-batch).

``all`` lists the specifications the job must meet (a tuple inside it is any-of), ``none`` those
that turn the feature off, ``text`` a pattern some script must contain, ``world_size`` the least
world size the plan must show, ``report`` which of ``all`` the finding is reported on.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Iterator, Mapping, Optional

from preflight.plan_rules import PlanContext
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.plan._pinned_release import defines, lightning_schedulers
from preflight.rules.plan._release_defects import ARGS, NO_LOSS_KWARGS_HEADS, TRAINERS
from preflight.sources import ParsedPython

# (script, node reported on, values for the message)
Hit = tuple[ParsedPython, ast.AST, dict[str, Any]]
_MISSING = object()


def _value(pctx: PlanContext, script: ParsedPython, node: Optional[ast.AST]) -> Any:
    """The statically known value of ``node`` (a literal list of constants too), else ``_MISSING``."""
    if node is None:
        return _MISSING
    if isinstance(node, (ast.List, ast.Tuple)) and all(isinstance(e, ast.Constant) for e in node.elts):
        return [e.value for e in node.elts if isinstance(e, ast.Constant)]
    found = pctx.index(script).resolve(node)
    return found.value if found is not None else _MISSING


def _number(value: Any) -> Optional[float]:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _substring_pair(value: Any) -> Optional[tuple[str, str]]:
    names = [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
    for a in names:
        for b in names:
            if a != b and a in b:
                return a, b
    return None


def _op(pctx: PlanContext, script: ParsedPython, call: ast.Call, name: str, op: str, want: Any,
        values: dict[str, Any]) -> bool:
    node = kwarg(call, name)
    value = _value(pctx, script, node)
    if op == "eq":
        ok = node is not None and value is not _MISSING and value == want
    elif op == "gt":
        number = _number(value)
        ok = number is not None and number > want
        if ok:
            values.setdefault("n", value)
    elif op == "truthy":
        ok = node is not None and (value is _MISSING or bool(value))
    elif op == "float_lt1":
        ok = isinstance(value, float) and 0.0 < value < 1.0
    elif op == "substring_pair":
        pair = _substring_pair(value) if value is not _MISSING else None
        ok = pair is not None
        if pair is not None:
            values["pair"] = f"`{pair[0]}` and `{pair[1]}`"
    else:  # pragma: no cover - the table is checked by the tests
        raise ValueError(f"unknown op {op}")
    if ok:
        values.setdefault("value", value)
    return ok


def _qualified(pctx: PlanContext, script: ParsedPython, call: ast.Call, qual: str) -> bool:
    name = pctx.index(script).qualify(ast.unparse(call.func)) or ""
    return name.startswith(("pytorch_lightning", "lightning")) if qual == "lightning" else name.startswith(qual)


def _dict_keys(node: Optional[ast.AST]) -> Optional[set[Any]]:
    if not isinstance(node, ast.Dict) or any(k is None or not isinstance(k, ast.Constant) for k in node.keys):
        return None
    return {k.value for k in node.keys if isinstance(k, ast.Constant)}


def _overlapping(first: set[Any], second: set[Any]) -> Optional[tuple[str, str]]:
    """Two different keys, one of each set, that can name the same module (one ends with the other)."""
    for a in sorted(k for k in first if isinstance(k, str)):
        for b in sorted(k for k in second if isinstance(k, str)):
            if a != b and (a.endswith("." + b) or b.endswith("." + a)):
                return a, b
    return None


def _call_matches(pctx: PlanContext, script: ParsedPython, call: ast.Call, spec: Mapping[str, Any],
                  values: dict[str, Any]) -> bool:
    names = spec.get("call")
    if names is not None:
        wanted = (names,) if isinstance(names, str) else tuple(names)
        if call_last(call) not in wanted:
            return False
    if spec.get("attr") and not isinstance(call.func, ast.Attribute):
        return False
    if "qual" in spec and not _qualified(pctx, script, call, spec["qual"]):
        return False
    for name, (op, want) in spec.get("kw", {}).items():
        if not _op(pctx, script, call, name, op, want, values):
            return False
    text = spec.get("arg_text")
    if text is not None and not any(re.search(text, ast.unparse(a)) for a in call.args):
        return False
    pattern = spec.get("arg_name")
    if pattern is not None and not any(isinstance(a, ast.Name) and re.search(pattern, a.id) for a in call.args):
        return False
    if "keys_overlap" in spec:
        first, second = (_dict_keys(kwarg(call, k)) for k in spec["keys_overlap"])
        pair = _overlapping(first or set(), second or set())
        if pair is None:
            return False
        values["pair"] = f"`{pair[0]}` and `{pair[1]}`"
    if "not_multiple" in spec:
        a, b = (_number(_value(pctx, script, kwarg(call, k))) for k in spec["not_multiple"])
        if a is None or b is None or b <= 1 or a < 1 or a != int(a) or int(a) % int(b) == 0:
            return False
        values.setdefault("value", int(a))
        values.setdefault("n", int(b))
    return True


def _training_step_without_batch_idx(pctx: PlanContext) -> Iterator[tuple[ParsedPython, ast.AST]]:
    for script in pctx.scripts:
        for fn in ast.walk(script.tree):
            if isinstance(fn, ast.FunctionDef) and fn.name == "training_step":
                args = fn.args
                positional = [a.arg for a in (*args.posonlyargs, *args.args)]
                if positional[:1] == ["self"] and len(positional) == 2 and args.vararg is None:
                    yield script, fn


# a scheduler factory and where its length is given (keyword, position)
_SCHEDULE_LENGTHS = {"get_scheduler": ("num_training_steps", 3), "OneCycleLR": ("total_steps", 2),
                     "CosineAnnealingLR": ("T_max", 1)}


def schedule_length(call: ast.Call) -> Optional[ast.AST]:
    last = call_last(call) or ""
    if last in _SCHEDULE_LENGTHS:
        name, position = _SCHEDULE_LENGTHS[last]
    elif last.startswith("get_") and "schedule" in last:
        name, position = "num_training_steps", 2
    else:
        return None
    given = kwarg(call, name)
    if given is None and len(call.args) > position:
        given = call.args[position]
    return given


def _counts_micro_batches(tree: ast.AST, expr: ast.AST, depth: int = 0) -> Optional[bool]:
    """Whether ``expr`` counts batches of a loader (``len(loader) * epochs``) with no division by the
    accumulation steps: True/False where the expression says so, None where it does not count batches."""
    batches = False
    for node in ast.walk(expr):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Div, ast.FloorDiv)):
            return False
        if isinstance(node, (ast.Name, ast.Attribute)) and "accum" in ast.unparse(node).lower():
            return False
        if isinstance(node, ast.Call) and call_last(node) == "len":
            batches = True
        if isinstance(node, ast.Name) and depth < 3:
            for assign in ast.walk(tree):
                if isinstance(assign, ast.Assign) and any(isinstance(t, ast.Name) and t.id == node.id
                                                          for t in assign.targets):
                    inner = _counts_micro_batches(tree, assign.value, depth + 1)
                    if inner is False:
                        return False
                    batches = batches or bool(inner)
    return True if batches else None


def micro_batch_schedules(pctx: PlanContext) -> Iterator[tuple[ParsedPython, ast.AST]]:
    """Scheduler constructions whose length counts micro-batches (right where the prepared scheduler
    steps on every micro-batch)."""
    for script in pctx.scripts:
        for call in ast.walk(script.tree):
            if isinstance(call, ast.Call):
                length = schedule_length(call)
                if length is not None and _counts_micro_batches(script.tree, length):
                    yield script, call


def _sync_guarded_scheduler_steps(pctx: PlanContext) -> Iterator[tuple[ParsedPython, ast.AST]]:
    """``if accelerator.sync_gradients: scheduler.step()``: a scheduler (its name holds ``sched``) stepped
    only in the body of an ``if`` whose whole test is ``<x>.sync_gradients`` (accelerate issue 963's
    workaround: one step per optimizer update whatever the release's AcceleratedScheduler does)."""
    for script in pctx.scripts:
        for node in ast.walk(script.tree):
            if not isinstance(node, ast.If) or not isinstance(node.test, ast.Attribute) \
                    or node.test.attr != "sync_gradients":
                continue
            for stmt in node.body:
                for call in ast.walk(stmt):
                    if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                            and call.func.attr == "step" and re.search(r"(?i)sched", ast.unparse(call.func.value)):
                        yield script, call


def _special(pctx: PlanContext, spec: Mapping[str, Any]) -> Iterator[tuple[ParsedPython, ast.AST]]:
    kind = spec["special"]
    if kind in ("epoch_scheduler", "scheduler"):
        for script, built, per_epoch in lightning_schedulers(pctx):
            if per_epoch or kind == "scheduler":
                yield script, built
    elif kind == "defines":
        if defines(pctx, spec["name"]):
            for script in pctx.scripts:
                for fn in ast.walk(script.tree):
                    if isinstance(fn, ast.FunctionDef) and fn.name == spec["name"]:
                        yield script, fn
    elif kind == "subclass":
        for script in pctx.scripts:
            for cls in ast.walk(script.tree):
                if isinstance(cls, ast.ClassDef) and any(ast.unparse(b).rsplit(".", 1)[-1] == spec["base"]
                                                         for b in cls.bases):
                    yield script, cls
    elif kind == "training_step_without_batch_idx":
        yield from _training_step_without_batch_idx(pctx)
    elif kind == "micro_batch_schedule":
        yield from micro_batch_schedules(pctx)
    elif kind == "sync_guarded_scheduler_step":
        yield from _sync_guarded_scheduler_steps(pctx)
    else:  # pragma: no cover - the table is checked by the tests
        raise ValueError(f"unknown special {kind}")


def _find(pctx: PlanContext, spec: Mapping[str, Any], values: dict[str, Any]) -> Optional[tuple[ParsedPython, ast.AST]]:
    """The first place of the job that meets ``spec``."""
    if "special" in spec:
        return next(iter(_special(pctx, spec)), None)
    for script in pctx.scripts:
        for node in ast.walk(script.tree):
            if isinstance(node, ast.Call):
                found: dict[str, Any] = {}
                if _call_matches(pctx, script, node, spec, found):
                    for key, value in found.items():
                        values.setdefault(key, value)
                    return script, node
    return None


def _world_size(pctx: PlanContext) -> Optional[int]:
    fact = pctx.plan.resolve("dist.world_size")
    value = fact.value if fact is not None else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def calls(pctx: PlanContext, params: Mapping[str, Any]) -> Optional[Hit]:
    """The ``calls`` feature: every specification of ``all`` met, none of ``none``."""
    text = params.get("text")
    if text is not None and not any(re.search(text, s.text if s.text is not None else s.source.text)
                                    for s in pctx.scripts) and not re.search(text, " ".join(pctx.project.argv)):
        return None
    least = params.get("world_size")
    if least is not None and (_world_size(pctx) or 0) < least:
        return None
    values: dict[str, Any] = {}
    places = []
    for item in params["all"]:
        options = item if isinstance(item, tuple) else (item,)
        place = next((p for p in (_find(pctx, o, values) for o in options) if p is not None), None)
        if place is None:
            return None
        places.append(place)
    if any(_find(pctx, spec, {}) is not None for spec in params.get("none", ())):
        return None
    script, node = places[params.get("report", 0)]
    return script, node, values


# -- transformers' Trainer with gradient accumulation ---------------------------------------------------
def _head(tree: ast.AST, head: str) -> Optional[str]:
    """The model class the file loads that has the wanted kind of head."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and call_last(node) in ("from_pretrained", "from_config") \
                and isinstance(node.func, ast.Attribute):
            owner = ast.unparse(node.func.value)
            if head == "causal" and owner.endswith("ForCausalLM"):
                return owner
            if head == "no_loss_kwargs" and owner.endswith(NO_LOSS_KWARGS_HEADS):
                return owner
        if head == "causal" and isinstance(node, ast.Call) and call_last(node) == "SFTTrainer":
            return "SFTTrainer's model"
    return None


def _uses_deepspeed(pctx: PlanContext, tree: ast.AST) -> bool:
    if "--deepspeed" in pctx.project.argv or pctx.deepspeed_configs():
        return True
    return any(isinstance(c, ast.Call) and call_last(c) in ARGS
               and kwarg(c, "deepspeed") is not None for c in ast.walk(tree))


def hf_trainer_accumulation(pctx: PlanContext, params: Mapping[str, Any]) -> Optional[Hit]:
    """A transformers/TRL Trainer job with gradient accumulation over a model with the head of ``params``
    (and no DeepSpeed when ``params["deepspeed"] == "absent"``), its loss left to the Trainer."""
    for script in pctx.scripts:
        tree = script.tree
        idx = pctx.index(script)
        trainers = [c for c in ast.walk(tree) if isinstance(c, ast.Call) and call_last(c) in TRAINERS
                    and (idx.qualify(ast.unparse(c.func)) or "").startswith(("transformers", "trl"))]
        text = script.text if script.text is not None else script.source.text
        if not trainers or re.search(r"def compute_loss\b|compute_loss_func", text):
            continue
        if params.get("unless") and re.search(params["unless"], text):
            continue
        head = _head(tree, params["head"])
        if head is None:
            continue
        if params["deepspeed"] == "absent" and _uses_deepspeed(pctx, tree):
            continue
        node: ast.AST = trainers[0]
        steps: Any = None
        for call in ast.walk(tree):
            if isinstance(call, ast.Call) and call_last(call) in ARGS:
                given = kwarg(call, "gradient_accumulation_steps")
                if given is not None:
                    node, steps = call, _value(pctx, script, given)
                    break
        if steps is None:
            fact = pctx.plan.resolve("batch.grad_accum")
            steps = fact.value if fact is not None else None
        if isinstance(steps, int) and not isinstance(steps, bool) and steps > 1:
            return script, node, {"ga": steps, "n": steps, "head": head}
    return None


# -- PEFT adapters whose names contain one another --------------------------------------------------------
_ADAPTER_CALLS = {"get_peft_model": None, "from_pretrained": None, "add_adapter": 0, "load_adapter": 1}


def adapter_name_substrings(pctx: PlanContext, params: Mapping[str, Any]) -> Optional[Hit]:
    """Two PEFT adapters of one script whose names contain one another, and a ``save_pretrained``."""
    for script in pctx.scripts:
        tree = script.tree
        text = script.text if script.text is not None else script.source.text
        if "peft" not in text or "save_pretrained" not in text:
            continue
        names: list[tuple[str, ast.Call]] = []
        for call in ast.walk(tree):
            if not isinstance(call, ast.Call) or call_last(call) not in _ADAPTER_CALLS:
                continue
            last = call_last(call)
            if last == "from_pretrained" and "PeftModel" not in ast.unparse(call.func):
                continue
            given = kwarg(call, "adapter_name")
            position = _ADAPTER_CALLS[last]
            if given is None and position is not None and len(call.args) > position:
                given = call.args[position]
            value = _value(pctx, script, given) if given is not None else "default"
            if isinstance(value, str) and (given is not None or position is None):
                names.append((value, call))
        for a, _ in names:
            for b, call in names:
                if a != b and a in b:
                    return script, call, {"pair": f"`{a}` and `{b}`"}
    return None


# -- a model passed to ``accelerator.prepare`` twice ------------------------------------------------------
_PREPARE = ("prepare", "prepare_model")


def _prepare_call(stmt: ast.stmt) -> Optional[ast.Call]:
    value = stmt.value if isinstance(stmt, (ast.Assign, ast.Expr)) else None
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _PREPARE:
        return value
    return None


def _bound(stmt: ast.stmt) -> set[str]:
    out: set[str] = set()
    for target in stmt.targets if isinstance(stmt, ast.Assign) else []:
        for elt in target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]:
            if isinstance(elt, ast.Name):
                out.add(elt.id)
    return out


def prepared_twice(pctx: PlanContext, params: Mapping[str, Any]) -> Optional[Hit]:
    """A name bound from ``accelerator.prepare(...)`` passed to ``prepare`` again further down the same block
    (no other assignment to it in between): the second call wraps the wrapped model again."""
    for script in pctx.scripts:
        for block in ast.walk(script.tree):
            body = getattr(block, "body", None)
            if not isinstance(body, list):
                continue
            prepared: set[str] = set()
            for stmt in body:
                call = _prepare_call(stmt)
                if call is not None:
                    # models only: loaders, optimizers and schedulers carry a guard (`_is_accelerate_prepared`)
                    again = [a.id for a in call.args if isinstance(a, ast.Name) and a.id in prepared
                             and not re.search(r"(?i)load|optim|sched|data", a.id)]
                    if again:
                        return script, call, {"value": again[0]}
                    prepared |= _bound(stmt)
                else:
                    prepared -= _bound(stmt)
    return None


CODE_FEATURES = {
    "prepared_twice": prepared_twice,
    "calls": calls,
    "hf_trainer_accumulation": hf_trainer_accumulation,
    "adapter_name_substrings": adapter_name_substrings,
}

"""The compute precision an FSDP wrap gives a raw-PyTorch script: ``FSDP(model, mixed_precision=P)`` /
FSDP2 ``fully_shard(module, mp_policy=P)`` where ``P`` is ``MixedPrecision(param_dtype=torch.bfloat16, ...)``
/ ``MixedPrecisionPolicy(param_dtype=...)``.

FSDP casts the gathered fp32 parameters to ``param_dtype`` for forward and backward and keeps the fp32
shards for the optimizer: 16-bit compute over fp32 weights, ``amp_bf16``/``amp_fp16`` (the same reading
the Hydra and verl adapters give a configured ``MixedPrecision``); ``param_dtype=torch.float32`` computes
in fp32.

The pattern is the one of PyTorch's FSDP tutorial (pytorch/examples ``distributed/FSDP/policies/
mixed_precision.py``: module-level ``fpSixteen``, ``bfSixteen``, ``bfSixteen_working``, ``fp32_policy``,
imported by ``T5_training.py`` and passed as ``FSDP(model, mixed_precision=mixed_precision_policy)``), copied
by llama-recipes/llama-cookbook (``policies/mixed_precision.py``) and many training repositories
(VentusAislant/MyDemos ``my_demos/DDP_demos/policies.py`` at c75bd15, picked by
``get_mixed_precision(args.mixed_precision)`` and handed to ``Trainer(..., mixed_precision_policy=...)``
whose ``__init__`` calls ``FSDP(..., mixed_precision=mixed_precision_policy)``).

The policy expression is followed through what the script can decide statically: a constructor or
function parameter to the one expression its callers pass, and a one-argument helper's ``if policy ==
'bf16': return bfSixteen`` arm (:mod:`preflight.adapters.param_passed`), a decided ``if/elif`` chain or a
name bound once in the script, and a name imported from a project module that binds it once at its top
level. ``param_dtype`` must then be a literal torch dtype (``torch.bfloat16``, ``torch.float16``/``half``,
``torch.float32``/``float``). Anything else (a policy built from a config value, two policies, a name
bound twice, ``**kwargs``): nothing. Nothing is imported or executed."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.analysis.syntax import dotted_name

_CLASSES = ("MixedPrecision", "MixedPrecisionPolicy")
_DTYPES = {"bfloat16": "bf16", "float16": "fp16", "half": "fp16", "float32": "fp32", "float": "fp32"}
#: the keyword of each wrapper that takes the policy
_KEYWORD = {"FullyShardedDataParallel": "mixed_precision", "fully_shard": "mp_policy"}


def _policy_dtype(call: ast.Call) -> Optional[str]:
    """"bf16"/"fp16"/"fp32" of ``MixedPrecision(param_dtype=torch.X, ...)``; None otherwise."""
    if (dotted_name(call.func) or "").rsplit(".", 1)[-1] not in _CLASSES:
        return None
    given = next((k.value for k in call.keywords if k.arg == "param_dtype"), None)
    if given is None:
        return None  # MixedPrecision() without param_dtype: parameters keep their dtype
    name = dotted_name(given) or ""
    if not name.startswith("torch.") or name.count(".") != 1:
        return None
    return _DTYPES.get(name.split(".", 1)[1])


def _imported_binding(script_path: Optional[Path], tree: ast.AST, name: str) -> Optional[tuple[ast.Call, Path]]:
    """The call ``name`` is bound to at the top level of the project module the script imports it from
    (``from policies import bfSixteen``), when that module binds it exactly once."""
    from preflight.module_constants import _imported, _parse

    if script_path is None:
        return None
    imports = [(n, a) for n in getattr(tree, "body", []) if isinstance(n, ast.ImportFrom)
               for a in n.names if (a.asname or a.name) == name]
    if len(imports) != 1:
        return None
    node, alias = imports[0]
    target = _imported(script_path, node, alias.name)
    if not (isinstance(target, tuple) and target[0] == "binding"):
        return None
    owner = target[1]
    module = _parse(owner)
    if module is None:
        return None
    bound = [n for n in module.body if isinstance(n, ast.Assign) and len(n.targets) == 1
             and isinstance(n.targets[0], ast.Name) and n.targets[0].id == alias.name]
    stores = [n for n in ast.walk(module) if isinstance(n, ast.Name) and n.id == alias.name
              and isinstance(n.ctx, (ast.Store, ast.Del))]
    if len(bound) != 1 or len(stores) != 1 or not isinstance(bound[0].value, ast.Call):
        return None
    return bound[0].value, owner


def _given_policy(site: Any) -> bool:
    """Whether an FSDP/fully_shard call is handed a mixed-precision policy (or a ``**mapping`` that may hold one)."""
    last = (site.qualified or "").rsplit(".", 1)[-1]
    keyword = _KEYWORD.get(last)
    if keyword is None or not (site.qualified or "").startswith("torch"):
        return False
    given = site.kwarg(keyword)
    if given is not None:
        return not (isinstance(given, ast.Constant) and given.value is None)
    return any(k.arg is None for k in site.call.keywords)


def fsdp_policy(pass_: Any, site: Any) -> Optional[tuple[str, str, bool]]:
    """(dtype, where, followed) of the policy an FSDP/fully_shard call site is given: ``where`` names the
    ``MixedPrecision(...)`` call (file:line), ``followed`` is True when a parameter, helper or import was
    followed to reach it. None when the site takes no policy or it is not read."""
    from preflight.adapters.dict_pick import dict_pick
    from preflight.adapters.param_passed import through_parameter

    last = (site.qualified or "").rsplit(".", 1)[-1]
    keyword = _KEYWORD.get(last)
    if keyword is None or not (site.qualified or "").startswith("torch"):
        return None
    expr = site.kwarg(keyword)
    if expr is None:
        return None
    passed = through_parameter(pass_.idx, site.call, expr)
    followed = passed is not None
    expr = passed or expr
    picked = dict_pick(expr, pass_.value) or pass_._chain_value(expr, site)
    followed = followed or picked is not expr
    expr = pass_._taken_arm(picked)
    call = pass_.call_of(expr)
    shown = pass_.script.source.display
    if call is not None:
        dtype = _policy_dtype(call)
        return (dtype, f"{shown}:{call.lineno}", followed) if dtype is not None else None
    if isinstance(expr, ast.Name) and not pass_.idx.assigns.get(expr.id):
        path = pass_.script.source.path
        got = _imported_binding(Path(str(path)).resolve() if path is not None else None, pass_.script.tree, expr.id)
        if got is not None:
            dtype = _policy_dtype(got[0])
            if dtype is not None:
                return dtype, f"{got[1].name}:{got[0].lineno}", True
    return None


def fsdp_precision(pass_: Any) -> Optional[bool]:
    """Write ``precision.mode`` from the one policy the script's FSDP wraps that run are given: True when
    written; None when a wrap is given a policy this reading does not decide (then PyTorch's fp32 default
    is not a fact of the job either); False when no wrap takes a policy."""
    found: list[tuple[Any, str, str, bool]] = []
    unread = False
    for site in pass_.calls:
        if pass_.idx.runs(site) is False:
            continue
        got = fsdp_policy(pass_, site)
        if got is not None:
            found.append((site, *got))
        elif _given_policy(site):
            unread = True
    if unread or len({f[1] for f in found}) > 1:
        return None
    if not found:
        return False
    if any((s.name or "").endswith(".from_pretrained") and any(
            pass_.dtype(s.kwarg(kw)) in ("bf16", "fp16") for kw in ("torch_dtype", "dtype")) for s in pass_.calls):
        return None  # 16-bit loaded weights under a policy: pure 16-bit or autocast-like, not decided here
    site, dtype, where, followed = found[0]
    mode = {"bf16": "amp_bf16", "fp16": "amp_fp16"}.get(dtype, "fp32")
    what = "16-bit compute over fp32 sharded weights" if mode != "fp32" else "fp32 compute"
    conf = "medium" if followed else pass_.conf(site)
    pass_.add("precision.mode", mode, pass_.src(site.call, f"{site.label}(...) given MixedPrecision(param_dtype="
                                                 f"{dtype}) ({where}), no autocast: {what}"), conf)
    return True

"""PF307's checks of the older and sampler-related Lightning release defects (the rule's file keeps the
scheduler, EarlyStopping-on-1.4 and DeepSpeed-resume ones). Each check reads a pinned release and the
code shape that triggers the defect; each range was read in the Lightning repository at the tags named:

* 0.7.0 <= v < 0.8.0: ``auto_add_sampler`` rebuilds every loader of a ddp/ddp2 run with a plain
  ``DistributedSampler`` and drops the loader's own sampler (0.7.6 ``trainer/data_loading.py``); 0.8.0
  raises ``MisconfigurationException`` instead (issue 1995).
* 0.7.4 <= v < 0.8.0: ``EarlyStopping.on_epoch_end`` runs twice per epoch, from
  ``call_early_stop_callback`` after validation and again at the end of the epoch in ``train()``
  (0.7.5 ``training_loop.py`` lines 363 and 453): patience counts twice per epoch (issue 1751).
* 1.2.0 <= v < 1.3.0: ``auto_add_sampler`` leaves a ``CombinedLoader`` returned by ``val_dataloader`` /
  ``test_dataloader`` untouched (not a ``DataLoader``); 1.3.0 applies the sampler to its loaders (issue 7013).
* 1.7.0 <= v < 2.0.3: a shuffled loader is sharded with ``DistributedSamplerWrapper(RandomSampler)``,
  whose permutation comes from each process's own RNG unless a global seed is set (PR 17713, in 2.0.3).
* v < 1.8.0.post1: ``BaseFinetuning.freeze(..., train_bn=False)`` only sets ``requires_grad=False``; the
  Trainer puts the module back in train mode, so BatchNorm running statistics keep updating (issue
  15062; PR 15063 sets ``track_running_stats=False``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any, Iterator, Optional

from preflight.plan_rules import PlanContext
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.sources import ParsedPython

_KEEP_SAMPLERS = ("DistributedSampler", "SequentialSampler", "RandomSampler")
_DDP = ("ddp", "ddp2", "ddp_spawn", "ddp_cpu", "ddp_sharded", "ddp_sharded_spawn", "ddp_fork", "ddp_notebook")
# what holds BatchNorm layers: the layer itself or the torchvision/timm CNN families built from it
_BN = re.compile(r"BatchNorm|\b(resnet|resnext|wide_resnet|densenet|efficientnet|mobilenet|regnet|inception|"
                 r"vgg\d+_bn|shufflenet|mnasnet)", re.IGNORECASE)


def in_range(version: Any, low: tuple[int, ...], high: tuple[int, ...]) -> bool:
    return version.at_least(*low) and not version.at_least(*high)


def _const(node: Optional[ast.AST]) -> Any:
    return node.value if isinstance(node, ast.Constant) else None


def _count(pctx: PlanContext, script: ParsedPython, node: Optional[ast.AST]) -> Optional[int]:
    """A device count: an int (-1: all), a list of ids, or a string "0,1" / "-1"."""
    if node is None:
        return None
    if isinstance(node, (ast.List, ast.Tuple)):
        return len(node.elts)
    found = pctx.index(script).resolve(node)
    value = found.value if found is not None else None
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip()
        if text == "-1":
            return -1
        if re.fullmatch(r"\d+(\s*,\s*\d+)*,?", text):
            return len([p for p in text.split(",") if p.strip()])
    return None


def multi_process(pctx: PlanContext, script: ParsedPython, trainer: ast.Call) -> bool:
    """The Trainer runs more than one process: ``devices``/``gpus`` > 1 or -1, or ``num_nodes`` > 1."""
    counts = [_count(pctx, script, kwarg(trainer, k)) for k in ("devices", "gpus", "num_processes", "num_nodes")]
    return any(c is not None and (c > 1 or c == -1) for c in counts)


def strategy(trainer: ast.Call) -> Optional[str]:
    """The distributed backend a Trainer names (``strategy=``, ``accelerator=`` on 1.x, ``distributed_backend=``
    on 0.x), lower-cased, when a string constant; "" when none is given."""
    for key in ("strategy", "distributed_backend", "accelerator"):
        value = _const(kwarg(trainer, key))
        if isinstance(value, str) and value.lower() not in ("gpu", "cpu", "tpu", "auto", "cuda", "mps", "hpu"):
            return value.lower()
    for key in ("strategy", "distributed_backend"):
        if kwarg(trainer, key) is not None:
            return None  # an object or a name: not read
    return ""


def _off(trainer: ast.Call, *flags: str) -> bool:
    return any(_const(kwarg(trainer, f)) is False for f in flags)


def _functions(pctx: PlanContext) -> Iterator[tuple[ParsedPython, ast.FunctionDef]]:
    for script in pctx.scripts:
        for fn in ast.walk(script.tree):
            if isinstance(fn, ast.FunctionDef):
                yield script, fn


def _bound_call(fn: Optional[ast.AST], expr: ast.AST) -> Optional[ast.Call]:
    """``expr`` as a call: the call itself, or the one call a local name is bound to in ``fn``."""
    if isinstance(expr, ast.Call):
        return expr
    if isinstance(expr, ast.Name) and fn is not None:
        bound = [n.value for n in ast.walk(fn) if isinstance(n, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)]
        if len(bound) == 1 and isinstance(bound[0], ast.Call):
            return bound[0]
    return None


def _enclosing_functions(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    out: dict[ast.AST, ast.AST] = {}
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if node is not fn:
                    out[node] = fn  # ast.walk is breadth-first: an inner function overwrites its outer one
    return out


def custom_samplers(pctx: PlanContext) -> list[tuple[ParsedPython, ast.Call, str]]:
    """``DataLoader(..., sampler=S)`` where S is built from a sampler class other than the distributed,
    sequential or random samplers (``WeightedRandomSampler``, ``SubsetRandomSampler``, a project class)."""
    out = []
    for script in pctx.scripts:
        if "sampler" not in script.source.text:
            continue
        owners = _enclosing_functions(script.tree)
        for call in ast.walk(script.tree):
            if not (isinstance(call, ast.Call) and call_last(call) == "DataLoader"):
                continue
            given = kwarg(call, "sampler")
            if given is None:
                continue
            built = _bound_call(owners.get(call), given) if isinstance(given, ast.Name) else given
            if not isinstance(built, ast.Call):
                continue
            name = call_last(built)
            if not name or name in _KEEP_SAMPLERS or "Distributed" in name or not name.endswith("Sampler"):
                continue
            out.append((script, call, name))
    return out


def sampler_replaced(pctx: PlanContext, script: ParsedPython, trainer: ast.Call, version: Any
                     ) -> Optional[tuple[ast.AST, str, list[tuple[ParsedPython, ast.AST, str]]]]:
    if not in_range(version, (0, 7), (0, 8)) or strategy(trainer) not in _DDP or _off(trainer, "replace_sampler_ddp"):
        return None
    found = custom_samplers(pctx)
    if not found:
        return None
    loader_script, loader, name = found[0]
    where = kwarg(trainer, "distributed_backend") or trainer
    return where, (
        f"a ddp Trainer on {version.describe()} with a DataLoader that samples with `{name}` (line "
        f"{loader.lineno} of {loader_script.source.display}): 0.7.x rebuilds every loader of a ddp run with a "
        f"plain `DistributedSampler` and silently drops the loader's own sampler, so the `{name}` sampling "
        "(class balancing, a subset) never happens (Lightning issue 1995; 0.8 raises instead). Pass "
        "`replace_sampler_ddp=False` and shard the custom sampling per rank yourself"), [
        (loader_script, loader, f"the loader samples with `{name}`")]


def early_stop_twice(pctx: PlanContext, script: ParsedPython, trainer: ast.Call, version: Any
                     ) -> Optional[tuple[ast.AST, str]]:
    if not in_range(version, (0, 7, 4), (0, 8)):
        return None
    given = kwarg(trainer, "early_stop_callback")
    if given is None:
        return None
    if isinstance(given, ast.Constant):
        if given.value is not True:
            return None
        patience = "3 (the default)"
    else:
        owners = _enclosing_functions(script.tree)
        built = _bound_call(owners.get(trainer), given) if isinstance(given, ast.Name) else given
        if built is None and isinstance(given, ast.Name):
            bound = [n.value for n in ast.walk(script.tree) if isinstance(n, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == given.id for t in n.targets)]
            built = bound[0] if len(bound) == 1 and isinstance(bound[0], ast.Call) else None
        if not (isinstance(built, ast.Call) and call_last(built) == "EarlyStopping"):
            return None
        value = _const(kwarg(built, "patience"))
        patience = str(value) if isinstance(value, int) else "3 (the default)" if kwarg(built, "patience") is None \
            else ast.unparse(kwarg(built, "patience"))  # type: ignore[arg-type]
    return given, (
        f"`early_stop_callback` on {version.describe()}: 0.7.4-0.7.6 call `EarlyStopping.on_epoch_end` twice per "
        "epoch (after the validation run and again at the end of the training epoch), so each epoch without "
        f"improvement counts twice and patience={patience} runs out in about half as many epochs: the run stops "
        "early with an undertrained model (Lightning issue 1751; 0.8.0 checks once per validation). Upgrade to "
        ">= 0.8, or checkpoint the best model instead of stopping early")


def combined_val_loader(pctx: PlanContext, trainer: ast.Call, script: ParsedPython, version: Any
                        ) -> Optional[tuple[ParsedPython, ast.Call, str]]:
    if not in_range(version, (1, 2), (1, 3)) or not multi_process(pctx, script, trainer):
        return None
    backend = strategy(trainer)
    if backend is None or backend == "dp" or _off(trainer, "replace_sampler_ddp"):
        return None
    for owner_script, fn in _functions(pctx):
        if fn.name not in ("val_dataloader", "test_dataloader", "predict_dataloader"):
            continue
        if "DistributedSampler" in ast.unparse(fn):
            continue
        for ret in ast.walk(fn):
            if isinstance(ret, ast.Return) and ret.value is not None:
                built = _bound_call(fn, ret.value)
                if isinstance(built, ast.Call) and call_last(built) == "CombinedLoader":
                    return owner_script, built, (
                        f"`{fn.name}` returns a `CombinedLoader` under a multi-GPU distributed Trainer on "
                        f"{version.describe()}: 1.2.x adds the `DistributedSampler` only to plain `DataLoader`s "
                        "and leaves a `CombinedLoader` as it is, so every process runs the whole of each "
                        "evaluation set and every sample counts once per GPU in the epoch metrics (Lightning "
                        "issue 7013; 1.3.0 shards the loaders inside it). Give each inner loader a "
                        "`DistributedSampler(..., shuffle=False)`, return the loaders as a list, or upgrade")
    return None


def _seeded(pctx: PlanContext) -> bool:
    for script in pctx.scripts:
        text = script.source.text
        if "seed_everything" in text or "PL_GLOBAL_SEED" in text:
            return True
    launch = getattr(pctx.project, "argv", None) or []
    return any("PL_GLOBAL_SEED" in str(a) for a in launch)


def unseeded_shuffle(pctx: PlanContext, script: ParsedPython, trainer: ast.Call, version: Any
                     ) -> Optional[tuple[ast.AST, str, list[tuple[ParsedPython, ast.AST, str]]]]:
    if not in_range(version, (1, 7), (2, 0, 3)) or not multi_process(pctx, script, trainer):
        return None
    backend = strategy(trainer)
    if backend is None or backend == "dp" or _off(trainer, "replace_sampler_ddp", "use_distributed_sampler"):
        return None
    if _seeded(pctx):
        return None
    for loader_script in pctx.scripts:
        for call in ast.walk(loader_script.tree):
            if isinstance(call, ast.Call) and call_last(call) == "DataLoader" \
                    and _const(kwarg(call, "shuffle")) is True and kwarg(call, "sampler") is None \
                    and kwarg(call, "batch_sampler") is None:
                return trainer, (
                    f"a multi-process Trainer on {version.describe()} shuffles a DataLoader (line {call.lineno} "
                    f"of {loader_script.source.display}) and no global seed is set (no `seed_everything`): "
                    "1.7.0-2.0.2 shard a shuffled loader with `DistributedSamplerWrapper(RandomSampler)`, whose "
                    "permutation comes from each process's own random state, so the ranks' shards overlap and "
                    "part of the data is never seen in an epoch (Lightning PR 17713, fixed in 2.0.3). Call "
                    "`seed_everything(...)` before building the Trainer, or upgrade"), [
                    (loader_script, call, "the shuffled loader")]
    return None


def _bn_kept_in_eval(pctx: PlanContext) -> bool:
    """The project puts a module back in eval mode from a training hook or stops the statistics itself."""
    for _, fn in _functions(pctx):
        if fn.name.startswith(("on_train", "on_epoch_start", "on_validation_model_train", "train")) and any(
                isinstance(c, ast.Call) and call_last(c) == "eval" for c in ast.walk(fn)):
            return True
    return any("track_running_stats" in s.source.text or "momentum = 0" in s.source.text for s in pctx.scripts)


def finetuning_bn_stats(pctx: PlanContext, version: Any) -> Iterator[tuple[ParsedPython, ast.Call, str]]:
    if version.at_least(1, 8, 1) or version.text.startswith("1.8.0.post"):
        return
    if not any(_BN.search(s.source.text) for s in pctx.scripts) or _bn_kept_in_eval(pctx):
        return
    for script in pctx.scripts:
        if "train_bn" not in script.source.text:
            continue
        for cls in ast.walk(script.tree):
            if not isinstance(cls, ast.ClassDef) or not any(
                    "Finetuning" in ast.unparse(b) for b in cls.bases):
                continue
            for call in ast.walk(cls):
                if isinstance(call, ast.Call) and call_last(call) == "freeze" \
                        and _const(kwarg(call, "train_bn")) is False:
                    target = ast.unparse(call.args[0]) if call.args else "the module"
                    yield script, call, (
                        f"`{ast.unparse(call)}` on {version.describe()}: before 1.8.0.post1 `freeze` with "
                        "`train_bn=False` only sets `requires_grad=False`; the Trainer puts the whole model back "
                        f"in train mode, so the BatchNorm layers of `{target}` keep overwriting their running "
                        "mean and variance with the new data's statistics and the \"frozen\" features drift "
                        "(Lightning issue 15062, fixed by PR 15063). Keep the module in eval mode (e.g. "
                        f"`{target}.eval()` in `on_train_epoch_start`) or upgrade")


_OPT_HOOKS = ("optimizer_step", "optimizer_zero_grad")


def _accumulates(pctx: PlanContext, script: ParsedPython, node: Optional[ast.AST]) -> Optional[str]:
    """``accumulate_grad_batches`` above 1: an int > 1, or a ``{epoch: n}`` schedule with some n > 1."""
    if node is None:
        return None
    if isinstance(node, ast.Dict):
        values = [_const(v) for v in node.values]
        return ast.unparse(node) if any(isinstance(v, int) and not isinstance(v, bool) and v > 1
                                        for v in values) else None
    found = pctx.index(script).resolve(node)
    value = found.value if found is not None else None
    return str(value) if isinstance(value, int) and not isinstance(value, bool) and value > 1 else None


def overridden_step_with_accumulation(pctx: PlanContext, script: ParsedPython, trainer: ast.Call, version: Any
                                      ) -> Optional[tuple[ast.AST, str, list[tuple[ParsedPython, ast.AST, str]]]]:
    """1.1.0 <= v < 1.4.0: ``ConfigValidator`` raises when the module overrides ``optimizer_step`` or
    ``optimizer_zero_grad`` and the Trainer accumulates with automatic optimization (issue 5054; PR 7980 lifted the
    check in 1.4.0)."""
    if not in_range(version, (1, 1), (1, 4)):
        return None
    given = kwarg(trainer, "accumulate_grad_batches")
    shown = _accumulates(pctx, script, given)
    if shown is None or given is None or _off(trainer, "automatic_optimization"):
        return None
    for owner, fn in _functions(pctx):
        if fn.name not in _OPT_HOOKS:
            continue
        cls = next((c for c in ast.walk(owner.tree) if isinstance(c, ast.ClassDef) and fn in c.body), None)
        if cls is None or not any("Lightning" in ast.unparse(b) or "pl." in ast.unparse(b) for b in cls.bases):
            continue
        if "automatic_optimization" in ast.unparse(cls):
            continue  # the module may turn automatic optimization off itself
        return given, (
            f"`accumulate_grad_batches={shown}` with `{cls.name}.{fn.name}` overridden, on {version.describe()}: "
            "1.1.0-1.3.8 check the configuration in `trainer.fit` and raise MisconfigurationException (\"When "
            "overriding `LightningModule` optimizer_step or optimizer_zero_grad, `accumulate_grad_batches` in "
            "`Trainer` should be 1\") before the first batch, a setup 1.0.8 trained (Lightning issue 5054; PR 7980 "
            "lifted the check in 1.4.0). Pin pytorch-lightning 1.0.8 or >= 1.4, or set `accumulate_grad_batches=1`"), [
            (owner, fn, f"`{cls.name}` overrides `{fn.name}`")]
    return None


# the Trainer arguments that put a pre-1.5 run on an accelerator (or leave the choice to something preflight
# does not read)
_DEVICE_KEYS = ("gpus", "tpu_cores", "ipus", "devices", "accelerator", "auto_select_gpus", "num_processes",
                "distributed_backend", "strategy", "plugins")


def amp_on_cpu(pctx: PlanContext, script: ParsedPython, trainer: ast.Call, version: Any
               ) -> Optional[tuple[ast.AST, str, list[tuple[ParsedPython, ast.AST, str]]]]:
    """``Trainer(precision=16)`` with no device argument on 0.7.0 <= v < 1.5: the run is placed on the CPU (``gpus``
    defaults to None; a model moved with ``.cuda()`` does not count) and these releases refuse 16-bit there
    ("amp + cpu is not supported. Please use a GPU option" in 0.7.6-1.2, "You have asked for native AMP on CPU,
    but AMP is only available on GPU" in 1.2-1.4; 1.5 warns and switches to bf16 instead)."""
    if not in_range(version, (0, 7), (1, 5)):
        return None
    precision = kwarg(trainer, "precision")
    if _const(precision) not in (16, "16") or precision is None:
        return None
    if any(kw.arg is None or kw.arg in _DEVICE_KEYS for kw in trainer.keywords) or trainer.args:
        return None
    return precision, (
        f"`Trainer(precision=16)` with no `gpus` (or other device argument) on {version.describe()}: before 1.5 "
        "the Trainer runs on the CPU unless it is given GPUs (a model moved with `.cuda()` does not count), and "
        "16-bit AMP is refused there: `fit` stops with \"amp + cpu is not supported. Please use a GPU option\" "
        "(\"You have asked for native AMP on CPU\" on 1.2-1.4) before the first batch (Lightning issue 1844). "
        "Pass `gpus=1` (or train in 32-bit)"), []


# words that say the passes repeat one training (ensemble members, seeds, replicas), not a sweep over datasets or
# settings where one shared seed is harmless
_REPEATS = re.compile(r"seed|ensemble|member|repeat|replica|trial|bootstrap", re.IGNORECASE)
_LOOP = re.compile(r"^\s*(for|while)\b.*?(\bdo\b|$)(?P<body>.*?)^\s*done\b", re.MULTILINE | re.DOTALL)


def _relaunched(pctx: PlanContext, script: ParsedPython) -> Optional[str]:
    """The launch script's shell loop that runs ``script`` again on each pass (``for m in 0 1 2; do python
    train.py --member $m; done``), as its first line; None when there is none."""
    from preflight.rules.plan._launch_hardware import launch_scripts
    from preflight.sources import read_text_limited

    name = re.escape(Path(str(script.source.path)).name)
    for display, path in launch_scripts(pctx):
        try:
            text = read_text_limited(path, errors="replace")
        except OSError:  # InputRefused is an OSError
            continue
        for loop in _LOOP.finditer(text):
            before = "\n".join(text[:loop.start()].splitlines()[-2:])
            if re.search(rf"(^|[\s/]){name}\b", loop.group("body")) \
                    and _REPEATS.search(re.sub(r"\S*\.py\b", " ", before + "\n" + loop.group(0))):
                return f"{display}: `{loop.group(0).strip().splitlines()[0].strip()}`"
    return None


def unseeded_seed_everything(pctx: PlanContext, script: ParsedPython, version: Any
                             ) -> Optional[tuple[ast.Call, str]]:
    """``seed_everything()`` with no seed on >= 2.2.0 in a script a launch script runs in a loop: 2.2.0 seeds 0
    when no seed is given and ``PL_GLOBAL_SEED`` is unset (2.1 drew a random seed), so every pass of the loop
    trains the same run (python-chebai issue 12)."""
    if not version.at_least(2, 2) or "seed_everything" not in script.source.text:
        return None
    if any("PL_GLOBAL_SEED" in s.source.text for s in pctx.scripts) \
            or any("PL_GLOBAL_SEED" in str(a) for a in (getattr(pctx.project, "argv", None) or [])):
        return None
    call = next((c for c in ast.walk(script.tree) if isinstance(c, ast.Call) and call_last(c) == "seed_everything"
                 and not c.args and not any(k.arg in (None, "seed") for k in c.keywords)), None)
    if call is None:
        return None
    loop = _relaunched(pctx, script)
    if loop is None:
        return None
    from preflight.rules.plan._launch_hardware import launch_scripts
    from preflight.sources import read_text_limited
    for _display, path in launch_scripts(pctx):
        try:
            if "PL_GLOBAL_SEED" in read_text_limited(path, errors="replace"):
                return None
        except OSError:
            continue
    return call, (
        f"`seed_everything()` without a seed on {version.describe()}, in a script the launch runs in a loop "
        f"({loop}): since 2.2.0 Lightning seeds 0 when no seed is given and `PL_GLOBAL_SEED` is unset (2.1 "
        "drew a random seed), so every pass trains with the same initialisation, data order and dropout masks "
        "and the runs are copies of one another (python-chebai issue 12). Pass a distinct seed per run "
        "(`seed_everything(args.member)`)")

"""Composed Hydra values the code reads where a plan field is decided: a project's own config
keys (``config.model.name_or_path``, ``config.optimizer``, ``config.model.policy_dtype``) are
not named like a framework's, so their meaning comes from where the code uses them
(eric-mitchell/direct-preference-optimization ``train.py``/``trainers.py``, ContextualAI/HALOs
``launch.py``):

* ``X.from_pretrained(E, ...)`` (not a tokenizer, processor or config): ``E`` is the model
  reference (``config.model.load_from or config.model.name_or_path``: the first set value);
* ``getattr(torch.optim, E)(...)``: the optimizer's class name;
* ``MixedPrecision(param_dtype=getattr(torch, E))``: FSDP autocast in that dtype
  (``amp_bf16``/``amp_fp16``); else the trained model loaded with ``torch_dtype=getattr(torch, E)``
  of a 16-bit dtype and no mixed-precision policy or autocast setting: 16-bit weights (``bf16``);
* ``attn_implementation=E`` given to ``from_pretrained`` (directly or in a ``**kwargs`` dict);
* ``if E:`` around ``gradient_checkpointing_enable()``/``apply_activation_checkpointing`` or
  around ``LoraConfig``/``get_peft_model``: gradient checkpointing / LoRA on or off;
* a key named like a sequence bound (``max_length``, ``max_seq_len``, ``block_size`` ...) or an
  accumulation count (``gradient_accumulation_steps``, ``num_microbatches``) that the code reads;
* a bool given as ``checkpoint=``/``gradient_checkpointing=``/``activation_checkpointing=``, and a
  ``batch_size=`` given to a data loader builder (per process);
* ``M = B / (P * A)`` with ``B`` a ``batch_size`` key, ``A`` the accumulation key and ``P`` the
  process count (``accelerator.num_processes``/``world_size``): ``B`` is the global batch.

The expressions understood are attribute chains on the config (the ``@hydra.main`` function's
parameter, ``config``/``cfg`` and ``self.config``/``self.cfg``), constants, ``getattr(torch, E)``,
``a or b``, ``x if c else y`` with ``is None``/``in``/``==`` tests, and a local name assigned once
in the same function. Every fact is ``medium`` and points at the config line of the key; the
code is read, never imported.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Callable, Optional

from preflight.adapters.hydra_reader import (
    _ACCEL_MP,
    _ACCUM,
    _CKPT_CALLS,
    _CKPT_KWARGS,
    _CKPT_NAMED,
    _COMPILE_KEYS,
    _HALF,
    _IMAGE,
    _MAX_BYTES,
    _NOT_MODEL,
    _PARTS,
    _PEFT_CALLS,
    _PROCS,
    _ROOTS,
    _SEQ,
    Add,
    Known,
    _call_name,
    _calls_in,
    _dotted,
    _Found,
    _functions,
    _Reader,
    _Torch,
    _Val,
)

from preflight.analysis.syntax import own_nodes
from preflight.sources import read_text_limited


def rebound_parameters(tree: ast.AST) -> dict[str, set[str]]:
    """Each class (its ``__init__``) and function of ``tree`` -> the parameters its own body assigns.
    A switch handed to it may be overridden there: modelscope/DiffSynth-Studio
    ``examples/wanvideo/model_training/train.py:31-33`` ``if not use_gradient_checkpointing: ...
    use_gradient_checkpointing = True`` inside the ``WanTrainingModule`` the script builds with
    ``use_gradient_checkpointing=args.use_gradient_checkpointing``."""
    out: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        fn: Any = node
        if isinstance(node, ast.ClassDef):
            fn = next((b for b in node.body if isinstance(b, ast.FunctionDef) and b.name == "__init__"), None)
        elif not isinstance(node, ast.FunctionDef):
            continue
        if fn is None:
            continue
        params = {a.arg for a in [*fn.args.args, *fn.args.kwonlyargs]}
        assigned = {t.id for n in ast.walk(fn) if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))
                    for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)}
        if params & assigned:
            out.setdefault(node.name, set()).update(params & assigned)
    return out


def _scan(tree: ast.AST, reader: _Reader, found: _Found) -> None:
    reader.param_rebinds = rebound_parameters(tree)
    for fn in _functions(tree):
        nodes = list(own_nodes(fn))
        reader.assigns = {}
        for node in nodes:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                reader.assigns.setdefault(node.targets[0].id, []).append(node.value)
        for node in nodes:
            if isinstance(node, ast.Call):
                _call(node, reader, found)
            elif isinstance(node, ast.If):
                _guard(node, reader, found)
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.BinOp):
                _division(node.value, reader, found)
            elif isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Store):
                reader.ev(node)
        found.read |= reader.read_paths
    found.ray_driver = found.ray_driver or ray_driver(tree)


def ray_driver(tree: ast.AST) -> bool:
    """The module hands work to Ray actors or tasks (a ``@ray.remote`` decorator, ``X.remote(...)``): a
    single controller whose data loaders feed the workers (Search-R1's vendored verl
    ``verl/trainer/main_ppo.py:110-113`` ``@ray.remote def main_task`` and ``ray.get(main_task.remote(config))``,
    whose ``RayPPOTrainer`` builds ``DataLoader(batch_size=config.data.train_batch_size)`` of prompts in the
    driver, ``verl/trainer/ppo/ray_trainer.py:390``; each worker's micro batch is its own key,
    ``fsdp_workers.py:98``). Ray Train's per-worker loops (``TorchTrainer(train_loop_per_worker)``) use neither."""
    nodes = list(ast.walk(tree))
    if not any((isinstance(n, ast.Import) and any(a.name.split(".")[0] == "ray" for a in n.names))
               or (isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] == "ray" and not n.level)
               for n in nodes):
        return False
    return any((isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and any(
               _dotted(d.func if isinstance(d, ast.Call) else d) == "ray.remote" for d in n.decorator_list))
               or (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "remote")
               for n in nodes)


def _generation_call(name: str) -> bool:
    return name in ("generate", "sample", "beam_search", "greedy_search")


def _localised(node: ast.AST, reader: _Reader) -> Optional[_Val]:
    """The config value behind a path made local before ``from_pretrained`` reads it: ``E`` of
    ``local = helper(src=E, verbose=True)`` (or ``helper(E)``) when ``E`` is the call's only
    argument that is not a constant (volcengine/verl@b178a3cd56f5 ``verl/trainer/fsdp_sft_trainer.py:211,240-241``:
    ``local_model_path = copy_to_local(src=self.config.model.partial_pretrain, verbose=True)`` then
    ``AutoModelForCausalLM.from_pretrained(local_model_path, ...)``): the helper downloads or copies
    what the config names, so the config value is the model's reference."""
    if isinstance(node, ast.Name):
        values = reader.assigns.get(node.id, [])
        node = values[0] if len(values) == 1 else node
    if not isinstance(node, ast.Call):
        return None
    args = [*node.args, *(k.value for k in node.keywords if k.arg is not None)]
    moving = [a for a in args if not isinstance(a, ast.Constant)]
    if len(moving) != 1 or len(node.keywords) != len([k for k in node.keywords if k.arg is not None]):
        return None
    got = reader.ev(moving[0])
    return got if got is not None and got.path is not None and isinstance(got.value, str) else None


def _call(call: ast.Call, reader: _Reader, found: _Found) -> None:
    name = _call_name(call)
    line = call.lineno
    if name == "from_pretrained" and isinstance(call.func, ast.Attribute):
        owner = _dotted(call.func.value) or ""
        if "Tokenizer" in owner:  # Emu3 ``Emu3Tokenizer.from_pretrained(..., model_max_length=args.max_position_embeddings)``
            limit = next((k.value for k in call.keywords if k.arg == "model_max_length"), None)
            got = reader.ev(limit) if limit is not None else None
            value = got.value if got is not None else None
            if isinstance(value, str) and value.isdigit():
                value = int(value)  # the launch line's text of an int field (HfArgumentParser converts it)
            if got is not None and got.path is not None and isinstance(value, int) \
                    and not isinstance(value, bool) and value > 0:
                found.tok_len.append((value, got.path, line))
        # the name as the first argument or by keyword (OpenDiloco ``train_fsdp.py:174``
        # ``LlamaForCausalLM.from_pretrained(pretrained_model_name_or_path=config.path_model, ...)``)
        first = call.args[0] if call.args else \
            next((k.value for k in call.keywords if k.arg == "pretrained_model_name_or_path"), None)
        if any(word in owner for word in _NOT_MODEL) or first is None:
            return
        part = next((k.value for k in call.keywords if k.arg == "subfolder"), None)
        if isinstance(part, ast.Constant) and part.value in _PARTS:
            return
        ref = reader.ev(first) or _localised(first, reader)
        if ref is None or ref.path is None or not isinstance(ref.value, str) or not ref.value:
            return
        found.refs.append((ref.value, ref.path, line))
        kwargs = reader.kwargs_of(call)
        dtype = reader.ev(kwargs.get("torch_dtype", kwargs.get("dtype")))
        if dtype is not None and isinstance(dtype.value, _Torch) and dtype.path is not None:
            found.dtypes.append((dtype.value.name, dtype.path, line))
        attn = reader.ev(kwargs.get("attn_implementation"))
        if attn is not None and attn.path is not None and isinstance(attn.value, str):
            found.attn.append((attn.value, attn.path, line))
        return
    for kw in call.keywords:
        if kw.arg is None:  # ``DiT(**model_cfg.model.arch)``: the section's keys are the keywords (F5-TTS)
            section = reader.ev(kw.value)
            if section is not None and section.path is not None and isinstance(section.value, dict) \
                    and name.endswith("DataLoader") and not _held_out_split(section.path):
                _loader_section(kw.value, section.value, reader, found, line)
            if section is not None and section.path is not None and isinstance(section.value, dict):
                for key in section.value:
                    if isinstance(key, str) and (key in _CKPT_KWARGS or _CKPT_NAMED.search(key)):
                        got = reader.ev(ast.Attribute(kw.value, key, ast.Load()))
                        if got is not None and got.path is not None and isinstance(got.value, bool):
                            found.ckpt.append((got.value, got.path, line))
        elif kw.arg in _SEQ and kw.arg != "max_length" and not _generation_call(name):
            # MDLM ``get_dataset(..., block_size=config.model.length)`` (``max_length`` is left out: a
            # tokenizer call for the source and another for the target each have one)
            got = reader.ev(kw.value)
            if got is not None and got.path is not None and isinstance(got.value, int) \
                    and not isinstance(got.value, bool) and got.value > 0:
                found.seq.append((got.value, got.path, line))
        elif kw.arg == "num_workers" and "loader" in name.lower() and isinstance(kw.value, ast.Call):
            from preflight.adapters.loader_workers_bound import bounded_workers

            bounded = bounded_workers(kw.value, reader)  # ``num_workers=min(config.num_workers, batch_size)``
            if bounded is not None:
                found.workers.append((bounded[0], bounded[1], line))
        elif kw.arg == "mixed_precision" and name == "Accelerator":
            # x-flux ``Accelerator(mixed_precision=args.mixed_precision)`` with ``mixed_precision: "bf16"``
            got = reader.ev(kw.value)
            if got is not None and got.path is not None and isinstance(got.value, str) \
                    and got.value.lower() in _ACCEL_MP:
                found.accel_mp.append((_ACCEL_MP[got.value.lower()], got.path, line))
        elif kw.arg in ("gradient_accumulation_steps", "accumulate_grad_batches"):
            got = reader.ev(kw.value)  # the framework's own keyword: a count whatever the key is named
            if got is not None and got.path is not None and isinstance(got.value, int) \
                    and not isinstance(got.value, bool) and got.value > 0:
                found.accum.append((got.value, got.path, line))
        if (kw.arg in _CKPT_KWARGS or (kw.arg is not None and _CKPT_NAMED.search(kw.arg))) \
                and kw.arg not in reader.param_rebinds.get(name, ()):
            got = reader.ev(kw.value)
            if got is not None and got.path is not None and isinstance(got.value, bool):
                found.ckpt.append((got.value, got.path, line))
        elif (kw.arg == "batch_size" and ("loader" in name.lower() or name.rsplit(".", 1)[-1].endswith("ReplayBuffer"))) \
                or (kw.arg == "per_device_train_batch_size" and name == "TrainingArguments"):  # the per-process batch
            # a replay buffer draws each update's batch itself (MishaLaskin/curl @ 8416d6e train.py:204-211
            # ``utils.ReplayBuffer(..., batch_size=args.batch_size)``, utils.py:123-128 ``sample_cpc``)
            got = reader.ev(kw.value)
            # a key of an evaluation section (``cfg.TEST.IMS_PER_BATCH``, reid-strong-baseline data/build.py:43) is
            # not the training batch (the key's own name is left to the code: a training loader may read it)
            if got is not None and got.path is not None and isinstance(got.value, int) and got.value > 0 \
                    and not _held_out_split(tuple(got.path)[:-1]):
                found.loader_batch.append((got.value, got.path, line))
    if name in ("set_activation_checkpointing", "set_gradient_checkpointing") and len(call.args) == 1:
        # OLMo ``olmo_model.set_activation_checkpointing(cfg.activation_checkpointing)``: a strategy, None is off
        got = reader.ev(call.args[0])
        if got is not None and got.path is not None and (got.value is None or isinstance(got.value, (bool, str))):
            found.ckpt.append((bool(got.value), got.path, line))
    if name == "LoraConfig":
        rank = reader.ev(reader.kwargs_of(call).get("r"))
        if rank is not None and rank.path is not None and isinstance(rank.value, int) \
                and not isinstance(rank.value, bool) and rank.value > 0:
            found.rank.append((rank.value, rank.path, line))
    if name == "MixedPrecision":
        kwargs = reader.kwargs_of(call)
        dtype = reader.ev(kwargs.get("param_dtype"))
        if dtype is not None and dtype.path is not None:
            value = dtype.value.name if isinstance(dtype.value, _Torch) else None if dtype.value is None else "?"
            found.mixed.append((value or "none", dtype.path, line))
        return
    zipped = _zipped_batch(call, name, reader)  # BLIP's ``create_loader(..., batch_size=[E], ...)`` (loader_zip.py)
    if zipped is not None:
        found.loader_batch.append((zipped.value, zipped.path, line))
    from preflight.adapters.sampler_batch import sampler_batch_arg

    batch = sampler_batch_arg(call, name, reader)  # a project batch sampler's batch (VITS DistributedBucketSampler)
    got = reader.ev(batch) if batch is not None else None
    if got is not None and got.path is not None and isinstance(got.value, int) and not isinstance(got.value, bool) \
            and got.value > 0:
        found.loader_batch.append((got.value, got.path, line))
    if isinstance(call.func, ast.Call):  # getattr(torch.optim, E)(...)
        got = reader.ev(call.func)
        if got is not None and isinstance(got.value, _Torch) and got.value.module == "torch.optim" and got.path:
            found.optim.append((got.value.name, got.path, line))


def _zipped_batch(call: ast.Call, name: str, reader: _Reader) -> Any:
    """The training element of the list a project loader helper zips into ``DataLoader(batch_size=...)``, read
    from the configuration (:mod:`preflight.adapters.loader_zip`); None otherwise."""
    builder = getattr(reader, "builder", None)
    if builder is None or "loader" not in name.lower() or "." in name:
        return None
    fn = builder.m.function(name)
    if fn is None or fn[2] is not None:
        return None
    from preflight.adapters.loader_zip import training_element

    element = training_element(call, fn[1], "batch_size")
    got = reader.ev(element) if element is not None else None
    if got is None or got.path is None or not isinstance(got.value, int) or isinstance(got.value, bool) \
            or got.value <= 0 or _held_out_split(tuple(got.path)[:-1]):
        return None
    return got


def _held_out_split(path: tuple) -> bool:
    """A section for validation or test data (``val_dataloader``, ``eval.loader``)."""
    return any(isinstance(p, str) and p.lower().startswith(("val", "eval", "test")) for p in path)


def _loader_section(expr: ast.expr, section: dict, reader: _Reader, found: _Found, line: int) -> None:
    """``DataLoader(dataset, **cfg.dataloader)``: the section's ``batch_size``, ``num_workers`` and
    ``pin_memory`` are the loader's (real-stanford/diffusion_policy @ 5ba07ac
    diffusion_policy/workspace/train_diffusion_unet_hybrid_workspace.py:75)."""
    sinks: tuple[tuple[str, list[Any], type], ...] = (
        ("batch_size", found.loader_batch, int), ("num_workers", found.workers, int), ("pin_memory", found.pin, bool))
    for key, into, kind in sinks:
        if key not in section:
            continue
        got = reader.ev(ast.Attribute(expr, key, ast.Load()))
        if got is None or got.path is None or not isinstance(got.value, kind):
            continue
        value = got.value
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)
                            or value < (1 if key == "batch_size" else 0)):
            continue
        into.append((got.value, got.path, line))


def _guard(node: ast.If, reader: _Reader, found: _Found) -> None:
    decided = reader.test(node.test)
    if decided is None:
        return
    path = None
    for sub in ast.walk(node.test):
        path = reader.chain(sub) or path
    if path is None:
        return
    if _calls_in(node.body, _CKPT_CALLS) is not None and _calls_in(node.orelse, _CKPT_CALLS) is None:
        found.ckpt.append((decided, path, node.lineno))
    if _calls_in(node.body, ("compile",)) is not None and _calls_in(node.orelse, ("compile",)) is None \
            and _compiles(node.body):
        found.compile.append((decided, path, node.lineno))
    peft = _calls_in(node.body, _PEFT_CALLS)
    from preflight.adapters.peft_tables import loads_trainable_adapter

    # LoftQ ``if lora_init: get_peft_model(...)`` ``else: PeftModel.from_pretrained(..., is_trainable=True)``
    other = _calls_in(node.orelse, _PEFT_CALLS) or loads_trainable_adapter(node.orelse)
    if peft is not None and other is None:
        rank = None
        lora = _calls_in(node.body, ("LoraConfig",)) if decided else None
        if lora is not None:
            rank = reader.ev(reader.kwargs_of(lora).get("r"))
        found.peft.append((decided, path, node.lineno, rank))
    elif peft is None and decided:
        from preflight.adapters.guard_clause import ends_in_exit

        if ends_in_exit(node.body):  # a guard clause taken: LoRA past it does not run (adapters/guard_clause.py)
            found.peft.append((False, path, node.lineno, None))


def _compiles(stmts: list[ast.stmt]) -> bool:
    """``torch.compile(...)`` (or ``model.compile()``) in the statements."""
    call = _calls_in(stmts, ("compile",))
    return call is not None and isinstance(call.func, ast.Attribute) and \
        (_dotted(call.func.value) == "torch" or not call.args)


def _division(expr: ast.BinOp, reader: _Reader, found: _Found) -> None:
    """``B / (P * A)`` (or ``//``) with B a batch_size key, A an accumulation key, P a process count."""
    if not isinstance(expr.op, (ast.Div, ast.FloorDiv)):
        return
    num = reader.ev(expr.left)
    if num is None or num.path is None or num.path[-1] != "batch_size" or not isinstance(num.value, int):
        return
    words = [(_dotted(n) or "") for n in ast.walk(expr.right) if isinstance(n, (ast.Attribute, ast.Name))]
    procs = any(w.rsplit(".", 1)[-1] in _PROCS for w in words)
    accum = any(w.rsplit(".", 1)[-1] in _ACCUM for w in words)
    if procs and accum:
        found.global_batch.append((num.value, num.path, expr.lineno))


def _read_tree(path: Path) -> Optional[ast.AST]:
    try:
        text = read_text_limited(path, errors="replace")
    except OSError:
        return None
    if len(text) > _MAX_BYTES:
        return None
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None


def _main_param(tree: ast.AST) -> Optional[str]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.args.args:
            for dec in node.decorator_list:
                target = dec.func if isinstance(dec, ast.Call) else dec
                if (_dotted(target) or "").endswith(("hydra.main", "hydra_main")):  # dora's hydra_main too
                    return node.args.args[0].arg
    return None


def read_facts(script_tree: ast.AST, script_path: Path, display: str, known: Known, add: Add,
               null: Callable[[tuple], bool], extra: Optional[list[Path]] = None) -> None:
    """Write the facts of the composed values the script (and the local modules beside it that
    it imports, and the ``extra`` modules: the project class the config's top-level ``_target_``
    names) read where a plan field is decided; ``known(path)`` is the composed value (None
    when unset or unknown), ``null(path)`` says the key is set to null."""
    main = _main_param(script_tree)
    roots = tuple(dict.fromkeys(((main,) if main else ()) + _ROOTS))
    read_object_facts(script_tree, script_path, display, roots, known, add, null, extra)


def read_object_facts(script_tree: ast.AST, script_path: Path, display: str, roots: tuple[str, ...], known: Known,
                      add: Add, null: Callable[[tuple], bool], extra: Optional[list[Path]] = None) -> None:
    """The same reading for any config object the code holds under one of ``roots`` (a project
    dataclass loaded from a YAML file: adapters/dataclass_config.py)."""
    from preflight.adapters.pytorch_local import _imported_local

    found = _Found()
    trees = [(display, script_tree)]
    for local in [*_imported_local(script_tree, script_path.parent)[:12], *(extra or [])[:4]]:
        tree = _read_tree(local)
        if tree is not None:
            trees.append((local.name, tree))
    for name, tree in trees:
        _scan(tree, _Reader(roots, known, add, name, null), found)
    _emit(found, known, add, display)


def _emit(found: _Found, known: Known, add: Add, display: str) -> None:
    refs = {r[0] for r in found.refs}
    if len(refs) == 1:
        value, path, line = found.refs[0]
        add("model.ref", value, path, f"{'.'.join(path)} given to from_pretrained() at {display}:{line}", "medium")
    if len({o[0] for o in found.optim}) == 1:
        value, path, line = found.optim[0]
        add("optimizer.name", value, path, f"getattr(torch.optim, {'.'.join(path)}) ({value})", "medium")
    if len({a[0] for a in found.attn}) == 1:
        value, path, line = found.attn[0]
        add("model.attn_implementation", value, path, "attn_implementation given to from_pretrained()", "medium")
    mixed = {m[0] for m in found.mixed}
    if len(mixed) == 1 and next(iter(mixed)) in _HALF:
        value, path, line = found.mixed[0]
        add("precision.mode", "amp_" + _HALF[value], path,
            f"MixedPrecision(param_dtype=torch.{value}) (FSDP autocast over the loaded weights)", "medium")
    elif not found.mixed and found.dtypes:
        value, path, line = found.dtypes[-1]
        dtypes = {d[0] for d in found.dtypes}
        if value in _HALF and len(dtypes) == 1:
            add("precision.mode", _HALF[value], path,
                f"the model is loaded in torch.{value} (from_pretrained at line {line}) and trained in it: no "
                "mixed-precision policy in the code", "medium")
    def one_value(field: str, sites: list, what: str) -> None:
        """``field`` from the key all ``sites`` (value, key path, line) agree on; ``what`` says how
        the code uses the key ({key} and {line} filled in)."""
        if len({site[0] for site in sites}) == 1:
            value, path, line = sites[0]
            add(field, value, path, what.format(key=".".join(map(str, path)), line=line), "medium")

    one_value("memory.gradient_checkpointing", found.ckpt, "{key} guards activation checkpointing (line {line})")
    # Latte ``if args.use_compile: model = torch.compile(model)``
    one_value("compile.enabled", found.compile, "{key} guards torch.compile (line {line})")
    if found.peft:  # one guard decided true builds the LoRA (LMFlow: use_lora true, use_dora false)
        on = sorted((p for p in found.peft if p[0]), key=lambda p: p[3] is None)  # the guard of LoraConfig(r=) first
        value, path, line, rank = (on or found.peft)[0]
        add("peft.method", "lora" if value else "none", path, f"{'.'.join(path)} guards LoraConfig/get_peft_model "
            f"(line {line})", "medium")
        if value and rank is not None and isinstance(rank.value, int) and rank.path is not None:
            add("peft.rank", rank.value, rank.path, "LoraConfig(r=...)", "medium")
    elif len({r[0] for r in found.rank}) == 1:  # no guard read, one LoraConfig whose rank a key gives
        value, path, line = found.rank[0]
        add("peft.rank", value, path, f"{'.'.join(path)} given to LoraConfig as r (line {line})", "medium")
    one_value("batch.global", found.global_batch, "{key} divided by the processes and accumulation steps "
              "(line {line}): the batch over all processes")
    from preflight.adapters.micro_keys import micro_keys

    micro = micro_keys(found.read, known)
    if len({m[0] for m in micro}) == 1:
        # a ``micro_batch_size`` key the code reads: the loader's batch (or the episodes generated from it,
        # policy-gradient/GRPO-Zero grpo.py:154-164) is split into micro batches of that size, one backward each
        value, path = micro[0]
        add("batch.micro", value, path, f"{'.'.join(map(str, path))} read by the code: the batch is split into "
            "micro batches of this size (one backward each; read from the key's name: low)", "low")
    elif not found.ray_driver:  # a Ray controller's loader batch is split over the workers (``ray_driver``)
        loaders = found.loader_batch
        if len({site[0] for site in loaders}) > 1:
            # loaders that disagree: one fed an evaluation option (``args.eval_batch_size``, ViT-pytorch
            # utils/data_utils.py:56-60 beside the training loader's ``args.train_batch_size``) is not the training one
            loaders = [site for site in loaders if not _held_out_split(tuple(site[1])[-1:])] or loaders
        one_value("batch.micro", loaders, "{key} given to a data loader as batch_size (line {line}): "
                  "per process")
    one_value("data.num_workers", found.workers, "{key} given to a data loader as num_workers (line {line})")
    one_value("data.pin_memory", found.pin, "{key} given to a data loader as pin_memory (line {line})")
    seq = {q[0] for q in found.seq}
    if not found.seq and found.padded and len({t[0] for t in found.tok_len}) == 1:
        value, path, line = found.tok_len[0]
        seq = {value}
        add("data.seq_len", value, path, f"{'.'.join(path)} given to the tokenizer as model_max_length (line {line}), "
            "and the project pads every sample to it (padding=\"max_length\" without a max_length)", "medium")
    elif len(seq) == 1:
        value, path, line = found.seq[0]
        add("data.seq_len", value, path, f"{'.'.join(path)} given as a sequence length keyword (line {line})",
            "medium")
    one_value("batch.grad_accum", found.accum, "{key} given as gradient_accumulation_steps (line {line})")
    one_value("precision.mode", found.accel_mp, "{key} given to Accelerator as mixed_precision (line {line}): "
              "autocast (an accelerate DeepSpeed config would change it)")
    for path in sorted(found.read):
        value = known(path)
        last = path[-1].lower() if isinstance(path[-1], str) else path[-1]  # yacs keys are upper case
        if value is False and last in _COMPILE_KEYS and not found.compile:
            # parler-tts run_parler_tts_training.py:419 ``if training_args.torch_compile:`` with the
            # TrainingArguments default False: whatever the switch turns on does not run
            add("compile.enabled", False, path, f"{'.'.join(path)} read by the code (False)", "medium")
            continue
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            continue
        if last == "global_batch_size":
            add("batch.global", value, path, f"{'.'.join(path)} read by the code", "medium")
        elif last in _SEQ and not seq:
            add("data.seq_len", value, path, f"{'.'.join(path)} read by the code", "medium")
        elif last in _ACCUM and not found.accum:
            add("batch.grad_accum", value, path, f"{'.'.join(path)} read by the code", "medium")
        elif last in _IMAGE:
            add("data.image_size", value, path, f"{'.'.join(path)} read by the code", "medium")


def is_null(cfg: Any, path: tuple) -> bool:
    """The key is in the composed config with the value null (set, to nothing)."""
    node: Any = cfg
    for part in path[:-1]:
        node = node.get(part) if isinstance(node, dict) else None
    return isinstance(node, dict) and path[-1] in node and node[path[-1]] is None


def no_peft(adapter: Any, plan: Any, project: Any, app: Any, cfg: Any) -> None:
    """Neither the composed config nor the app's script and the local modules it imports name
    PEFT/LoRA (eric-mitchell/direct-preference-optimization): no PEFT, medium."""
    import json

    from preflight.adapters.pytorch_local import _PEFT_WORDS, names_peft

    from preflight.plan import Source

    script = app.script
    if script is None or script.tree is None or script.source.path is None:
        return
    if _PEFT_WORDS.search(json.dumps(cfg, default=str)) is not None:
        return
    if names_peft(script.source.text, script.tree, Path(str(script.source.path)), Path(str(project.root))):
        return
    adapter.add_checked(plan, "peft.method", "none",
                        Source("code", script.source.display, app.line, None,
                               "no PEFT/LoRA named in the composed Hydra config, the script or the local modules "
                               "it imports"), "medium")

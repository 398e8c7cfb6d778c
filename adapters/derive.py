"""Facts derived from other facts once every adapter has run: the semantics that no single
adapter can see because they combine a framework with a config another adapter read.

- DeepSpeed precision: under DeepSpeed, ``bf16``/``fp16`` (the DeepSpeed config's, or the
  Trainer's ``--bf16``/``--fp16`` and accelerate's ``mixed_precision`` that fill its
  ``"auto"``) means 16-bit weights with fp32 master copies in the optimizer, not autocast
  (DeepSpeed ``bf16``/``fp16`` engine; frameworks.md §1.4). An ``amp_bf16``/``amp_fp16``
  fact is turned into ``bf16``/``fp16`` with the reason.
- Autocast over bf16 weights: ``amp_bf16`` (``--mixed_precision bf16``, ``--bf16``) while the
  code loads the weights in bf16 (``from_pretrained(dtype=torch.bfloat16)``: a 16-bit weights
  fact from code) and trains them itself: no DeepSpeed (fp32 master copies), no FSDP
  (accelerate upcasts low-precision FSDP parameters under mixed precision), no LoRA (PEFT keeps
  the adapters in fp32). The optimizer then holds bf16 weights: ``bf16``, said why.
- Autocast over weights loaded out of sight: a Trainer's ``--bf16``/``--fp16`` is autocast
  over fp32 weights only when the model is loaded in fp32; when no load of the model was read
  (no weights or model-class fact; a model name alone does not say the dtype; ise-uiuc/magicoder
  and bigcode-project/starcoder2-self-align: ``get_model_context`` in another module loads it in
  bf16), the same value stays but at ``medium`` at most, said why.
- Parameter offload below ZeRO stage 3: ``offload_param`` (or accelerate's
  ``offload_param_device``) set to cpu/nvme in a config whose ZeRO stage, read from the same
  file, is 0-2 offloads nothing: DeepSpeed hands the offload-param config only to its stage-3
  optimizer ("valid only with stage 3", config-json docs; ``runtime/engine.py``). The job's
  parameters stay on the GPU: ``none``, said why (PF504 still reports the configured value).
- The DeepSpeed release: in a job that uses DeepSpeed (a ZeRO stage from any adapter: a
  DeepSpeed config, accelerate, Lightning, Hydra, a launch line), the release the project
  pins (``deepspeed==X`` in requirements/pyproject/setup.py/environment.yml or a lock file,
  searched like the torch version from the scripts' and configs' folders up to the project
  root) is ``framework.deepspeed_version``. A lower bound is not the installed release (pip
  installs the newest one it allows): a note, not a fact. The estimator reads it for ZeRO-1/2's
  offloaded step (``estimate.terms.zero12_offload_step_copy``: 0.14.1 to 0.16.x copy the fp32
  partition to the GPU).
- The HF Trainer's optimizer under a DeepSpeed config with an ``optimizer`` section: the config's
  (:mod:`preflight.adapters.trainer_ds_optimizer`), over a TrainingArguments ``optim``.
- A batch drawn by random indices in a function the training loop calls, when no adapter found a
  per-process batch (:mod:`preflight.adapters.random_batch`).
- Settings a job's own config states under a key named like a plan field (``device_batch_size``,
  ``accum_grad_iters``, ``crop_size``, ``pin_mem``, ``use_activation_checkpointing``, an optimizer
  section's ``type``), when no adapter found the field and the project's code reads the key
  (:mod:`preflight.adapters.config_key_families`).
- No precision anywhere: when no adapter found a precision and neither the scripts, the
  local modules they import nor any config the job reads mention autocast, a 16-bit dtype,
  a grad scaler or a precision setting, PyTorch computes in fp32 (``medium``: a precision
  set where preflight does not look would change it).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any, Optional

from preflight.local_trees import nodes_of
from preflight.plan import FIELDS, Source, TrainingPlan
from preflight.sources import read_text_limited

_ZERO = ("zero1", "zero2", "zero3")
_AMP_TO_DS = {"amp_bf16": "bf16", "amp_fp16": "fp16"}


def uses_deepspeed(plan: TrainingPlan) -> bool:
    sharding = plan.resolve("dist.sharding")
    if sharding is not None and sharding.value in _ZERO and sharding.adapter != "zero_redundancy":
        return True  # (PyTorch's ZeroRedundancyOptimizer shards optimizer states and leaves autocast as it is)
    return any(f.adapter == "deepspeed" for name in plan.fields() for f in plan.facts(name))


_PRECISION_WORDS = re.compile(r"autocast|GradScaler|\.half\(|bfloat16|float16|\bbf16|\bfp16|precision|"
                              r"\bamp\b|mixed|torch\.half\b|fp8|float8|to\(torch\.bfloat|dtype\s*=\s*torch\.(b?float16)")
_MAX_FILES = 300


def derive(plan: TrainingPlan, project: Any = None) -> None:
    _deepspeed_precision(plan)
    _autocast_over_bf16_weights(plan, project)
    _autocast_over_unseen_weights(plan)
    _trainer_ddp(plan)
    if project is not None:
        from preflight.adapters.accelerate_ddp import accelerator_ddp

        accelerator_ddp(plan, project, uses_deepspeed)
    if project is not None:
        from preflight.adapters.ddp_unreached import ddp_unreached

        ddp_unreached(plan, project)
    _one_process_no_wrapper(plan)
    if project is not None:
        from preflight.adapters.ddp_one_process import ddp_one_process

        ddp_one_process(plan, project)
        from preflight.adapters.one_device import one_device

        one_device(plan, project)
        from preflight.adapters.random_batch import random_batch_micro

        random_batch_micro(plan, project)
        from preflight.adapters.handed_batch import handed_batch_micro

        handed_batch_micro(plan, project)
        from preflight.adapters.window_batch import window_batch_facts

        window_batch_facts(plan, project)
        from preflight.adapters.config_object_per_rank import split_micro

        split_micro(plan, project)
        from preflight.adapters.config_key_families import config_key_facts

        config_key_facts(plan, project)
        from preflight.adapters.accum_quotient import accum_from_quotient

        accum_from_quotient(plan, project)
    _ds_accum_from_batches(plan)
    _micro_from_global(plan)
    _global_from_parts(plan)
    _param_offload_below_stage3(plan)
    if project is not None:
        from preflight.adapters.trainer_ds_optimizer import trainer_ds_optimizer

        trainer_ds_optimizer(plan, project)
        _fp32_by_absence(plan, project)
        _deepspeed_version(plan, project)
        from preflight.adapters.deepspeed_auto_buckets import fill_auto_buckets

        fill_auto_buckets(plan, project)
        from preflight.adapters.collator_pad import collator_padding

        collator_padding(plan, project)
        from preflight.adapters.dataset_pad import dataset_padding

        dataset_padding(plan, project)
        from preflight.adapters.overflow_chunks import overflow_chunks

        overflow_chunks(plan, project)
        from preflight.adapters.data_truncation import data_truncation

        data_truncation(plan, project)
    from preflight.adapters.model_ref_count import count_from_ref

    count_from_ref(plan, project)
    if project is not None:
        from preflight.adapters.autocast_fact import autocast_fact

        autocast_fact(plan, project)


def _deepspeed_version(plan: TrainingPlan, project: Any) -> None:
    from preflight.adapters.transformers_version import find_version

    if "framework.deepspeed_version" not in FIELDS or not uses_deepspeed(plan):
        return
    root = Path(project.root)
    starts = [Path(str(s.source.path)).parent for s in project.scripts]
    for _, config in project.configs:
        path = Path(str(config.path))
        starts.append((path if path.is_absolute() else root / path).parent)
    starts.append(root)
    for start in starts:
        try:
            found = find_version("deepspeed", start, root)
        except (OSError, ValueError):
            found = None
        if found is None:
            continue
        if found.how != "pinned":
            plan.note(f"derive: {found.where}: deepspeed {found.text} is a {found.how}, not the "
                      "installed release; DeepSpeed version unknown")
            return
        where, _, line = found.where.rpartition(":")
        plan.add("framework.deepspeed_version", found.text,
                 Source("config", path=where or found.where,
                        line=int(line) if line.isdigit() and int(line) > 0 else None,
                        detail=f"deepspeed {found.text} (pinned)"),
                 "high", adapter="derive")
        return


def _live_text(script: Any, project: Any) -> str:
    """The script's text less what cannot set a precision in this job: the branches of ``if``
    tests decided false by the launch line (microsoft/LoRA ``gpt2_ft.py:123,266,337`` ``if
    args.fp16:`` with ``--fp16`` not given) and the ``add_argument`` declarations of options the
    line does not give (an option is a setting only where its value is used, which stays)."""
    text = script.source.text
    tree = getattr(script, "tree", None)
    if tree is None:
        return text
    idx = project.index(script)
    argv = [str(a) for a in (getattr(project, "argv", None) or [])]
    lines = text.splitlines()
    dead: set[int] = set()

    def kill(nodes: list[ast.stmt]) -> None:
        if nodes:
            dead.update(range(nodes[0].lineno, (getattr(nodes[-1], "end_lineno", None) or nodes[-1].lineno) + 1))

    for node in nodes_of(tree):
        if isinstance(node, ast.If):
            truth = idx.truth(node.test)
            if truth is not None:  # the test itself sets nothing
                dead.update(range(node.lineno, (getattr(node.test, "end_lineno", None) or node.lineno) + 1))
            if truth is False:
                kill(node.body)
            elif truth is True:
                kill(node.orelse)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
            flags = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if any(t == f or t.startswith(f + "=") for f in flags for t in argv):
                continue  # an option the launch line gives: its declaration stays a precision word
            dead.update(range(node.lineno, (getattr(node, "end_lineno", None) or node.lineno) + 1))
    return "\n".join("" if n in dead else line for n, line in enumerate(lines, 1))


def _module_texts(project: Any) -> list[str]:
    """The texts of the local modules the scripts import (the trainer a script imports holds the
    precision: zhangruochi/pseudoESM @ 859e25ad ``trainer.py:133-151`` ``GradScaler``/``autocast`` under
    ``cfg.train.amp``, imported by ``train.py:58``)."""
    from preflight.adapters.pytorch_local import _MAX_BYTES, _imported_up

    root = Path(str(project.root)) if project.root else None
    texts: list[str] = []
    seen: set[str] = {str(Path(str(s.source.path)).resolve()) for s in project.scripts if s.source.path is not None}
    for script in project.scripts:
        if script.tree is None or script.source.path is None:
            continue
        for path in _imported_up(script.tree, Path(str(script.source.path)).resolve().parent, root):
            if str(path) in seen:
                continue
            seen.add(str(path))
            try:
                if path.stat().st_size <= _MAX_BYTES:
                    texts.append(read_text_limited(path, _MAX_BYTES, errors="replace"))
            except (OSError, ValueError):
                continue
    return texts


def _texts(project: Any) -> Optional[list[str]]:
    from preflight.adapters.cliargs_options import declared_options

    texts: list[str] = []
    for script in project.scripts:
        texts.append(_live_text(script, project))
        texts.extend(declared_options(script, project).texts)
    texts.extend(_module_texts(project))
    for source, _cfg in project.configs:
        texts.append(source.text)
    count = 0
    for base in project.config_dirs:
        for path in sorted(Path(base).rglob("*.y*ml")):
            count += 1
            if count > _MAX_FILES:
                return None
            try:
                texts.append(read_text_limited(path, errors="replace"))
            except OSError:
                return None
    return texts


_TORCH = re.compile(r"^\s*(import|from)\s+(torch|lightning|pytorch_lightning|transformers|accelerate|trl)\b", re.M)


_SETTING = re.compile(r"add_argument|--precision|precision\s*[=:]\s*['\"\w]|['\"]precision['\"]|\.precision\b")


def _metric_precision_only(code: str) -> bool:
    """Whether every precision word of a file is the retrieval metric *precision* (@k) beside *recall*:
    YiyanXu/DiffRec @ d35a6c6 ``DiffRec/evaluate_utils.py:7,48,53`` ``precision = []``,
    ``precision.append(...)``, ``return precision, recall, NDCG, MRR``. Not when the word is a setting
    (an ``add_argument``, ``--precision``, a ``"precision"`` key, ``.precision``, ``precision=``/``precision:``
    given a value) or any other precision word (autocast, bf16, ...) is in the file."""
    if "recall" not in code:
        return False
    for match in _PRECISION_WORDS.finditer(code):
        if match.group(0) != "precision":
            return False
        start = code.rfind("\n", 0, match.start()) + 1
        end = code.find("\n", match.end())
        if _SETTING.search(code[start:end if end >= 0 else len(code)]):
            return False
    return True


def _composed_texts(plan: TrainingPlan, project: Any) -> list[str]:
    """The config files an adapter composed and recorded as the plan's inputs (Hydra's group files: the
    ``accelerate: gpu_amp`` option's ``configs/accelerate/gpu_amp.yaml`` ``amp: true``, ivanpanshin/
    segment-vasculature-5th-place @ 716f805, whose trainer a ``_target_`` builds with ``autocast`` and a
    ``GradScaler``), which ``project.configs`` does not hold: they are configs read too."""
    root = Path(str(project.root)) if getattr(project, "root", None) else None
    if root is None:
        return []
    known = {str(Path(str(src.path)).resolve()) for src, _cfg in project.configs if getattr(src, "path", None)}
    out: list[str] = []
    for item in plan.inputs:
        if item.kind not in ("yaml", "json", "toml") or len(out) >= _MAX_FILES:
            continue
        path = (root / item.path).resolve()
        if str(path) in known or not path.is_file() or not project.may_read(path):
            continue
        known.add(str(path))
        try:
            out.append(read_text_limited(path, errors="replace"))
        except (OSError, ValueError):
            continue
    return out


def _fp32_by_absence(plan: TrainingPlan, project: Any) -> None:
    if plan.resolve("precision.mode") is not None or not project.scripts:
        return
    if not any(_TORCH.search(s.source.text) for s in project.scripts):
        return  # not a PyTorch job as far as its scripts say: nothing to claim
    texts = _texts(project)
    if texts is None:
        return
    texts.extend(_composed_texts(plan, project))
    for text in texts:
        code = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
        if _PRECISION_WORDS.search(code) and not _metric_precision_only(code):
            return
    shown = str(project.scripts[0].source.display)
    plan.add("precision.mode", "fp32",
             Source("derived", shown, None, None,
                    "no autocast, 16-bit dtype, grad scaler or precision setting in the scripts, the local modules "
                    "they import or the configs read: PyTorch computes in fp32"),
             "medium", adapter="derive")


def _trainer_ddp(plan: TrainingPlan) -> None:
    """A Hugging Face Trainer that owns the loop, started as several processes (torchrun
    ``--nproc_per_node 8``), with no DeepSpeed, FSDP or other sharding found: the Trainer wraps
    the model in DistributedDataParallel (transformers Trainer._wrap_model; THUDM/ChatGLM3
    finetune_demo/README.md:194 with configs/lora.yaml's deepspeed line commented out)."""
    if plan.resolve("dist.sharding") is not None or uses_deepspeed(plan):
        return
    world = plan.resolve("dist.world_size")
    if world is None or not isinstance(world.value, int) or world.value <= 1 or world.confidence == "low":
        return
    owner = next((f for name in plan.fields() for f in plan.facts(name) if f.adapter == "transformers"
                  and re.search(r"Trainer\b|TrainingArguments|SFTConfig|DPOConfig", f.source.detail or "")), None)
    if owner is None or not any(f.source.kind != "default" for f in plan.facts("task.mode")):
        return
    plan.add("dist.sharding", "ddp",
             Source("derived", owner.source.path, owner.source.line, None,
                    f"{world.value} processes and a Trainer with no DeepSpeed, FSDP or other sharding found: "
                    "the Trainer wraps the model in DistributedDataParallel"),
             "medium", adapter="derive")


def _one_process_no_wrapper(plan: TrainingPlan) -> None:
    """One process (``accelerate launch --num_processes=1``, a plain ``python train.py``) and no
    DeepSpeed, FSDP, DDP or other wrapper found by any reading: nothing is sharded or replicated,
    ``dist.sharding`` none (yl4579/StyleTTS2 README.md:86; accelerate's prepare() wraps nothing in
    DDP for a single process). Medium, and only when the process count is not a guess."""
    if plan.resolve("dist.sharding") is not None or uses_deepspeed(plan):
        return
    world = plan.resolve("dist.world_size")
    if world is None or world.value != 1 or isinstance(world.value, bool) or world.confidence == "low":
        return
    plan.add("dist.sharding", "none",
             Source("derived", world.source.path, world.source.line, None,
                    "one process and no DeepSpeed, FSDP, DDP or other wrapper found: nothing sharded or replicated"),
             "medium", adapter="derive")


def _ds_accum_from_batches(plan: TrainingPlan) -> None:
    """A DeepSpeed config giving ``train_batch_size`` and ``train_micro_batch_size_per_gpu`` but no
    ``gradient_accumulation_steps``: the engine sets the steps to ``train_batch_size // (micro x world)``
    (DeepSpeed ``runtime/config.py`` ``_set_batch_related_parameters``) and steps the optimizer on that
    boundary, whatever loader feeds it. firechecking/CleanTransformer @ its pinned commit
    ``scripts/ds_config_example.json:2-3`` 32 and 8 under ``torchrun --nproc_per_node 4``: 1. Both figures
    must be the JSON's own (not "auto"), the process count known, and the quotient exact and at least 1
    (DeepSpeed refuses the config otherwise); medium at most, capped by the process count's."""
    if plan.resolve("batch.grad_accum") is not None:
        return
    total = next((f for f in plan.facts("batch.global") if f.adapter == "deepspeed"
                  and (f.source.key or "").endswith("train_batch_size")), None)
    micro = next((f for f in plan.facts("batch.micro") if f.adapter == "deepspeed"
                  and (f.source.key or "").endswith("train_micro_batch_size_per_gpu")), None)
    world = plan.resolve("dist.world_size")
    if total is None or micro is None or world is None or total.source.path != micro.source.path:
        return
    values = (total.value, micro.value, world.value)
    if any(not isinstance(v, int) or isinstance(v, bool) or v <= 0 for v in values):
        return
    t, m, w = values
    if t % (m * w) or t // (m * w) < 1:
        return
    plan.add("batch.grad_accum", t // (m * w),
             Source("derived", total.source.path, total.source.line, total.source.key,
                    f"DeepSpeed: no gradient_accumulation_steps, so train_batch_size / (train_micro_batch_size_per_gpu "
                    f"x processes) = {t} / ({m} x {w})"),
             plan.capped("medium", "dist.world_size"), adapter="derive")


def _micro_from_global(plan: TrainingPlan) -> None:
    """No per-process batch found, but the global batch, the accumulation steps and the process
    count are: a data-parallel job's micro-batch is their quotient (when it divides exactly;
    HALOs ``launch.py:65-66`` computes it so). The plan has no tensor/pipeline-parallel degree,
    so every process is taken as a data-parallel rank; the confidence is capped by the inputs'."""
    if plan.resolve("batch.micro") is not None:
        return
    facts = [plan.resolve(f) for f in ("batch.global", "batch.grad_accum", "dist.world_size")]
    if any(f is None or not isinstance(f.value, int) or isinstance(f.value, bool) or f.value <= 0 for f in facts):
        return
    total, accum, world = (f.value for f in facts)  # type: ignore[union-attr]
    if total % (accum * world):
        return
    g = facts[0]
    assert g is not None
    plan.add("batch.micro", total // (accum * world),
             Source("derived", g.source.path, g.source.line, g.source.key,
                    f"global batch {total} / ({world} processes x {accum} accumulation steps)"),
             plan.capped("medium", "batch.global", "batch.grad_accum", "dist.world_size"), adapter="derive")


def _global_from_parts(plan: TrainingPlan) -> None:
    """No global batch found, but the per-process batch, the accumulation steps, the process count
    and a data-parallel sharding are: the global batch is their product (DeiT ``main.py:350``
    scales the learning rate by ``batch_size * world_size``; a Trainer's ``per_device_train_batch_size``
    x processes x ``gradient_accumulation_steps``). As for the quotient above, every process is taken
    as a data-parallel rank (the plan has no tensor/pipeline-parallel degree); the confidence is the
    weakest input's, medium at most. Not derived without a sharding fact (whether the processes
    train data-parallel at all is then not known)."""
    if plan.resolve("batch.global") is not None:
        return
    sharding = plan.resolve("dist.sharding")
    if sharding is None or sharding.value not in ("ddp", "fsdp_full", "fsdp_hybrid", "fsdp_grad_op", "zero1",
                                                  "zero2", "zero3", "none"):
        return
    facts = [plan.resolve(f) for f in ("batch.micro", "batch.grad_accum", "dist.world_size")]
    if any(f is None or not isinstance(f.value, int) or isinstance(f.value, bool) or f.value <= 0 for f in facts):
        return
    micro, accum, world = (f.value for f in facts)  # type: ignore[union-attr]
    if sharding.value == "none" and world != 1:
        return
    m = facts[0]
    assert m is not None
    plan.add("batch.global", micro * accum * world,
             Source("derived", m.source.path, m.source.line, m.source.key,
                    f"{micro} per process x {accum} accumulation steps x {world} {sharding.value} processes"),
             plan.capped("medium", "batch.micro", "batch.grad_accum", "dist.world_size", "dist.sharding"),
             adapter="derive")


_BELOW_3 = {"ddp": 0, "zero1": 1, "zero2": 2}


def _param_offload_below_stage3(plan: TrainingPlan) -> None:
    off = plan.resolve("dist.offload_params")
    if off is None or off.value not in ("cpu", "nvme") or off.adapter not in ("deepspeed", "accelerate"):
        return
    stage = plan.resolve("dist.sharding")
    if stage is None or stage.value not in _BELOW_3 or stage.adapter != off.adapter \
            or stage.source.path != off.source.path:
        return  # the stage comes from somewhere else (or is 3): the two may not describe one engine
    said = f"stage {_BELOW_3[stage.value]}" + (" (the default)" if stage.source.kind == "default" else "")
    plan.add("dist.offload_params", "none",
             Source("derived", off.source.path, off.source.line, off.source.key,
                    f"offload {off.value} is ignored at ZeRO {said}: DeepSpeed offloads parameters only at stage 3"),
             plan.capped(off.confidence, "dist.sharding"), adapter="derive", priority=max(1, off.priority + 1))


def _deepspeed_precision(plan: TrainingPlan) -> None:
    winner = plan.resolve("precision.mode")
    if winner is None or winner.value not in _AMP_TO_DS or not uses_deepspeed(plan):
        return
    mode = _AMP_TO_DS[winner.value]
    where = winner.source.location() if winner.source.path else f"{winner.source.kind} {winner.source.key or ''}"
    plan.add("precision.mode", mode,
             Source("derived", winner.source.path, winner.source.line, winner.source.key,
                    f"{winner.value} ({where.strip()}) under DeepSpeed: the engine keeps {mode} weights with fp32 "
                    "master copies (not autocast)"),
             winner.confidence, adapter="derive", priority=max(1, winner.priority + 1))


def _autocast_over_unseen_weights(plan: TrainingPlan) -> None:
    winner = plan.resolve("precision.mode")
    if winner is None or winner.value not in _AMP_TO_DS or winner.confidence != "high" \
            or winner.adapter != "transformers" or uses_deepspeed(plan):
        return  # a project's own model class (Lightning, plain PyTorch) is built in fp32: autocast is right
    sharding = plan.value("dist.sharding")
    if (isinstance(sharding, str) and sharding.startswith("fsdp")) or plan.value("peft.method") == "lora":
        return  # FSDP upcasts low-precision parameters under mixed precision; PEFT keeps adapters fp32
    if any(plan.resolve(f) is not None for f in ("precision.weights_bits", "model.class_name")):
        return  # the load was read: its dtype (or its absence, fp32) is known
    # a model name alone (``--model_name_or_path`` of the script's dataclass, even followed into a
    # helper's from_pretrained) says nothing of the load's dtype: bigcode-project/starcoder2-self-align
    # src/star_align/train.py:23 names it, llm_wrapper.py:427,452-454 loads it in bf16
    plan.add("precision.mode", winner.value,
             Source("derived", winner.source.path, winner.source.line, winner.source.key,
                    f"{winner.value} ({winner.source.location() if winner.source.path else winner.source.kind}); "
                    f"no load of the model was read, so its weights' dtype is not known: loaded in 16 bits and "
                    f"trained as loaded, it would be {_AMP_TO_DS[winner.value]} rather than autocast over fp32"),
             "medium", adapter="derive", priority=max(1, winner.priority + 1))


def _adapters_in_base_dtype(project: Any) -> bool:
    """PEFT pinned below 0.12: its LoRA layers are cast to the base layer's dtype (``update_layer`` ->
    ``self.to(weight.device, dtype=weight.dtype)``), so LoRA over bf16 weights trains bf16 adapters; from
    0.12 ``autocast_adapter_dtype=True`` keeps them fp32 (magic-research/PLLaVA @ 6f49fd2
    ``requirements.txt`` peft==0.10.0)."""
    if project is None:
        return False
    from preflight.adapters.transformers_version import find_version

    root = Path(project.root)
    for script in project.scripts:
        if script.source.path is None:
            continue
        found = find_version("peft", Path(str(script.source.path)).parent, root)
        if found is not None:
            return found.how == "pinned" and found.parts[:2] < (0, 12)
    return False


def _dtype_option(fact: Any) -> bool:
    """A ``torch_dtype``/``dtype`` option the script hands to its model load (read by the options
    reader, :meth:`preflight.adapters.cliargs_model._ModelPass.weights_dtype_option`)."""
    return fact.adapter == "cliargs" and (fact.source.key or "").lstrip("-") in ("torch_dtype", "dtype")


def _autocast_over_bf16_weights(plan: TrainingPlan, project: Any = None) -> None:
    winner = plan.resolve("precision.mode")
    if winner is None or winner.value != "amp_bf16" or uses_deepspeed(plan):
        return
    sharding = plan.value("dist.sharding")
    if (isinstance(sharding, str) and sharding.startswith("fsdp")) or (
            plan.value("peft.method") == "lora" and not _adapters_in_base_dtype(project)):
        return
    bits = plan.resolve("precision.weights_bits")
    if bits is None or bits.value != 16 or not (bits.source.kind == "code" or _dtype_option(bits)
                                                or bits.adapter == "launch_pyconfig"):
        return
    if not any(f.value == "bf16" and (f.source.kind == "code" or _dtype_option(f) or f.adapter == "launch_pyconfig")
               for f in plan.facts("precision.mode")):
        return  # the 16-bit weights are not known to be bf16
    plan.add("precision.mode", "bf16",
             Source("derived", bits.source.path, bits.source.line, None,
                    f"{winner.value} ({winner.source.location() if winner.source.path else winner.source.kind}) "
                    f"over weights loaded in bf16 ({bits.source.location()}) and trained as they are: no fp32 master "
                    "copy, the optimizer updates bf16 weights"),
             "medium", adapter="derive", priority=max(1, winner.priority + 1))

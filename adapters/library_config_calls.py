"""Settings a script gives as keywords of a library's (or the project's) own config classes, built
in code and handed to the library's trainer.

allenai/OLMo-core @ fa6c501 ``src/examples/llm/train.py:165-193`` builds the whole job in code:
``NumpyDataLoaderConfig(global_batch_size=256 * 1024, num_workers=4)``,
``TransformerTrainModuleConfig(rank_microbatch_size=16 * 1024, max_sequence_length=opts.sequence_length,
optim=AdamWConfig(lr=1e-3), compile_model=True, dp_config=TransformerDataParallelConfig(
name=DataParallelType.fsdp, param_dtype=DType.bfloat16, reduce_dtype=DType.float32))``, each then
``.build()`` by the library. A call counts when its callee's name ends with ``Config``, it is not
torch's, and every ``if`` around it is taken or undecided (never one decided false). Keywords read
(values resolved statically, else skipped):

- ``num_workers`` -> ``data.num_workers``; ``compile_model``/``compile``/``torch_compile`` ->
  ``compile.enabled`` (not an optimizer config's ``compile``, which compiles its step); ``sequence_length``/``max_sequence_length``/``seq_len``/``max_seq_len`` ->
  ``data.seq_len`` (one value among the calls);
- ``ac_config=`` a ``*ActivationCheckpointingConfig(...)`` -> ``memory.gradient_checkpointing`` True;
- ``optim=``/``optimizer=`` a ``<Name>Config(...)`` with ``Name`` an optimizer (AdamW, Adam, SGD,
  Lion, Adafactor, ...) -> ``optimizer.name``;
- a ``*DataParallelConfig(name=X.fsdp|hsdp|ddp, param_dtype=X.bfloat16)`` -> ``dist.sharding``
  (fsdp_full / fsdp_hybrid / ddp) and ``precision.mode`` amp_bf16/amp_fp16 (parameters kept in
  fp32, cast for compute);
- batch sizes the library documents in tokens (OLMo-core ``NumpyDataLoaderConfig.global_batch_size``
  and ``TransformerTrainModuleConfig.rank_microbatch_size``, ``src/olmo_core/data/data_loader.py`` and
  ``src/olmo_core/train/train_module/transformer/config.py`` docstrings: "in tokens") divided by the
  sequence length -> ``batch.global`` / ``batch.micro``.

Facts are ``medium`` (the keyword's meaning is the library's; its use is the library's code).
Nothing is imported or run.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.plan import FIELDS, Source, TrainingPlan
from preflight.registry import register_adapter
from preflight.script_index import ScriptIndex

_OPTIMIZERS = {"adamw": "AdamW", "adam": "Adam", "sgd": "SGD", "lion": "Lion", "adafactor": "Adafactor",
               "skipstepadamw": "AdamW", "muon": "Muon", "rmsprop": "RMSprop", "adagrad": "Adagrad"}
_COMPILE = ("compile_model", "compile", "torch_compile")
_SEQ = ("sequence_length", "max_sequence_length", "seq_len", "max_seq_len")
_DP = {"fsdp": "fsdp_full", "hsdp": "fsdp_hybrid", "ddp": "ddp"}
_HALF = {"bfloat16": "amp_bf16", "bf16": "amp_bf16", "float16": "amp_fp16", "fp16": "amp_fp16"}
# (module prefix, class, keyword) of batch sizes a library counts in tokens
_TOKENS = {("olmo_core", "NumpyDataLoaderConfig", "global_batch_size"): "batch.global",
           ("olmo_core", "TransformerTrainModuleConfig", "rank_microbatch_size"): "batch.micro"}


def _imported_from(idx: ScriptIndex, name: str) -> str:
    """The module a top-level name of the script is imported from ('' when not imported)."""
    tree = idx.script.tree
    for node in ast.walk(tree) if tree is not None else []:
        if isinstance(node, ast.ImportFrom) and node.module and any((a.asname or a.name) == name
                                                                    for a in node.names):
            return node.module
    return ""


@register_adapter
class LibraryConfigCallsAdapter(Adapter):
    name = "library_config_calls"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any("Config(" in s.source.text for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            _Pass(self, project, plan, project.index(script)).run()


class _Pass:
    def __init__(self, adapter: LibraryConfigCallsAdapter, project: Project, plan: TrainingPlan,
                 idx: ScriptIndex) -> None:
        self.adapter, self.project, self.plan, self.idx = adapter, project, plan, idx
        self.seq: list[tuple[int, ast.AST, str]] = []
        self.tokens: list[tuple[str, int, ast.AST, str]] = []

    def src(self, node: ast.AST, detail: str) -> Source:
        return self.project.source(self.idx.script, node, "code", detail=detail)

    def add(self, field: str, value: Any, node: ast.AST, detail: str) -> None:
        if field in FIELDS:
            self.adapter.add_checked(self.plan, field, value, self.src(node, detail), "medium")

    def int_of(self, expr: ast.AST) -> Optional[int]:
        got = self.idx.resolve(expr)
        value = got.value if got is not None else None
        return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None

    def run(self) -> None:
        for site in self.idx.calls:
            name = site.name or ""
            last = name.rsplit(".", 1)[-1]
            if not last.endswith("Config") or name.startswith("torch") or self.idx.runs(site) is False:
                continue
            module = _imported_from(self.idx, name.split(".", 1)[0])
            if module.startswith("torch"):
                continue
            self.call(site.call, last, module)
        seqs = {s[0] for s in self.seq}
        if len(seqs) == 1:
            value, node, what = self.seq[0]
            self.add("data.seq_len", value, node, what)
            got: dict[str, int] = {}
            for field, tokens, node, what in self.tokens:
                if tokens % value == 0:
                    got[field] = tokens // value
                    self.add(field, tokens // value, node, f"{what}: {tokens} tokens / sequence length {value}")
            self.accumulation(got)

    def accumulation(self, got: dict[str, int]) -> None:
        """The library splits each rank's share of the global batch into micro batches: the
        accumulation is global / (world size x micro) when that is a whole number."""
        world = self.plan.value("dist.world_size")
        glob, micro = got.get("batch.global"), got.get("batch.micro")
        if not (isinstance(world, int) and world > 0 and glob and micro) or glob % (world * micro):
            return
        self.adapter.add_checked(
            self.plan, "batch.grad_accum", glob // (world * micro),
            Source("derived", None, None, None, f"global batch {glob} / ({world} processes x micro batch {micro}): "
                   "the library splits each rank's batch into micro batches"), "medium")

    def call(self, call: ast.Call, cls: str, module: str) -> None:
        label = f"{cls}(...)"
        for kw in call.keywords:
            if kw.arg is None:
                continue
            if kw.arg == "num_workers":
                value = self.int_of(kw.value)
                if value is not None or (isinstance(kw.value, ast.Constant) and kw.value.value == 0):
                    self.add("data.num_workers", value or 0, kw.value, f"{label} num_workers")
            elif kw.arg in _COMPILE and cls[:-len("Config")].lower() not in _OPTIMIZERS:
                # (an optimizer config's own ``compile=True`` compiles its step, not the model)
                got = self.idx.resolve(kw.value)
                if got is not None and isinstance(got.value, bool):
                    self.add("compile.enabled", got.value, kw.value, f"{label} {kw.arg}={got.value}")
            elif kw.arg in _SEQ:
                value = self.int_of(kw.value)
                if value is not None:
                    self.seq.append((value, kw.value, f"{label} {kw.arg}"))
            elif kw.arg in ("optim", "optimizer") and isinstance(kw.value, ast.Call):
                inner = (dotted_name(kw.value.func) or "").rsplit(".", 1)[-1]
                opt = _OPTIMIZERS.get(inner[:-len("Config")].lower()) if inner.endswith("Config") else None
                if opt is not None:
                    self.add("optimizer.name", opt, kw.value, f"{label} {kw.arg}={inner}(...)")
            elif isinstance(kw.value, ast.Call):
                inner = (dotted_name(kw.value.func) or "").rsplit(".", 1)[-1]
                if inner.endswith("DataParallelConfig"):
                    self.data_parallel(kw.value, inner)
                elif inner.endswith("ActivationCheckpointingConfig"):
                    # OLMo-core ``ac_config=TransformerActivationCheckpointingConfig(mode)``
                    self.add("memory.gradient_checkpointing", True, kw.value, f"{label} {kw.arg}={inner}(...)")
            field = _TOKENS.get((module.split(".", 1)[0], cls, kw.arg))
            if field is not None:
                tokens = self.int_of(kw.value)
                if tokens is not None:
                    self.tokens.append((field, tokens, kw.value, f"{label} {kw.arg} (in tokens, the library's unit)"))
        if cls.endswith("DataParallelConfig"):
            self.data_parallel(call, cls)

    def data_parallel(self, call: ast.Call, cls: str) -> None:
        kws = {k.arg: k.value for k in call.keywords if k.arg}
        kind = kws.get("name")
        if kind is None:
            return
        last = (dotted_name(kind) or "").rsplit(".", 1)[-1].lower()
        if last not in _DP:
            return
        self.add("dist.sharding", _DP[last], kind, f"{cls}(name={dotted_name(kind)})")
        dtype = kws.get("param_dtype")
        if dtype is None or last == "ddp":
            return
        half = _HALF.get((dotted_name(dtype) or "").rsplit(".", 1)[-1].lower())
        if half is not None:
            self.add("precision.mode", half, dtype, f"{cls}(param_dtype={dotted_name(dtype)}): fp32 parameters "
                     "cast for compute")

"""A Megatron training script's plan from its launch line (``pretrain_gpt.py``, ``finetune.py`` and the
other entry points that hand their options to Megatron's own parser).

Where the project holds the parser (Megatron-LM, Megatron-DeepSpeed, Megatron-LLM and their forks
vendor ``megatron/``), the chain from the entry script to ``parse_args`` is followed and the launch
line is read through the parser's ``add_argument`` declarations (:mod:`preflight.adapters.parser_chain`):
dest, type, default and action, so ``--micro_batch_size`` and ``--micro-batch-size`` alike, and the
defaults of options not given. epfLLM/Megatron-LLM @ 806a833 ``examples/finetune.sh:236-250``
``torchrun ... finetune.py --tensor_model_parallel_size 8 ... --bf16 --global_batch_size 12
--micro_batch_size 1 --num_workers=2 ...`` -> ``finetune.py:262 initialize_megatron(extra_args, ...)``
-> ``megatron/initialize.py:39 megatron.arguments.parse_args`` -> ``megatron/arguments.py:16-34``.

Where only the installed package parses them (the flags are the whole evidence), the flags are read as
Megatron-LM documents them (``megatron/training/arguments.py``; NVIDIA/Megatron-LM @ d98e8a6
``examples/llama/train_llama3_8b_h100_fp8.sh:36-145``), with its defaults for precision, optimizer,
distributed optimizer and recompute.

What the values mean for the plan: :mod:`preflight.adapters.megatron_fields`. Plus: no option naming
LoRA, PEFT or adapters (declared, or given when the parser is not read): ``peft.method`` none
(``--q-lora-rank``/``--kv-lora-rank`` size multi-latent attention, they are not LoRA). All ``medium``
or lower: the options are followed to Megatron's parser, the training code is not."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from preflight.adapters.megatron_fields import contribute as contribute_fields
from preflight.adapters.parser_chain import ParserChain, find_parser, parse_argv

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter
from preflight.sources import ParsedPython

_MARK = ("--micro-batch-size", "--global-batch-size", "--num-layers", "--tensor-model-parallel-size")


def _flags(words: list[str]) -> dict[str, str]:
    # a bash array element "--vocab-size 128256" expanded unquoted (${DATA_ARGS_LIST[@]}) is two words
    args = [part for w in words for part in (w.split() if w.startswith("--") and " " in w else [w])]
    out: dict[str, str] = {}
    for i, tok in enumerate(args):
        if not tok.startswith("--"):
            continue
        if "=" in tok:
            key, value = tok.split("=", 1)
            out[key] = value
            continue
        nxt = args[i + 1] if i + 1 < len(args) else None
        out[tok] = nxt if nxt is not None and not nxt.startswith("--") else ""
    return out


# Megatron-LM's defaults (megatron/training/arguments.py) of the options read when its parser is not in
# the project
_DOCUMENTED = {"bf16": False, "fp16": False, "use_distributed_optimizer": False, "recompute_granularity": None,
               "recompute_activations": False, "optimizer": "adam", "deepspeed": False, "swiglu": False,
               "add_bias_linear": True, "position_embedding_type": "learned_absolute", "normalization": "LayerNorm",
               "make_vocab_size_divisible_by": 128, "untie_embeddings_and_output_weights": False}
# the dests a parser must declare to be Megatron's
_DESTS = ("micro_batch_size", "tensor_model_parallel_size", "num_layers", "global_batch_size")
_LORA_WORDS = ("lora", "peft", "adapter")
_NOT_LORA = ("q_lora_rank", "kv_lora_rank")


def _documented(flags: dict[str, str]) -> dict[str, tuple[Any, str]]:
    """The flags as Megatron-LM's dests: a bare flag True, ``--disable-bias-linear`` add_bias_linear
    False, ``--no-X`` X False; the options not given at Megatron-LM's documented defaults."""
    out: dict[str, tuple[Any, str]] = {k: (v, "default") for k, v in _DOCUMENTED.items()}
    for flag, value in flags.items():
        dest = flag.lstrip("-").replace("-", "_")
        shown = f"{flag} {value}".strip()
        if dest == "disable_bias_linear":
            out["add_bias_linear"] = (False, flag)
        out[dest] = (value if value != "" else True, shown)
    return out


def _entry(project: Project) -> Optional[ParsedPython]:
    """The script that imports Megatron, or whose launch line gives Megatron's micro-batch and tensor-parallel
    options (a renamed fork's package: DeepSpeedExamples training/DeepSpeed-Domino ``domino/arguments.py``;
    its parser must then be found and declare Megatron's options)."""
    for script in project.scripts:
        if script.tree is None:
            continue
        if project.index(script).imports_any("megatron"):
            return script
        words = {w.split("=", 1)[0].replace("_", "-") for w in project.script_args(script) if w.startswith("--")}
        if {"--micro-batch-size", "--tensor-model-parallel-size"} <= words and _chain(project, script) is not None:
            return script
    return None


def _chain(project: Project, script: ParsedPython) -> Optional[ParserChain]:
    held = project.cache.setdefault("megatron.chain", {})
    if id(script) not in held:
        found = find_parser(project, script)
        held[id(script)] = found if found is not None and all(d in found.dests for d in _DESTS[:2]) \
            and any(d in found.dests for d in _DESTS[2:]) else None
    return held[id(script)]


def _flash_v2(chain: Optional[ParserChain], project: Project) -> bool:
    """The project's Megatron model code calls flash-attn's v2 functions (``flash_attn_func``,
    ``flash_attn_varlen_func``): epfLLM/Megatron-LLM ``megatron/model/transformer.py:9``."""
    if chain is None:
        return False
    from preflight.sources import read_text_limited

    package = Path(str(project.root)) / chain.where.split(":", 1)[0]
    top = package.parent.parent if package.parent.name == "training" else package.parent
    for cand in (top / "model" / "transformer.py", top / "legacy" / "model" / "transformer.py"):
        try:
            text = read_text_limited(cand, 2_000_000, errors="replace") if cand.is_file() else ""
        except OSError:
            continue
        if "flash_attn_func" in text or "flash_attn_varlen_func" in text:
            return True
    return False


@register_adapter
class MegatronArgsAdapter(Adapter):
    name = "megatron_args"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        script = _entry(project)
        if script is None:
            return False
        if _chain(project, script) is not None:
            return True
        args = project.script_args(script)
        return sum(flag in args for flag in _MARK) >= 2

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        script = _entry(project)
        if script is None:
            return
        chain = _chain(project, script)
        args = project.script_args(script)
        notes: list[str] = []
        if chain is not None:
            values, problems = parse_argv(chain, args)
            origin = f"Megatron's parser, {chain.where}"
            self.note(plan, f"{script.source.display!s}: options parsed by {chain.where}, reached by "
                            + " -> ".join(chain.chain))
            for problem in problems[:5]:
                self.note(plan, f"launch line: {problem}")
            if chain.unread:
                self.note(plan, "options added by " + ", ".join(chain.unread[:3]) + " are not known (not followed)")
            _entry_defaults(script, values)
        else:
            values = _documented(_flags(args))
            origin = "Megatron-LM's option, megatron/training/arguments.py"

        # read through the project's own parser (its types, abbreviations, rejections), the values win over the
        # generic command-line reading of the same options
        priority = 1 if chain is not None else 0

        def add(field: str, value: Any, key: str, detail: str, confidence: str = "medium") -> None:
            self.add_checked(plan, field, value, Source("cli", None, None, key, f"{detail} ({origin})"), confidence,
                             priority)

        contribute_fields(values, add, self._world(project), _flash_v2(chain, project), notes)
        for text in notes:
            self.note(plan, text)
        declared = list(chain.dests) if chain is not None else [f.lstrip("-").replace("-", "_") for f in _flags(args)]
        if chain is not None and chain.unread:
            return  # options of an unread provider may name LoRA
        if not any(w in d for d in declared if d not in _NOT_LORA for w in _LORA_WORDS):
            # the pretrain entry points train every parameter: the parser declares no adapter options
            add("peft.method", "none", "micro_batch_size",
                "no LoRA/PEFT option declared" if chain is not None else "no LoRA/PEFT option given: every "
                "parameter trains")

    @staticmethod
    def _world(project: Project) -> Optional[int]:
        from preflight.adapters.launchers import parse_launch

        if not project.argv:
            return None
        info = parse_launch(project.argv)
        return info.total_procs or ((info.nodes or 1) * info.procs_per_node if info.procs_per_node else None)


def _entry_defaults(script: ParsedPython, values: dict[str, tuple[Any, str]]) -> None:
    """``initialize_megatron(extra_args, args_defaults={...})`` / ``pretrain(..., args_defaults={...})``:
    ``validate_args`` sets each key whose parsed value is None (Megatron-LM ``pretrain_gpt.py``
    ``args_defaults={'tokenizer_type': 'GPT2BPETokenizer'}``). A dict that is not a literal, or named by a
    variable not assigned one literal once, makes every None default of the parser unknown."""
    import ast

    assigned: dict[str, Any] = {}
    for node in ast.walk(script.tree):  # ``args_defaults = {...}`` under ``if __name__ == "__main__":`` too
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    assigned[t.id] = node.value if t.id not in assigned else None  # assigned twice: not known
    found: list[ast.expr] = []
    for node in ast.walk(script.tree):
        if not isinstance(node, ast.Call):
            continue
        found += [k.value for k in node.keywords if k.arg == "args_defaults"]
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name == "initialize_megatron" and len(node.args) >= 2:
            found.append(node.args[1])
    for expr in found:
        if isinstance(expr, ast.Name) and isinstance(assigned.get(expr.id), ast.Dict):
            expr = assigned[expr.id]
        try:
            given = ast.literal_eval(expr)
        except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
            given = None
        if not isinstance(given, dict):
            for key in [k for k, v in values.items() if v == (None, "default")]:
                del values[key]  # set by a dict not read
            return
        for key, value in given.items():
            if isinstance(key, str) and values.get(key, (None, "default")) == (None, "default"):
                values[key] = (value, f"args_defaults {key}={value!r} ({script.source.display}:{expr.lineno})")

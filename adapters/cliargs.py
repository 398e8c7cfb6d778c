"""What a job's command line says, read through the options its script declares.

A real launch line carries the model and the batch (``--model_name_or_path facebook/opt-1.3b
--per_device_train_batch_size 8``), but the script often hands them to a helper, a
dataclass or a library parser where the other adapters lose them. This adapter reads the
options the script declares, wherever it declares them:

- ``argparse`` ``add_argument`` calls (flags, ``default=``, ``store_true``),
- dataclass fields (``HfArgumentParser``/``TrlParser`` argument classes) with their defaults,
- the keyword parameters of the function given to ``fire.Fire``,
- the library argument classes a parser names (``TrainingArguments``, TRL's ``SFTConfig``,
  ``DPOConfig``, ``ModelConfig``), with the defaults they document,

in the script and in the local modules it imports (one level, found beside the script or in
its parent directories; read, never executed). Values come from the command line, else from a
JSON/YAML file the parser reads (the first argument, or ``--config`` for ``TrlParser``), else
the declared default. An option counts only when the script declares it: the name alone is
never enough. Facts are ``medium`` (the value is the user's; that it reaches the model is
inferred from the option's name) or ``low`` for declared defaults.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Any, Callable, Optional

from preflight.adapters.cliargs_options import (
    _ARCH,
    _DECLARES,
    _cli_values,
    _literal,
    _name_of,
    declared_options,
)

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter
from preflight.script_argv import opaque_words
from preflight.script_index import Resolved
from preflight.sources import ParsedPython

# option name -> plan field (and how to read it)
_MODEL = ("model_name_or_path", "base_model", "model_name", "pretrained_model_name_or_path", "model_id", "model",
          "model_path", "base_model_name_or_path", "model_dir")
_MICRO = ("per_device_train_batch_size", "micro_batch_size", "batch_size_per_gpu", "per_gpu_train_batch_size",
          "train_micro_batch_size_per_gpu")
# accumulation under other spellings: openvla/openvla vla-scripts/finetune.py:91 grad_accumulation_steps,
# mlfoundations/open_lm params.py:553 --accum-freq, facebookresearch/mae main_pretrain.py --accum_iter
# lifeiteng/vall-e @ 9c69096 valle/bin/trainer.py:226 --accumulate-grad-steps (the optimizer steps every N batches, :675-692)
_ACCUM = ("gradient_accumulation_steps", "grad_accumulation_steps", "grad_accum_steps", "accum_freq", "accum_iter",
          "accumulate_grad_steps")
_SEQ = ("max_seq_len", "max_seq_length", "model_max_length", "cutoff_len", "seq_length", "sequence_len",
        "max_length", "block_size", "max_len", "context_length", "seq_len",
        # bigcode-project/starcoder2-self-align src/star_align/train.py:138 (truncation length, :66-72)
        "max_training_seq_length", "max_train_seq_length",
        "ctx_len")  # BlinkDL/RWKV-LM RWKV-v7/train_temp/train.py --ctx_len (the training context, demo-training-run.sh:57)
_IMAGE = ("resolution", "image_size", "img_size", "input_size", "force_image_size")
_RANK = ("lora_r", "lora_rank", "lora_dim")
_CKPT = ("gradient_checkpointing", "gradient_checkpointing_enable",
         "grad_checkpointing")  # mlfoundations/open_lm params.py --grad-checkpointing -> main.py:491-492
# SFTConfig/DPOConfig defaults of later TRL releases (the release that set them); before it, the
# TrainingArguments default (_TA_DEFAULTS; none for max_length: TRL then derived it from the tokenizer)
_CKPT_HANDED = re.compile(r"\buse_checkpoint\s*=\s*\w+\.use_checkpoint\b")
_TRL_SINCE = {"gradient_checkpointing": (0, 22), "bf16": (0, 19), "max_length": (0, 16)}
_TA_DEFAULTS = {"gradient_checkpointing": False, "bf16": False, "max_length": None}
_ATTN = ("attn_implementation",)
_FSDP_WORDS = {"full_shard": "fsdp_full", "shard_grad_op": "fsdp_grad_op", "hybrid_shard": "fsdp_hybrid",
               "hybrid_shard_zero2": "fsdp_hybrid", "no_shard": "ddp"}
_HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")
_ARCH_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]*[A-Za-z0-9]$")
_ATTN_VALUES = ("eager", "sdpa", "flash_attention_2", "flash_attention_3", "flex_attention")

_GLOBAL_HELP = re.compile(r"\b(global|total|effective)\b[\w\s]{0,20}\bbatch[ _-]?size\b", re.I)
# a batch counted in tokens, not sequences (karpathy/llm.c train_gpt2.py:552 --total_batch_size,
# "total desired batch size, in units of #tokens")
_TOKENS_HELP = re.compile(r"\b(in|of)\s+(units\s+of\s+)?#?\s*tokens\b|\btokens\b", re.I)
# an option documented as the accumulation count, whatever its name (facebookresearch/ConvNeXt
# main.py:54-55 --update_freq, "gradient accumulation steps"); the help must start with it, so a
# passing mention ("does not work with gradient accumulation") is not one
_ACCUM_HELP = re.compile(r"^\W*(the\s+)?(number\s+of\s+)?(gradient|grad\.?)[\s_-]+accumulation(\s+steps?)?\s*[.,:;)]?\s*$"
                         r"|^\W*(the\s+)?number\s+of\s+(gradient\s+)?accumulation\s+steps\b", re.I)
_NODES_HELP = re.compile(r"\b(number|count) of (nodes|machines|hosts)\b", re.I)
_SPREAD_DEFAULTS = re.compile(r"\.set_defaults\(\s*\*\*\s*\w+\s*\)")
_RAY = re.compile(r"^\s*(import ray\b|from ray(\.[\w.]+)? import )", re.M)
_LAUNCHER_ENV = re.compile(r"""os\.environ(\.get\(|\[)\s*['"](RANK|WORLD_SIZE|LOCAL_RANK)['"]""")


# precision spellings of a command-line option's choices
_CHOICE_PRECISION = {"fp32": "fp32", "float32": "fp32", "32": "fp32",
                     "amp": "amp_fp16", "amp_fp16": "amp_fp16", "amp_float16": "amp_fp16", "fp16_autocast": "amp_fp16",
                     "amp_bf16": "amp_bf16", "amp_bfloat16": "amp_bf16", "bf16_autocast": "amp_bf16",
                     "bf16_buffers_autocast": "amp_bf16",
                     "bf16": "bf16", "pure_bf16": "bf16", "bfloat16": "bf16",
                     "fp16": "fp16", "pure_fp16": "fp16", "float16": "fp16"}


def _precision_choices(choices: tuple) -> bool:
    """Choices that spell precisions, with an autocast spelling and a plain 16-bit one apart."""
    low = [str(c).lower() for c in choices]
    known = [c for c in low if c in _CHOICE_PRECISION]
    autocast = any(c.startswith("amp") or "autocast" in c for c in known)
    return len(known) >= 3 and len(known) >= len(low) - 1 and autocast \
        and any(_CHOICE_PRECISION[c] in ("bf16", "fp16") for c in known)


def _as_int(value: Any) -> Optional[int]:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\d+", value.strip()):
        return int(value)
    return None


def _image_side(value: Any) -> Optional[int]:
    """The side of a square image from an ``nargs`` size option: ``3 224 224`` (timm's ``--input-size``,
    "Input all image dimensions (d h w)": channels first) or ``224 224``; None when not square."""
    words = value.split() if isinstance(value, str) else value if isinstance(value, (list, tuple)) else None
    if not words or len(words) not in (2, 3):
        return None
    sides = [_as_int(w) for w in words][-2:]
    return sides[0] if sides[0] is not None and sides[0] == sides[1] else None


def _as_float(value: Any) -> Optional[float]:
    try:
        return float(value) if isinstance(value, str) else None
    except ValueError:
        return None


def _as_bool(value: Any) -> Optional[bool]:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no"):
        return value.lower() in ("true", "1", "yes")
    return None


_TRAINS = ("backward", "step", "init_process_group", "DistributedDataParallel", "fit")


def _data_workers_only(text: str) -> bool:
    """Every ``Process(target=f, ...)`` of ``text`` starts a function of the same module that neither
    trains nor joins a process group (nor does a module-level function it calls): a data producer
    (pmixer/SASRec.pytorch @ fde8a9c ``python/utils.py:68-82``: ``WarpSampler`` starts ``Process(
    target=sample_function, ...)`` workers that put sampled batches in a queue), not a training process."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    found = False
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or _name_of(node.func) != "Process":
            continue
        target = next((k.value for k in node.keywords if k.arg == "target"), None)
        if not isinstance(target, ast.Name) or target.id not in functions:
            return False
        reach = [functions[target.id]]
        reach += [functions[c.func.id] for c in ast.walk(reach[0]) if isinstance(c, ast.Call)
                  and isinstance(c.func, ast.Name) and c.func.id in functions and c.func.id != target.id]
        if any(isinstance(c, ast.Call) and _name_of(c.func) in _TRAINS for fn in reach for c in ast.walk(fn)):
            return False
        found = True
    return found


def option_resolver(project: Project, script: ParsedPython) -> Callable[[str], Optional[Resolved]]:
    """``name`` -> the value of the option the job declares under that name (launch line, the
    parser's JSON/YAML file, else the declared default), typed like the declaration; None when
    the job declares no such option. Built on first use; read by :class:`ScriptIndex` for
    ``owner.name`` attributes of objects the script did not build (``lora_args.q_lora``)."""
    state: dict[str, Any] = {}

    def lookup(name: str) -> Optional[Resolved]:
        if name in state:
            return state[name]
        if "pass" not in state:
            state["pass"] = _Pass(None, project, None, script)  # type: ignore[arg-type]  # values only
        p = state["pass"]
        found = p.value(name)
        out: Optional[Resolved] = None
        if found is not None:
            _, value, source, _conf = found
            opt = p.decl.options.get(name)
            default = opt.default if opt is not None else None
            if isinstance(value, str):
                if _as_bool(value) is not None and (isinstance(default, bool) or (opt is not None and opt.flag_only)):
                    value = _as_bool(value)
                elif _as_int(value) is not None and ((isinstance(default, int) and not isinstance(default, bool))
                                                     or (opt is not None and opt.kind == "int")):
                    value = _as_int(value)  # ``-d 8`` of ``type=int, default=None`` is the number 8
                elif opt is not None and opt.kind == "float" and _as_float(value) is not None:
                    value = _as_float(value)
            if source.kind == "default" and p.unapplied_config():
                # a config file the line names and the options are not read from may set it
                # (a default alone is never high: CORL's ``batch_size: int = 64`` under a YAML of 4096)
                out = Resolved(value, "code", None, name,
                               f"{source.detail}; {p.unapplied_config()} may set it (not read into the options)",
                               cap="low")
            elif source.kind == "code" or source.kind == "default":
                out = Resolved(value, "code", None, name, source.detail)
            else:
                where = f" ({source.path}:{source.line})" if source.path else ""
                out = Resolved(value, "cli", None, source.key or f"--{name}", (source.detail or name) + where)
        state[name] = out
        return out

    return lookup


@register_adapter
class CliArgsAdapter(Adapter):
    name = "cliargs"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return bool(project.scripts) and (bool(project.argv)
                                          or any(_DECLARES.search(s.source.text) for s in project.scripts))

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            _Pass(self, project, plan, script).run()


class _Pass:
    def __init__(self, adapter: CliArgsAdapter, project: Project, plan: TrainingPlan, script: ParsedPython) -> None:
        self.adapter, self.project, self.plan, self.script = adapter, project, plan, script
        self.decl = declared_options(script, project)
        self.args = project.script_args(script)
        self.opaque = opaque_words(self.args)  # `"${args[@]}"` the launch reader could not expand
        self.cli = _cli_values(self.args, self.decl)
        self.file_values = self._parser_file()
        self.line = " ".join(project.argv)

    def _parser_file(self) -> dict[str, tuple[Any, Source]]:
        """Values of the JSON/YAML file an HfArgumentParser/TrlParser reads, or the ``--config_path``
        file pyrallis/draccus apply over the dataclass defaults (the line's ``--key value`` win)."""
        names: list[str] = []
        if "pyrallis" in self.decl.parsers:
            for k, tok in enumerate(self.args):
                if tok == "--config_path" and k + 1 < len(self.args):
                    names.append(self.args[k + 1])
                elif tok.startswith("--config_path="):
                    names.append(tok.split("=", 1)[1])
        spread = _SPREAD_DEFAULTS.search(self._texts()) is not None
        if spread:
            # timm's train.py shape: ``args_config, remaining = config_parser.parse_known_args()``, the
            # YAML of ``-c/--config`` loaded and ``parser.set_defaults(**cfg)``, then ``parse_args(remaining)``:
            # the file's keys are the options' defaults, the line's flags over them (apple/ml-4m @ cda590fa
            # run_training_4m_fsdp.py:231-239; huggingface/pytorch-image-models train.py)
            from preflight.jobs import _CONFIG_FLAG_WORDS

            for k, tok in enumerate(self.args):
                flag, eq, value = tok.partition("=")
                if "deepspeed" in flag.lower() or not (flag == "-c" or _CONFIG_FLAG_WORDS.match(flag)):
                    continue
                value = value if eq else (self.args[k + 1] if k + 1 < len(self.args) else "")
                if value.lower().endswith((".json", ".yaml", ".yml")):
                    names.append(value)
        if not names and not any(p in ("HfArgumentParser", "TrlParser") for p in self.decl.parsers):
            return {}
        if self.args and self.args[0].lower().endswith((".json", ".yaml", ".yml")):
            names.append(self.args[0])
        if "TrlParser" in self.decl.parsers:
            for k, tok in enumerate(self.args):
                if tok == "--config" and k + 1 < len(self.args):
                    names.append(self.args[k + 1])
                elif tok.startswith("--config="):
                    names.append(tok.split("=", 1)[1])
        if "parse_json_file" in self._texts() or "parse_yaml_file" in self._texts():
            # the file the script hands to parse_json_file, named by one of its own options
            # (Firefly ``--train_args_file train_args/sft/qlora/x.json``)
            from preflight.jobs import _CONFIG_FLAG_WORDS

            for k, tok in enumerate(self.args):
                flag, eq, value = tok.partition("=")
                if "deepspeed" in flag or not _CONFIG_FLAG_WORDS.match(flag):
                    continue
                value = value if eq else (self.args[k + 1] if k + 1 < len(self.args) else "")
                if value.lower().endswith((".json", ".yaml", ".yml")):
                    names.append(value)
        out: dict[str, tuple[Any, Source]] = {}
        for name in names:
            for _, cfg in self.project.configs:
                if os.path.normpath(cfg.path).endswith(os.path.normpath(name).lstrip("./")) \
                        and isinstance(cfg.data, dict):
                    for key, value in cfg.data.items():
                        if isinstance(key, str):
                            out.setdefault(key, (value, self.project.config_source(cfg, (key,))))
        return out

    def unapplied_config(self) -> str:
        """``--flag FILE`` of a config file on the script's line (not DeepSpeed's) when no file's
        values are read into the declared options; "" otherwise."""
        if self.file_values:
            return ""
        from preflight.jobs import _CONFIG_FLAG_WORDS

        for k, tok in enumerate(self.args):
            flag, eq, value = tok.partition("=")
            if "deepspeed" in flag.lower() or not _CONFIG_FLAG_WORDS.match(flag):
                continue
            value = value if eq else (self.args[k + 1] if k + 1 < len(self.args) else "")
            if value.lower().endswith((".json", ".yaml", ".yml")):
                return f"{flag} {value}"
        return ""

    def _texts(self) -> str:
        return "\n".join([self.script.source.text, *self.decl.texts])

    def value(self, *names: str) -> Optional[tuple[str, Any, Source, str]]:
        """(name, value, source, confidence) of the first declared option among ``names`` that
        has a value: command line, then the parser's file, then the declared default."""
        for name in names:
            if name not in self.decl.options:
                continue
            if name in self.cli:
                value, tok = self.cli[name]
                return name, value, Source("cli", None, None, f"--{name}",
                                           f"{tok} (declared {self.decl.options[name].where})"), "medium"
            if name in self.file_values:
                value, source = self.file_values[name]
                return name, value, source, "medium"
        if self.opaque:
            return None  # the option may be among the line's arguments not known statically
        for name in names:
            opt = self.decl.options.get(name)
            if opt is not None and opt.origin == "dataclass" and set(self.decl.parsers) == {"argparse"}:
                # a field of a class no parser of the job reads (only argparse parses the line): a model's
                # own config class, built in code with its own arguments (FoundationVision/LlamaGen @ ce98ec4
                # autoregressive/models/gpt.py:50 ``max_seq_len: int = 2048``, the model built with
                # ``block_size=latent_size ** 2``, train_c2i_fsdp.py:164-167): its default is no option value
                continue
            if opt is not None and opt.has_default and opt.default is not None:
                conf = "medium" if opt.origin == "library" else "low"
                default, where = self.trl_default(opt)
                if default is None:
                    continue
                return name, default, Source("default", None, None, name, f"default of {name} ({where})"), conf
        return None

    def trl_default(self, opt: Any) -> tuple[Any, str]:
        """The declared default of ``opt``; for an SFTConfig/DPOConfig default that a TRL release
        introduced (``gradient_checkpointing`` True from TRL 0.22, ``bf16`` True from 0.19,
        ``max_length`` 1024 from 0.16, as :meth:`transformers_args.ArgsPass.defaults` dates them),
        the inherited TrainingArguments default when the project pins an older TRL
        (simplescaling/s1 requirements.txt:13 ``trl==0.12.0``); None when that has none."""
        since = _TRL_SINCE.get(opt.name) if opt.origin == "library" and opt.library in ("SFTConfig", "DPOConfig") \
            else None
        if since is None:
            return opt.default, opt.where
        from preflight.adapters.transformers_version import find_version

        path = self.script.source.path
        trl = find_version("trl", Path(str(path)).resolve().parent, self.project.root) if path is not None else None
        if trl is None or trl.how != "pinned" or trl.at_least(*since):  # a lower bound installs the latest
            return opt.default, opt.where
        inherited = _TA_DEFAULTS.get(opt.name)
        return inherited, (f"{opt.library} of TRL {trl.text} ({trl.how}) inherits TrainingArguments' "
                           f"{opt.name}={inherited!r}; the TRL default {opt.default!r} came in "
                           f"{'.'.join(map(str, since))}")

    def add(self, field: str, value: Any, source: Source, confidence: str) -> None:
        self.adapter.add_checked(self.plan, field, value, source, confidence)

    def run(self) -> None:
        self.side_effects()
        self.single_process()
        if not self.decl.options:
            return
        self.model()
        for names, target in ((_MICRO, "batch.micro"), (_ACCUM, "batch.grad_accum"), (_SEQ, "data.seq_len"),
                              (_IMAGE, "data.image_size")):
            found = self.value(*names)
            if found is None:
                continue
            name, value, source, conf = found
            number = _as_int(value)
            if target == "data.seq_len" and name in ("max_length",) and not self._trl() \
                    and self.decl.options[name].library != "TrainingArguments":
                continue  # max_length of a TrainingArguments subclass (SimPOConfig) is the training length
            if number is None and target == "data.image_size":
                number = _image_side(value)
            if number is not None and number >= 1:
                self.add(target, number, source, conf)
        self.update_freq()
        found = self.value(*_CKPT)
        if found is None and _CKPT_HANDED.search("\n".join([self.script.source.text, *self.decl.texts])):
            # ``--use_checkpoint`` handed to the model as ``use_checkpoint=args.use_checkpoint`` (timm/Swin/BEiT
            # models' activation checkpointing switch; MCG-NJU/VideoMAE run_class_finetuning.py:133,314)
            found = self.value("use_checkpoint")
        if found is not None and _as_bool(found[1]) is not None:
            self.add("memory.gradient_checkpointing", _as_bool(found[1]), found[2], found[3])
        found = self.value("optim")
        if found is not None and isinstance(found[1], str) and found[1] and found[2].kind != "default":
            self.add("optimizer.name", found[1], found[2], found[3])
        elif found is None and "optim" in self.decl.options and self.decl.options["optim"].origin == "library":
            self.library_optim()
        elif found is not None and isinstance(found[1], str) and found[1] \
                and self.decl.options["optim"].origin == "dataclass" \
                and self.decl.options["optim"].library == "TrainingArguments":
            # a TrainingArguments subclass of the project redeclares ``optim`` with its own default
            # (facebookresearch/MobileLLM @ 8b9769db utils/process_args.py:46-48 ``optim = "adamw_torch"``)
            self.add("optimizer.name", found[1], found[2], "medium")
        from preflight.adapters.cliargs_help import trainer_compile, trainer_workers

        trainer_compile(self)
        trainer_workers(self, _as_int)
        from preflight.adapters.cliargs_help import deepspeed_stage_option

        deepspeed_stage_option(self, _as_int)
        found = self.value("use_liger_kernel")
        if found is not None and found[2].kind != "default" and _as_bool(found[1]) is True:
            # TrainingArguments(use_liger_kernel=True): Liger's fused linear cross-entropy
            self.add("loss.implementation", "fused", found[2], found[3])
        found = self.value(*_ATTN)
        if found is not None and found[1] in _ATTN_VALUES:
            self.add("model.attn_implementation", found[1], found[2], found[3])
        self.peft()
        self.precision()
        self.trainer_flags()
        self.computed()
        self.nodes_by_help()
        self.global_batch_by_help()
        self.accum_by_help()
        if self.value(*_MICRO) is None:
            from preflight.adapters.cliargs_help import micro_by_help

            micro_by_help(self, _as_int)

    def library_optim(self) -> None:
        """The ``optim`` default of a library TrainingArguments class the parser declares (TrlParser
        with SFTConfig), by the transformers and torch versions the project pins."""
        from preflight.adapters.transformers_version import default_optim, find_version

        path = self.script.source.path
        if path is None or self.opaque:
            return
        folder = Path(str(path)).resolve().parent
        tv = find_version("transformers", folder, self.project.root)
        torch = find_version("torch", folder, self.project.root)
        name, detail = default_optim(tv, torch)
        if name is not None:
            self.add("optimizer.name", name, Source("default", None, None, "optim",
                                                    f"{self.decl.options['optim'].library or 'TrainingArguments'} "
                                                    f"default: {detail}"), "medium")

    def global_batch_by_help(self) -> None:
        """An option the script documents as the global batch size (OpenRLHF
        ``--train.batch_size``, "Global training batch size"): ``batch.global``; only one such
        option, and not one documented per device/GPU."""
        # an option documented as accumulating gradients "for increasing the effective batch size" is the
        # accumulation count (facebookresearch/mae @ efb2a80 main_pretrain.py:43 ``--accum_iter``)
        names = [n for n, o in self.decl.options.items() if _GLOBAL_HELP.search(o.help or "")
                 and not re.search(r"per (gpu|device|rank|process)|accumulat", o.help or "", re.I)
                 and not _TOKENS_HELP.search(o.help or "")
                 and self.decl.dotted.get(n) is None]  # the short name of a grouped option: the same option
        if len(names) > 1:
            # several documented as global (VAR: `bs` the user's, `glb_batch_size` computed from it):
            # the one the launch line gives
            names = [n for n in names if n in self.cli]
        if len(names) != 1:
            return
        found = self.value(names[0])
        if found is None:
            return
        number = _as_int(found[1])
        if number is not None and number >= 1:
            help_text = self.decl.options[names[0]].help
            self.add("batch.global", number, Source(found[2].kind, found[2].path, found[2].line, found[2].key,
                                                    f"{found[2].detail}: documented as \"{help_text}\""),
                     "medium" if found[2].kind != "default" else "low")

    def accum_by_help(self) -> None:
        """An option not named like an accumulation count that the script documents as one
        (ConvNeXt ``--update_freq``, "gradient accumulation steps"): ``batch.grad_accum``; only
        when exactly one option is so documented."""
        names = [n for n, o in self.decl.options.items() if n not in _ACCUM and "." not in n
                 and _ACCUM_HELP.search(o.help or "")]
        if len(names) != 1:
            return
        found = self.value(names[0])
        number = _as_int(found[1]) if found is not None else None
        if found is None or number is None or number < 1:
            return
        help_text = self.decl.options[names[0]].help
        self.add("batch.grad_accum", number, Source(found[2].kind, found[2].path, found[2].line, found[2].key,
                                                    f"{found[2].detail}: documented as \"{help_text}\""),
                 "medium" if found[2].kind != "default" else "low")

    def nodes_by_help(self) -> None:
        """An option the script documents as the number of nodes (pytorch/examples ImageNet:
        ``--world-size``, "number of nodes for distributed training"): ``dist.nodes``."""
        for name, opt in self.decl.options.items():
            if not _NODES_HELP.search(opt.help or "") or "." in name:
                continue
            found = self.value(name)
            if found is not None and found[2].kind != "default":
                nodes = _as_int(found[1])
                if nodes is not None and nodes >= 1:
                    self.add("dist.nodes", nodes, Source(found[2].kind, found[2].path, found[2].line, found[2].key,
                                                         f"{found[2].detail}: documented as \"{opt.help}\""),
                             "medium")
                return

    def trainer_flags(self) -> None:
        """``--fsdp``/``--bf16``/``--fp16`` of a TrainingArguments subclass the script declares
        (the transformers adapter reads TrainingArguments itself)."""
        if not any(o.library == "TrainingArguments" and o.origin == "library" and ":" in o.where
                   for o in self.decl.options.values()):
            return
        fsdp = self.cli.get("fsdp") or (self.file_values.get("fsdp") and (self.file_values["fsdp"][0], ""))
        found = self.value("fsdp")
        if fsdp and found is not None and isinstance(found[1], str) and found[1].strip():
            words = found[1].lower().split()
            mode = next((_FSDP_WORDS[w] for w in words if w in _FSDP_WORDS), "fsdp_full")
            self.add("dist.sharding", mode, found[2], found[3])
            if "offload" in words:
                self.add("dist.offload_params", "cpu", found[2], found[3])
        for key, mode in (("bf16", "amp_bf16"), ("fp16", "amp_fp16")):
            if key in self.cli and _as_bool(self.cli[key][0]):
                given = self.value(key)
                if given is not None:
                    self.add("precision.mode", mode, given[2], given[3])

    def computed(self) -> None:
        """``gradient_accumulation_steps = batch_size // micro_batch_size`` at the top of a
        ``fire.Fire`` function, from the options' values (one process: not divided)."""
        for fn in self.decl.fire_functions:
            for stmt in fn.body:
                if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                        and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id in _ACCUM
                        and isinstance(stmt.value, ast.BinOp) and isinstance(stmt.value.op, ast.FloorDiv)
                        and isinstance(stmt.value.left, ast.Name) and isinstance(stmt.value.right, ast.Name)):
                    continue
                left, right = self.value(stmt.value.left.id), self.value(stmt.value.right.id)
                a = _as_int(left[1]) if left else None
                b = _as_int(right[1]) if right else None
                if a and b:
                    self.add("batch.grad_accum", a // b,
                             Source("derived", str(self.script.source.display), stmt.lineno, stmt.targets[0].id,
                                    f"{stmt.value.left.id} {a} // {stmt.value.right.id} {b}"), "medium")

    def update_freq(self) -> None:
        """``--update_freq`` with no help text at all is the accumulation count (the BEiT/ConvNeXt/VideoMAE
        family's name, fairseq's too: MCG-NJU/VideoMAE run_class_finetuning.py:31,404), unless another
        option is documented as the accumulation; a help text that says otherwise is read as written
        (the help-based reading elsewhere decides it)."""
        opt = self.decl.options.get("update_freq")
        if opt is None or (opt.help or "").strip() or any(_ACCUM_HELP.search(o.help or "")
                                                            for o in self.decl.options.values()):
            return
        found = self.value("update_freq")
        count = _as_int(found[1]) if found is not None else None
        if found is not None and count is not None and count >= 1:
            self.add("batch.grad_accum", count, found[2], found[3])

    def side_effects(self) -> None:
        """``prepare_model_for_kbit_training``/``prepare_model_for_int8_training`` turn
        gradient checkpointing on unless ``use_gradient_checkpointing=False``."""
        from preflight.adapters.guarded import _device, _walk

        idx = None
        for node, guards in _walk(self.script.tree):
            if isinstance(node, ast.Call) and _name_of(node.func) in ("prepare_model_for_kbit_training",
                                                                        "prepare_model_for_int8_training"):
                # under `if cfg.use_quantization:` with the option false (openvla/openvla
                # vla-scripts/finetune.py:102,167-168) the call never runs: no checkpointing from it
                idx = idx or self.project.index(self.script)
                state: Optional[bool] = True
                for test, in_body in guards:
                    taken = _device(test)
                    taken = idx.truth(test) if taken is None else taken
                    if taken is None:
                        state = None
                    elif taken != in_body:
                        state = False
                        break
                if state is False:
                    continue
                kw = {k.arg: k.value for k in node.keywords}
                ok, on = _literal(kw.get("use_gradient_checkpointing"))
                value = on if ok and isinstance(on, bool) else True
                detail = (f"{_name_of(node.func)}(...) enables gradient checkpointing by default "
                          "(use_gradient_checkpointing=True)")
                if state is None:
                    detail += "; it sits under an `if` this reading cannot decide, so it may not run"
                self.add("memory.gradient_checkpointing", value,
                         Source("code", str(self.script.source.display), node.lineno, _name_of(node.func), detail),
                         "high" if state else "low")

    def single_process(self) -> None:
        """``python script.py`` starts one process; unless the script spawns more itself."""
        from preflight.adapters.launchers import parse_launch

        info = parse_launch(self.project.argv) if self.project.argv else None
        if info is None or info.launcher != "python" or info.wrapper is not None:
            return
        texts = [self.script.source.text, *self.decl.texts]
        # torch.multiprocessing.start_processes may be called through a variable and submitit starts
        # jobs itself (facebookresearch/sam2 training/train.py:55-60, :68): neither is one process
        if any(word in self.script.source.text for word in ("spawn(", "Process(", "launch(")):
            from preflight.adapters.spawned_processes import detectron2_launch, spawned_processes

            # a script with an option documented as the number of nodes (pytorch/examples ImageNet
            # ``--world-size``) spawns its processes on each node it is started on: one machine is
            # not known
            per_node = any(_NODES_HELP.search(o.help or "") for o in self.decl.options.values())
            if detectron2_launch(self.project, self.script, info.line, self.add) or per_node \
                    or spawned_processes(self.project, self.script, info.line, self.add):
                return
        if any(word in t for t in texts for word in ("spawn(", "lightning", "notebook_launcher",
                                                     "start_processes", "submitit")):
            return
        if any(_RAY.search(t) for t in texts):
            # a Ray driver places its workers on the cluster's GPUs itself (OpenRLHF's train_ppo_ray.py,
            # RUCAIBox/R1-Searcher @ 631167cb OpenRLHF-RAG/openrlhf/cli/train_ppo_ray.py:5,64 placement groups)
            from preflight.adapters.ray_actor_group import ray_actor_group

            ray_actor_group(self.project, self.script, info.line, self.add)
            return
        if any("Process(" in t and not _data_workers_only(t) for t in texts):
            return
        if any("hydra" in t for t in texts) and not self._hydra_single_run():
            return
        detail = f"one process: {info.line}; the script starts no others"
        if any("init_process_group" in t for t in texts):
            # a process group joins processes a launcher started; plain python sets none of its
            # variables, so a script that decides on DDP from them runs one process
            if not any(_LAUNCHER_ENV.search(t) for t in texts):
                return
            detail += ("; its init_process_group runs only when a launcher sets RANK/WORLD_SIZE/LOCAL_RANK, "
                       "which plain python does not")
            from preflight.adapters.ddp_unreached import NO_PROCESS_GROUP

            self.project.cache[NO_PROCESS_GROUP] = True
        self.add("dist.world_size", 1, Source("derived", None, None, "python", detail), "medium")
        # one process runs on one machine
        self.add("dist.nodes", 1, Source("derived", None, None, "python", detail + "; one process is one node"),
                 "medium")

    def _hydra_single_run(self) -> bool:
        """A Hydra app run without ``-m``/``--multirun`` (on the line or ``hydra.mode: MULTIRUN`` in a
        config read) runs in the launching process: its launcher plugin (``submitit_local``,
        nicklashansen/tdmpc2 ``config.yaml``) only starts jobs for a multirun."""
        from preflight.adapters.pytorch_local import _hydra_config_texts

        argv = [str(a) for a in self.project.script_args(self.script)]
        if any(a in ("-m", "--multirun") or "hydra.mode" in a or "hydra/launcher" in a or "hydra.launcher" in a
               for a in argv):
            return False
        configs = [*(src.text for src, _cfg in self.project.configs), *_hydra_config_texts(self.project)]
        return not any("MULTIRUN" in t for t in configs)

    def _trl(self) -> bool:
        return any(o.library in ("SFTConfig", "DPOConfig") for o in self.decl.options.values())

    def model(self) -> None:
        from preflight.adapters.model_local_folder import catalog_download, help_model_option

        found = self.value(*_MODEL)
        if found is None:  # ``--pretrain`` documented as "HF model name or path" (OpenRLHF)
            named = help_model_option(self.decl.options, [*self.cli, *self.file_values])
            found = self.value(named) if named is not None else None
            if found is not None and not (isinstance(found[1], str) and re.fullmatch(r"[^\s,:;]+", found[1])):
                found = None  # a list of models and files (``id:pattern,id:pattern``) is not one model
        if found is not None:
            name, value, source, conf = found
            if isinstance(value, str) and _HUB_ID.match(value.strip()) and not value.startswith((".", "~", "/")):
                self.add("model.ref", value.strip(), source, conf)
            elif isinstance(value, str) and value:
                opt = self.decl.options.get(name)
                default = opt.default if opt is not None else None
                folder = value.strip().rstrip("/").rsplit("/", 1)[-1]
                if isinstance(default, str) and _HUB_ID.match(default) and folder \
                        and default.rsplit("/", 1)[-1] == folder:
                    # a local download named like the declared default's repository (MiniCPM
                    # --model_name_or_path MiniCPM-2B-sft-bf16, default openbmb/MiniCPM-2B-sft-bf16)
                    self.add("model.ref", default, Source(source.kind, source.path, source.line, source.key,
                                                          f"{source.detail}: a local folder named like the declared "
                                                          f"default {default} ({opt.where if opt else ''}), taken "
                                                          "as a download of it"), "low")
                elif name not in ("model_path", "model_dir") and _ARCH_NAME.match(value.strip()) \
                        and not self._exists(value.strip()) and self._mapped(name):
                    self.adapter.note(self.plan, f"--{name} {value} is handed to a project function that maps names "
                                                 "to strings: the model is what it returns where that is loaded")
                    return self._arch()
                elif name not in ("model_path", "model_dir") and _ARCH_NAME.match(value.strip()) \
                        and not self._exists(value.strip()):
                    # ``--model ViT-B-32`` (open_clip), ``--model efficientnet_b2`` (timm),
                    # ``--model vit_base_patch16`` (MAE models_vit): a bare name, no folder of
                    # that name here: the name of an architecture in a library's registry or the
                    # project's own models (or a Hub id without an owner, ``gpt2``); its size is
                    # not known from the name
                    self.add("model.ref", value.strip(), Source(source.kind, source.path, source.line, source.key,
                                                                f"{source.detail}: a model name (a registry or "
                                                                "catalog name, not a local path)"), "medium")
                    self.adapter.note(self.plan, f"--{name} {value} is a model name, not a local path: its size "
                                                 "is known only where a catalog or config gives it")
                    return self._arch()
                hub = catalog_download(value)
                hub = hub if hub is not None and not self._exists(value.strip()) else None
                if hub is not None:
                    self.add("model.ref", hub, Source(source.kind, source.path, source.line, source.key,
                                                      f"{source.detail}: a local folder named like the catalog "
                                                      f"model {hub}, taken as a download of it"), "low")
                    return self._arch()
                self.adapter.note(self.plan, f"--{name} {value} is a local path: the architecture is not known "
                                             "without its config.json")
        self._arch()

    def _mapped(self, name: str) -> bool:
        """The option is handed to a project function that maps names to strings
        (``parse_model_name(args.base_model, ...)``, AI4Finance-Foundation/FinGPT
        ``fingpt/FinGPT_Forecaster/train_lora.py:84``): the value loaded is what it returns (read
        where the result is used), not the name itself."""
        from preflight.script_mapping import _local_function, _table_function

        if self.script.tree is None:
            return False
        idx = self.project.index(self.script)
        for node in ast.walk(self.script.tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and any(isinstance(a, ast.Attribute) and a.attr == name
                            for a in [*node.args, *(k.value for k in node.keywords)]):
                found = _local_function(idx, node.func.id)
                if found is not None and _table_function(found[0]):
                    return True
        return False

    def _exists(self, value: str) -> bool:
        """A folder or file of that name beside the job (a local checkpoint)."""
        for base in (self.project.root, self.script.source.path.parent if self.script.source.path else None):
            try:
                if base is not None and (Path(base) / value).exists():
                    return True
            except (OSError, ValueError):  # a name too long for a path (a constructor given as a string)
                return False
        return False

    def _arch(self) -> None:
        if self.decl.arch_lookup:
            found = self.value(*_ARCH)
            if found is not None and isinstance(found[1], str) and re.fullmatch(r"[A-Za-z_]\w*", found[1]):
                self.add("model.ref", found[1], found[2], found[3])

    def peft(self) -> None:
        use = self.value("use_peft")
        rank = self.value(*_RANK)
        four = self.value("load_in_4bit")
        eight = self.value("load_in_8bit")
        bits = None
        if four is not None and _as_bool(four[1]):
            bits = 4
            self.add("precision.weights_bits", 4, four[2], four[3])
        elif eight is not None and _as_bool(eight[1]):
            bits = 8
            self.add("precision.weights_bits", 8, eight[2], eight[3])
        if use is not None:
            on = _as_bool(use[1])
            if on is False:
                self.add("peft.method", "none", use[2], use[3])
                return
            if on:
                self.add("peft.method", "lora", use[2], use[3])
                self.add("task.mode", "qlora" if bits == 4 else "lora", use[2], use[3])
                if rank is not None and _as_int(rank[1]):
                    self.add("peft.rank", _as_int(rank[1]), rank[2], rank[3])
                qt = self.value("bnb_4bit_quant_type")
                dq = self.value("use_bnb_nested_quant")
                if bits == 4 and qt is not None and qt[1] in ("nf4", "fp4"):
                    self.add("precision.quant_type", qt[1], qt[2], qt[3])
                if bits == 4 and dq is not None and _as_bool(dq[1]) is not None:
                    self.add("precision.double_quant", _as_bool(dq[1]), dq[2], dq[3])
                return
        if rank is not None and rank[0] == "lora_dim":
            r = _as_int(rank[1])
            if r == 0:
                self.add("peft.method", "none", rank[2], rank[3])
            elif r:
                self.add("peft.rank", r, rank[2], rank[3])
                only = self.value("only_optimize_lora")
                if only is not None and _as_bool(only[1]):
                    self.add("peft.method", "lora", rank[2], rank[3])
                    self.add("task.mode", "lora", only[2], only[3])
        elif rank is not None and rank[2].kind != "default" and _as_int(rank[1]):
            self.add("peft.rank", _as_int(rank[1]), rank[2], rank[3])
        elif rank is not None and _as_int(rank[1]) == 0 and use is None:
            # a LoRA rank of 0 is no LoRA (the option enables it when positive)
            self.add("peft.method", "none", rank[2], rank[3])

    def precision_choice(self) -> None:
        """An option whose declared ``choices`` spell precisions and set an autocast one apart from a pure
        one (mlfoundations/open_clip params.py ``--precision`` choices amp, amp_bf16, amp_bfloat16, bf16,
        fp16, pure_bf16, pure_fp16, fp32; mlfoundations/open_flamingo train.py:103-108 amp_bf16,
        amp_bfloat16, bf16, fp16, fp32; AnswerDotAI/fsdp_qlora train.py:1203 fp32, bf16, fp16_autocast,
        bf16_autocast, bf16_buffers_autocast): its value is the precision, a plain ``bf16``/``fp16``
        a 16-bit cast of the weights (the autocast spelling is another choice). The option's name is not
        read; one such option only."""
        found = [n for n, o in self.decl.options.items() if _precision_choices(o.choices)]
        if len(found) != 1:
            return
        got = self.value(found[0])
        if got is None or not isinstance(got[1], str):
            return
        mode = _CHOICE_PRECISION.get(got[1].lower())
        if mode is None:
            return
        source = got[2]
        self.add("precision.mode", mode, Source(source.kind, source.path, source.line, source.key,
                                                f"{source.detail}: one of {', '.join(self.decl.options[found[0]].choices)}"
                                                f" (an autocast spelling among them: {got[1]!r} means {mode})"),
                 got[3])

    def precision(self) -> None:
        """TRL configs default bf16 on (unless fp16): autocast bf16 when no other fact says."""
        self.precision_choice()
        if not self._trl():
            return
        bf16 = self.value("bf16")
        fp16 = self.cli.get("fp16")
        if fp16 is not None and _as_bool(fp16[0]):
            return
        if bf16 is not None and _as_bool(bf16[1]):
            self.add("precision.mode", "amp_bf16", bf16[2], bf16[3])

"""The state and value lookups of the command-line-options pass: option values, a parser file, TRL defaults.

Part of :mod:`preflight.adapters.cliargs` (its ``_Pass``), split by concern."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Any, Optional, cast

from preflight.adapters.cliargs_options import (
    _cli_values,
    _name_of,
    declared_options,
)

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.script_argv import opaque_words
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


# a Ray driver: ray imported at the top of a module, or ray started or remote tasks declared anywhere; not
# ``from ray import tune`` inside a hyperparameter-search method (voidism/DiffCSE diffcse/trainers.py:206, the
# HF Trainer's copied ``_tune_save_checkpoint``), which starts nothing when the job trains
_RAY = re.compile(r"^(import ray\b|from ray(\.[\w.]+)? import )|\bray\.init\(|^\s*@ray\.remote\b", re.M)


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


class _PassCore:
    def __init__(self, adapter: Optional[Adapter], project: Project, plan: Optional[TrainingPlan],
                 script: ParsedPython) -> None:
        # the CLI-args adapter's pass, or another adapter's (deepspeed_code.py); no adapter and no plan
        # for a values-only pass (option_resolver, model_registry_args.py), which adds no fact
        self.adapter, self.plan = cast(Adapter, adapter), cast(TrainingPlan, plan)
        self.project, self.script = project, script
        self.decl = declared_options(script, project)
        self.args = project.script_args(script)
        unread = False
        if "absl" in self.decl.parsers:  # --flagfile read in place, --noname (adapters/absl_flags.py)
            from preflight.adapters.absl_flags import absl_args

            here = [Path(str(project.root))] + ([Path(str(script.source.path)).parent] if script.source.path else [])
            self.args, unread = absl_args(self.args, self.decl, here)
        # `"${args[@]}"` the launch reader could not expand, or an absl flag file not read: any option may be there
        self.opaque = opaque_words(self.args) + (["--flagfile"] if unread else [])
        self.cli = _cli_values(self.args, self.decl)
        self.file_values = self._parser_file()
        from preflight.adapters.cliargs_fill_file import fill_values, typer_config_values

        # keys a loop setattr()s from a file onto the options left None (xRAG's parse_args)
        for key, got in fill_values(project, script, self.cli, self.decl.options.get).items():
            self.file_values.setdefault(key, got)
        # keys of the file a typer_config decorator reads into the command's parameters (chronos' --config)
        for key, got in typer_config_values(project, script, self.cli, self.decl.options.get).items():
            self.file_values.setdefault(key, got)
        self.line = " ".join(project.argv)
        from preflight.adapters.cliargs_override_file import override_values

        # keys a helper setattr()s over the parsed options from a file (GraphMAE's --use_cfg): they win
        self.override = override_values(project, script, self._known_option) if script is not None else {}
        from preflight.adapters.cliargs_pyconfig_attrs import config_attrs

        # names of a Python config file a loop setattr()s onto the options as new attributes (DINO's SLConfig)
        self.config_attrs = {} if script is None or self.opaque else \
            config_attrs(project, script, self.cli, self.decl.options.get, self.args)
        if script is not None and not self.opaque:
            from preflight.adapters.cliargs_importlib_cfg import importlib_config_attrs

            # a config class importlib loads by --config's name, copied onto the options after parsing (VCID):
            # over a declared option it wins, as a setattr after parse_args does; else a new attribute
            for key, got in importlib_config_attrs(project, script, self.cli).items():
                if self.decl.options.get(key) is not None:
                    self.override.setdefault(key, got)
                else:
                    self.config_attrs.setdefault(key, got)

    def _known_option(self, name: str) -> Any:
        """An option's value from the line, else its declared default; None when not known."""
        if name in self.cli:
            return self.cli[name][0]
        opt = self.decl.options.get(name)
        if self.opaque or opt is None or not opt.has_default:
            return None
        return opt.default

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
                if name in self.config_attrs:
                    value, source = self.config_attrs[name]
                    return name, value, source, "medium"
                continue
            if name in self.override:
                value, source = self.override[name]
                return name, value, source, "medium"
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

"""The model, PEFT and precision options of a job's command line.

Part of :mod:`preflight.adapters.cliargs` (its ``_Pass``), split by concern."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.cliargs_flags import _FlagsPass
from preflight.adapters.cliargs_options import (
    _ARCH,
)
from preflight.adapters.cliargs_pass import (
    _ARCH_NAME,
    _CHOICE_PRECISION,
    _HUB_ID,
    _MODEL,
    _RANK,
    _as_bool,
    _as_int,
    _precision_choices,
)

from preflight.plan import Source


class _ModelPass(_FlagsPass):
    def model(self) -> None:
        from preflight.adapters.model_local_folder import catalog_download, help_model_option

        found = self.value(*_MODEL)
        if found is None:  # ``--pretrain`` documented as "HF model name or path" (OpenRLHF)
            named = help_model_option(self.decl.options, [*self.cli, *self.file_values])
            found = self.value(named) if named is not None else None
            if found is not None and not (isinstance(found[1], str) and re.fullmatch(r"[^\s,:;]+", found[1])):
                found = None  # a list of models and files (``id:pattern,id:pattern``) is not one model
        if found is not None and (self._bare(found[1]) or self._unexpanded(found[1])):
            found = self._over_tag(found)
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
                    if self._wrapper_hub(value.strip(), source):
                        return None
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

    def _bare(self, value: object) -> bool:
        """A bare name: no Hub id (``owner/name``), no folder or file beside the job."""
        return isinstance(value, str) and bool(_ARCH_NAME.match(value.strip())) \
            and not _HUB_ID.match(value.strip()) and not self._exists(value.strip())

    @staticmethod
    def _unexpanded(value: object) -> bool:
        """A value with a shell variable left in it (``--model_id ETTh1_$model'_'$gpt_layer``, DAMO-DI-ML/
        NeurIPS2023-One-Fits-All ``Long-term_Forecasting/scripts/ETTh1.sh:17``): no path or Hub id, a tag
        maybe, weighed against the other model-named options as a bare name is."""
        return isinstance(value, str) and "$" in value and not _HUB_ID.match(value.strip())

    def _over_tag(self, found: tuple) -> tuple:
        """Another model-named option in place of one the code only formats into strings (a run's tag,
        :mod:`preflight.adapters.cliargs_model_tag`)."""
        from preflight.adapters.cliargs_model_tag import model_option_over_tag

        others = [self.value(n) for n in _MODEL if n != found[0]]
        alts = [o for o in others if o is not None and o[0] != found[0] and self._bare(o[1])]
        alt = model_option_over_tag(self.project, self.script, found, alts)
        if alt is None:
            return found
        self.adapter.note(self.plan, f"--{found[0]} {found[1]} is only formatted into strings (a run's tag), "
                                     f"--{alt[0]} {alt[1]} chooses the model in code: the model is --{alt[0]}")
        return alt

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

    def _wrapper_hub(self, value: str, source: Source) -> bool:
        """``--model TimeLLM`` naming the project's wrapper module, whose model loads a Hub model by a
        literal id (adapters/model_wrapper_hub.py): that Hub model is the model."""
        from preflight.adapters.model_wrapper_hub import wrapped_hub_model

        def option(name: str) -> object:
            found = self.value(name)
            return found[1] if found is not None else None

        got = wrapped_hub_model(Path(self.project.root), self.script.source.text, value, option)
        if got is None:
            return False
        hub, shown, line, guard = got
        self.add("model.ref", hub, Source("code", shown, line, source.key,
                                          f"{source.detail}: picks the project's {shown}, whose model loads {hub} "
                                          f"(line {line}{', under ' + guard if guard else ''})"), "medium")
        return True

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
        self.weights_dtype_option()
        self.trl_packing()
        self.trl_truncation()
        self.trl_legacy_sft_keywords()
        if not self._trl():
            return
        bf16 = self.value("bf16")
        fp16 = self.cli.get("fp16")
        if fp16 is not None and _as_bool(fp16[0]):
            return
        if bf16 is not None and _as_bool(bf16[1]):
            self.add("precision.mode", "amp_bf16", bf16[2], bf16[3])

    def weights_dtype_option(self) -> None:
        """A ``torch_dtype``/``dtype`` option given a 16-bit value (the launch line or the parser's
        file, never its default) that the script hands to the model's load: the weights are
        loaded in 16 bits. SmallDoges/small-doge @ 0e305a7 ``recipes/doge/Doge-160M-Instruct/sft/
        config_full.yaml:22`` ``torch_dtype: bfloat16`` -> ``src/small_doge/trainer/sft.py:108-121``
        ``torch_dtype = ... getattr(torch, model_args.torch_dtype)``, ``model_kwargs =
        dict(torch_dtype=torch_dtype, ...)``, ``training_args.model_init_kwargs = model_kwargs``
        (TRL's own ``trl/scripts/sft.py`` and the alignment handbook the same; transformers'
        ``run_clm.py`` into ``from_pretrained``). ``precision.weights_bits`` 16 and a fallback
        ``precision.mode`` of that dtype (priority -1), which the derive step weighs against an
        autocast from the Trainer or accelerate (:func:`preflight.adapters.derive`)."""
        found = self.value("torch_dtype", "dtype")
        if found is None or not isinstance(found[1], str) or found[2].kind == "default":
            return
        mode = _DTYPE_MODE.get(found[1].strip().lower().removeprefix("torch."))
        if mode is None:
            return
        handed = _DTYPE_HANDED.search(self.script.source.text)
        if handed is None:
            return
        line = self.script.source.text.count("\n", 0, handed.start()) + 1
        source = found[2]
        detail = (f"{source.detail or found[0]}: {found[1]}, handed to the model's load "
                  f"({self.script.source.display}:{line} {handed.group(0).strip()}): {mode} weights")
        src = Source(source.kind, source.path, source.line, source.key, detail)
        self.add("precision.weights_bits", 16, src, found[3])
        self.adapter.add_checked(self.plan, "precision.mode", mode, src, "low", -1)

    def trl_packing(self) -> None:
        """``packing: True`` of a TRL SFTConfig (the launch line or the parser's file): SFTTrainer packs
        the samples into rows of ``max_length`` tokens (SmallDoges/small-doge @ 0e305a7
        ``recipes/doge/Doge-160M-Instruct/sft/config_full.yaml:28``). The default (False) is not
        claimed: the collator then decides."""
        if not any(o.library == "SFTConfig" for o in self.decl.options.values()):
            return
        found = self.value("packing")
        if found is None or found[2].kind == "default" or _as_bool(found[1]) is not True:
            return
        source = found[2]
        self.add("data.padding", "packed", Source(source.kind, source.path, source.line, source.key,
                                                  f"{source.detail or 'packing'}: SFTTrainer packs the samples "
                                                  "into rows of max_length tokens"), found[3])


    def trl_legacy_sft_keywords(self) -> None:
        """``SFTTrainer(..., max_seq_length=N, packing=True)``: keywords TRL's SFTTrainer took itself
        before they moved to SFTConfig (trl v0.7.4 sft_trainer.py ``__init__(max_seq_length, packing)``;
        yyDing1/ScaleQuest @ 74c12c2 qft_train/train.py:148-158 passes ``max_seq_length=
        script_args.max_length, packing=True``). A script that passes them runs a TRL that accepts
        them: rows are ``max_seq_length`` tokens, packed when ``packing`` is True. Read only when the
        value is a literal or a parser option whose value is known (line, file, default); not with
        ``dataset_kwargs={"skip_prepare_dataset": True}`` (the script tokenizes itself and TRL
        neither packs nor cuts; public SFT scripts that pair it with a collator of their own)."""
        tree = self.script.tree
        if tree is None or "SFTTrainer" not in self.script.source.text:
            return
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name != "SFTTrainer" or _skips_preparation(node):
                continue
            for kw in node.keywords:
                if kw.arg not in ("max_seq_length", "packing"):
                    continue
                got = self._legacy_keyword(kw.value, node.lineno)
                if got is None:
                    continue
                value, source, conf = got
                where = f"SFTTrainer({kw.arg}=...) ({self.script.source.display}:{node.lineno})"
                detail = f"{source.detail}; {where}" if source.detail else where
                if kw.arg == "max_seq_length":
                    seq = _as_int(value)
                    if seq is not None and seq > 0:
                        self.add("data.seq_len", seq, Source(source.kind, source.path, source.line, source.key,
                                                             f"{detail}: rows of max_seq_length tokens"), conf)
                elif _as_bool(value) is True:
                    self.add("data.padding", "packed", Source(source.kind, source.path, source.line, source.key,
                                                              f"{detail}: SFTTrainer packs the samples into rows "
                                                              "of max_seq_length tokens"), conf)

    def _legacy_keyword(self, expr: ast.expr, line: int) -> Optional[tuple[Any, Source, str]]:
        if isinstance(expr, ast.Constant) and isinstance(expr.value, (bool, int)):
            return expr.value, Source("code", self.script.source.display, line, None, None), "high"
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.attr in self.decl.options:
            found = self.value(expr.attr)
            if found is not None:
                return found[1], found[2], found[3]
        return None

    def trl_truncation(self) -> None:
        """``data.truncation`` cut for a TRL SFTConfig that does not pack: SFTTrainer cuts each sample to
        ``max_length`` (trl v0.19.0 sft_trainer.py:789-792 ``truncate_dataset``; ``max_seq_length`` and
        ``truncation=True`` in v0.7.4, :352). Packed rows are not claimed."""
        if not any(o.library == "SFTConfig" for o in self.decl.options.values()):
            return
        packing = self.value("packing")
        found = self.value("max_length", "max_seq_length")
        if (packing is not None and _as_bool(packing[1]) is not False) or found is None or _as_int(found[1]) is None:
            return
        source = found[2]
        self.add("data.truncation", "cut", Source(source.kind, source.path, source.line, source.key,
                                                  f"{source.detail or found[0]}: SFTTrainer cuts each sample to "
                                                  f"{found[0]}"), "medium")


def _skips_preparation(call: ast.Call) -> bool:
    """``SFTTrainer(..., dataset_kwargs={"skip_prepare_dataset": True})``, or a dataset_kwargs not
    known statically: TRL's own packing and truncation may not run."""
    for kw in call.keywords:
        if kw.arg is None:
            return True  # **kwargs: keys not known
        if kw.arg != "dataset_kwargs":
            continue
        if not isinstance(kw.value, ast.Dict):
            return True
        for key, value in zip(kw.value.keys, kw.value.values):
            if isinstance(key, ast.Constant) and key.value == "skip_prepare_dataset" and not (
                    isinstance(value, ast.Constant) and value.value is False):
                return True
    return False


_DTYPE_MODE = {"bfloat16": "bf16", "bf16": "bf16", "float16": "fp16", "fp16": "fp16", "half": "fp16"}
# ``torch_dtype=torch_dtype``, ``torch_dtype=model_args.torch_dtype``, ``getattr(torch, model_args.torch_dtype)``:
# only transformers' ``torch_dtype`` keyword: a bare ``dtype=dtype`` is as often an autocast's or an evaluation
# helper's (apple/ml-4m run_training_4m_fsdp.py:615 ``evaluate(..., dtype=dtype)``, lifeiteng/vall-e
# bin/trainer.py:659 ``torch.cuda.amp.autocast(dtype=dtype, ...)``: autocast, not bf16 weights)
_DTYPE_HANDED = re.compile(r"\btorch_dtype\s*=\s*(?:torch_dtype|[A-Za-z_]\w*\.torch_dtype)\b"
                           r"|getattr\(\s*torch\s*,\s*[A-Za-z_]\w*\.torch_dtype\s*\)")

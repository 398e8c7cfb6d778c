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

import re
from typing import Any, Callable, Optional

from preflight.adapters.cliargs_model import _ModelPass
from preflight.adapters.cliargs_options import (
    _DECLARES,
)
from preflight.adapters.cliargs_pass import (
    _ACCUM,
    _ATTN,
    _ATTN_VALUES,
    _CKPT,
    _CKPT_HANDED,
    _IMAGE,
    _MICRO,
    _SEQ,
    _as_bool,
    _as_float,
    _as_int,
    _image_side,
)

from preflight.adapters_api import Adapter, Project
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter
from preflight.script_index import Resolved
from preflight.sources import ParsedPython


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
            state["pass"] = _Pass(None, project, None, script)  # values only: no adapter, no plan
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
                # an attribute a loop sets from a Python config file (cliargs_pyconfig_attrs.py): read by its
                # shape, never above medium
                cap = "medium" if name not in p.decl.options and name in p.config_attrs else None
                out = Resolved(value, "cli", None, source.key or f"--{name}", (source.detail or name) + where, cap=cap)
        state[name] = out
        return out

    def none_default(name: str) -> bool:
        """The option is declared with ``default=None`` and given nowhere (neither the launch line nor a file
        of options): argparse leaves it ``None`` (preflight/registry_pick.py reads it as a table key)."""
        lookup(name)
        p = state["pass"]
        opt = p.decl.options.get(name)
        return opt is not None and opt.origin == "argparse" and opt.has_default and opt.explicit \
            and opt.default is None and name not in p.cli and name not in p.file_values and not p.opaque

    lookup.none_default = none_default  # type: ignore[attr-defined]
    return lookup



# ``TrainingArguments(..., optim=script_args.optim, ...)``: the option handed to the Trainer's own arguments
_HANDS_OPTIM = re.compile(r"\bTrainingArguments\((?:[^()]|\([^()]*\))*\boptim\s*=\s*\w+\.optim\b")


# a length option documented as the generation's: "The maximum length of the sequence to be generated."
_GENERATED = re.compile(r"\bgenerat(e|ed|ion)\b", re.I)


class _Pass(_ModelPass):
    def run(self) -> None:
        self.side_effects()
        self.single_process()
        if not self.decl.options:
            return
        self.model()
        for names, target in ((_MICRO, "batch.micro"), (_ACCUM, "batch.grad_accum"), (_SEQ, "data.seq_len"),
                              (_IMAGE, "data.image_size")):
            found = self.value(*names)
            if found is not None and target == "data.seq_len" and self.script.tree is not None:
                from preflight.adapters.cliargs_dead_reads import only_dead_reads

                left = list(names)
                while found is not None and only_dead_reads(self.script.tree, found[0]):
                    left.remove(found[0])  # read only by closures never called (cliargs_dead_reads.py)
                    found = self.value(*left) if left else None
            if found is None:
                continue
            name, value, source, conf = found
            number = _as_int(value)
            if target == "data.seq_len" and name in ("max_length",) and not self._trl() \
                    and self.decl.options[name].library != "TrainingArguments":
                continue  # max_length of a TrainingArguments subclass (SimPOConfig) is the training length
            if target == "data.seq_len" and _GENERATED.search(self.decl.options[name].help or ""):
                continue  # documented as the length of generated text (LOMO src/arguments.py:41), not training's
            if number is None and target == "data.image_size":
                number = _image_side(value)
            if number is not None and number >= 1:
                self.add(target, number, source, conf)
        from preflight.adapters.cliargs_truncation import truncation_length

        truncation_length(self, _GENERATED, _as_int)
        self.update_freq()
        found = self.value(*_CKPT)
        if found is None and _CKPT_HANDED.search("\n".join([self.script.source.text, *self.decl.texts])):
            # ``--use_checkpoint`` handed to the model as ``use_checkpoint=args.use_checkpoint`` (timm/Swin/BEiT
            # models' activation checkpointing switch; MCG-NJU/VideoMAE run_class_finetuning.py:133,314)
            found = self.value("use_checkpoint")
        if found is not None and found[2].kind == "default" and _as_bool(found[1]) is False:
            from preflight.adapters.cliargs_help import enabled_in_project

            if enabled_in_project(self):
                found = None  # the library's default False, while the project's code turns it on itself
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
        elif found is not None and isinstance(found[1], str) and found[1] \
                and self.decl.options["optim"].origin == "dataclass" and _HANDS_OPTIM.search(self.script.source.text):
            # a script dataclass's ``optim`` default copied by hand into the TrainingArguments the Trainer
            # builds its optimizer from (the TRL example scripts' ``ScriptArguments``; RLHFlow/RLHF-Reward-Modeling
            # @ fc39179 bradley-terry-rm/gemma_2B_rm.py:82-84 ``default="paged_adamw_32bit"`` -> :173
            # ``optim=script_args.optim``)
            self.add("optimizer.name", found[1], found[2], found[3])
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
        from preflight.adapters.submitit_tasks import read as submitit_read

        submitit_read(self)
        self.global_batch_by_help()
        self.accum_by_help()
        if self.value(*_MICRO) is None:
            from preflight.adapters.cliargs_help import micro_by_help

            micro_by_help(self, _as_int)

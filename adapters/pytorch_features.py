"""Features, PEFT, the task, allocator settings, collators and shapes of a raw-PyTorch script.

Part of the raw-PyTorch adapter (:mod:`preflight.adapters.pytorch`), split by concern."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.compile_helpers import module_compile_args
from preflight.adapters.loop_shapes import loralib
from preflight.adapters.pytorch_pass import (
    _CROP,
    _FSDP_CTORS,
    _PADDING_COLLATORS,
    _SEQ_NAMES,
    _method,
    _starts_cuda,
)
from preflight.adapters.pytorch_precision import _PrecisionPass
from preflight.adapters.seq_slice import dropped_tokens

from preflight.adapters_api import CallSite, Resolved
from preflight.analysis.syntax import dotted_name
from preflight.plan import Source


class _FeaturePass(_PrecisionPass):
    def features(self) -> None:
        self.implementation()
        self.load_placement()
        self.checkpointing_off()
        self.checkpointing_attribute()
        self.compile_off()
        for site in self.calls:
            name = site.name or ""
            q = site.qualified or ""
            if self.idx.runs(site) is False:
                # under an `if` decided false (openvla/openvla vla-scripts/finetune.py:167-168
                # `if cfg.use_quantization: prepare_model_for_kbit_training(vla)`, option false): never runs
                continue
            if _method(site) in ("gradient_checkpointing_enable", "_set_gradient_checkpointing"):
                # `_set_gradient_checkpointing()`: transformers' own switch, which
                # gradient_checkpointing_enable() calls (OpenGVLab/InternVL internvl_chat_finetune.py:979)
                self.add("memory.gradient_checkpointing", True,
                         self.src(site.call, f"{site.label}()"), self.conf(site))
            elif q in ("torch.utils.checkpoint.checkpoint", "torch.utils.checkpoint.checkpoint_sequential") or (
                    q.startswith("torch.distributed.") and q.endswith("apply_activation_checkpointing")):
                self.add("memory.gradient_checkpointing", True, self.src(site.call, f"{q}(...)"), self.conf(site))
            elif q.endswith("prepare_model_for_kbit_training") and q.startswith("peft"):
                flag = self.value(site.kwarg("use_gradient_checkpointing"))
                if flag is None and site.kwarg("use_gradient_checkpointing") is not None:
                    continue
                if flag is None or flag.value is True:
                    self.add("memory.gradient_checkpointing", True,
                             self.src(site.call, "prepare_model_for_kbit_training(): use_gradient_checkpointing "
                                      "defaults to True"), self.conf(site))
            elif q == "torch.compile" or (name.endswith(".compile") and self.is_model_receiver(site)
                                          and module_compile_args(site.call)):
                taken = self.trainer_took_it_before(site) if q == "torch.compile" else None
                if taken is not None:
                    self.adapter.note(self.plan, f"{self.src(site.call).location()}: {site.label}(...) rebinds "
                                      f"{site.target} after {taken} took the module; the trainer runs it "
                                      "uncompiled (not read as compile)")
                    continue
                self.add("compile.enabled", True, self.src(site.call, f"{site.label}(...)"), self.conf(site))
                self.compile_scope(site)
            elif (q.split(".")[-1] or name.split(".")[-1]) in _FSDP_CTORS and site.kwarg("limit_all_gathers") is not None:
                # FSDP1's rate limiter, as the job passes it (torch's default was False before 2.1)
                flag = self.value(site.kwarg("limit_all_gathers"))
                if flag is not None and isinstance(flag.value, bool):
                    self.add("dist.fsdp_limit_all_gathers", flag.value,
                             self.src(site.call, f"{site.label}(limit_all_gathers={flag.value})"),
                             self.conf(site))
            elif _method(site) in ("no_sync", "no_backward_sync"):
                # gradient accumulation without the sync: under FSDP every unit keeps its
                # unsharded gradient until the sync step (Fabric: no_backward_sync(model,
                # enabled=...); an explicit enabled=False turns it off)
                enabled = self.value(site.kwarg("enabled"))
                if enabled is not None and enabled.value is False:
                    continue
                self.add("dist.fsdp_unsharded_grad_accum", True,
                         self.src(site.call, f"{site.label}(...): gradients accumulate without the sync"),
                         self.conf(site))

    def checkpointing_attribute(self) -> None:
        """``model.transformer.gradient_checkpointing = True``: the flag that transformers' (and diffusers')
        ``gradient_checkpointing_enable()`` sets on the backbone, set by hand on a loaded model
        (OpenLMLab/MOSS finetune_moss.py:182 @ c810e0b, after ``AutoModelForCausalLM.from_pretrained``;
        the same line in MOSS's forks, ``base_lm.transformer.gradient_checkpointing = True`` on a GPT-2,
        ``model.model.gradient_checkpointing = True`` on a Llama). Only an unconditional statement of the
        module or of a top-level function, whose target is an attribute chain of at least two parts on a
        model's name (not ``self``, not a config or options object) and whose value is the constant True;
        medium (the forward honours the flag only in training mode)."""
        tree = self.script.tree
        if not isinstance(tree, ast.Module):
            return
        bodies = [tree.body] + [n.body for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        for body in bodies:
            for stmt in body:
                if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                        and isinstance(stmt.value, ast.Constant) and stmt.value.value is True):
                    continue
                target = stmt.targets[0]
                if not (isinstance(target, ast.Attribute) and target.attr == "gradient_checkpointing"
                        and isinstance(target.value, ast.Attribute)):
                    continue
                text = dotted_name(target.value) or ""
                parts = text.split(".")
                root = parts[0] if parts else ""
                if not root or root == "self" or any(p.lower() in ("config", "args", "cfg", "opt", "hparams")
                                                     or p.lower().endswith("config") for p in parts):
                    continue
                if root in self.model_names or "model" in root.lower():
                    self.add("memory.gradient_checkpointing", True,
                             self.src(stmt, f"{text}.gradient_checkpointing = True: the backbone's checkpointing "
                                      "flag set by hand"), "medium")
                    return

    def compile_scope(self, site: CallSite) -> None:
        """``compile.loss_inside``: whether the loss runs inside the compiled region. True when
        what ``torch.compile`` takes is a loss (``torch.compile(loss_fn)``,
        ``torch.compile(nn.CrossEntropyLoss())``, ``torch.compile(F.cross_entropy)``); False
        when a model is compiled and the script computes a cross-entropy itself outside any
        module's ``forward`` (``model = torch.compile(model)`` then ``F.cross_entropy(logits,
        targets)``: the loss runs eagerly on the logits the compiled model returns; medium, a
        loss on another output cannot be told apart). Nothing otherwise (a model that returns
        its own loss is :meth:`model_computes_loss`; when both are found: unknown)."""
        if "compile.loss_inside" in self.plan_fields():
            arg = site.arg(0, "model")
            target = arg.func if isinstance(arg, ast.Call) else arg
            text = (dotted_name(target) if target is not None else None) or ""
            if site.qualified == "torch.compile" and re.search(r"loss|cross_entropy", text, re.I):
                self.add("compile.loss_inside", True,
                         self.src(site.call, f"{site.label}({text}): the loss is compiled"), self.conf(site))
                return
            if site.qualified != "torch.compile" and not self.is_model_receiver(site):
                return
            if site.qualified == "torch.compile" and arg is not None and not self.is_model_arg(arg):
                return
            inside = self.model_computes_loss(site)
            for other in self.calls:
                q = other.qualified or ""
                if q not in ("torch.nn.functional.cross_entropy", "torch.nn.CrossEntropyLoss"):
                    continue
                if other.klass is not None and other.function == "forward":
                    continue   # the model's own loss, inside what is compiled
                if inside is not None:
                    self.adapter.note(self.plan, f"{self.src(site.call).location()}: the compiled model computes "
                                      f"its own loss and {other.label}(...) at line {other.line} computes one "
                                      "outside it: where the LM loss runs is not read")
                    return
                self.add("compile.loss_inside", False,
                         self.src(other.call, f"{other.label}(...) computes the loss outside the "
                                  f"compiled model ({site.label} at line {site.line}): eager"), "medium")
                return
            if inside is not None:
                call, why = inside
                self.add("compile.loss_inside", True, self.src(call.call, why), "medium")

    def model_computes_loss(self, site: CallSite) -> Optional[tuple[CallSite, str]]:
        """The compiled model is called with its targets and computes the loss in its own
        ``forward`` (nanoGPT: ``model = torch.compile(model)``, ``logits, loss = model(X, Y)``,
        ``GPT.forward`` ends in ``F.cross_entropy``; a transformers model called with
        ``labels=``): the call and why. adapters/compile_loss.py."""
        from preflight.adapters.compile_loss import called_with_targets, model_class_loss

        if site.qualified == "torch.compile":
            arg = site.arg(0, "model")
            built, called = dotted_name(arg) if arg is not None else None, site.target
        else:
            func = site.call.func
            built = called = dotted_name(func.value) if isinstance(func, ast.Attribute) else None
        if not built or not called:
            return None
        call = called_with_targets(self.calls, called)
        if call is None:
            return None
        root = Path(str(self.project.root)) if self.project.root else None
        found = model_class_loss(self.idx, self.calls, built, root)
        if found is None:
            return None
        what, where = found
        return call, (f"{call.label}(...) passes the targets to the compiled model ({site.label} at line "
                      f"{site.line}); {what} ({where}): the loss is compiled with it")

    def is_model_arg(self, arg: ast.expr) -> bool:
        """The expression ``torch.compile`` takes names a model (not a function or a loss)."""
        text = dotted_name(arg) or ""
        last = text.rsplit(".", 1)[-1].lower()
        return text in self.model_names or "model" in last or last in ("net", "network")

    @staticmethod
    def plan_fields() -> Any:
        from preflight.plan import FIELDS

        return FIELDS

    def peft_and_task(self) -> None:
        from preflight.adapters.caller_guards import callers_run

        peft_found = False
        for site in self.calls:
            if site.last != "LoraConfig" or "LoraConfig" in self.idx.classes:
                continue
            called = callers_run(self.idx, site)  # a helper called only under a guard (olmocr prepare_lora_model)
            if called is False:
                continue
            peft_found = peft_found or called is True
            conf = self.conf(site) if called else "low"  # built only if an option not read here says so
            dora = self.value(site.kwarg("use_dora"))
            method = "dora" if dora is not None and dora.value is True else "lora"
            self.add("peft.method", method, self.src(site.call, f"{site.label}(...)"), conf)
            rank = site.kwarg("r")
            splat = [k.value for k in site.call.keywords if k.arg is None]
            if rank is None and splat:
                # ``LoraConfig(**lora_config)`` (volcengine/verl fsdp_sft_trainer.py:276-284): the
                # dict literal bound once gives ``r``, or its default; any other mapping: unknown
                bound = [self.idx.assigns.get(s.id, []) if isinstance(s, ast.Name) else [] for s in splat]
                if len(splat) != 1 or len(bound[0]) != 1 or not isinstance(bound[0][0], ast.Dict) \
                        or None in bound[0][0].keys:
                    continue
                given = {k.value: v for k, v in zip(bound[0][0].keys, bound[0][0].values) if isinstance(k, ast.Constant)}
                rank = given.get("r")
                if rank is None and "r" not in given:
                    self.add("peft.rank", 8, self.src(site.call, "LoraConfig default r=8 (not in the dict given)",
                                                      "default"), conf)
                    continue
            if rank is None:
                self.add("peft.rank", 8, self.src(site.call, "LoraConfig default r=8", "default"), conf)
            else:
                resolved = self.value(rank)
                if resolved is not None:
                    self.put("peft.rank", resolved, site, "LoraConfig(r=...)", conf)
            targets = self.value(site.kwarg("target_modules"))
            if targets is not None and isinstance(targets.value, list):
                self.put("peft.target_modules", targets, site, "LoraConfig(target_modules=...)", conf)
        if any(s.last == "get_peft_model" and callers_run(self.idx, s) for s in self.calls):
            peft_found = True
        peft_found = loralib(self) or peft_found
        self.task(peft_found)

    def _hf_trainer_subclasses(self) -> set[str]:
        """Classes of this file that subclass a transformers/TRL ``*Trainer`` (directly or through
        another class of the file)."""
        found: set[str] = set()
        for _ in range(3):
            for name, node in self.idx.classes.items():
                for base in node.bases:
                    dotted = dotted_name(base) or ""
                    qualified = self.idx.qualify(dotted) or dotted
                    if dotted in found or (qualified.startswith(("transformers.", "trl."))
                                           and qualified.endswith("Trainer")):
                        found.add(name)
        return found

    def task(self, peft_found: bool) -> None:
        trainers = {s.target for s in self.calls if s.target and s.last and s.last.endswith("Trainer")}
        hf_trainers = {s.target for s in self.calls if s.target in trainers
                       and (s.qualified or "").startswith(("transformers.", "trl."))}
        train_site: Optional[CallSite] = None
        generate: list[CallSite] = []
        hf_subclasses = self._hf_trainer_subclasses()
        for site in self.calls:
            method = _method(site)
            if site.klass in hf_subclasses and method in ("backward", "step"):
                # a `training_step`/`compute_loss` override of a transformers/TRL Trainer subclass:
                # the Trainer owns the loop, the transformers adapter says what it trains
                continue
            receiver = dotted_name(site.call.func.value) if isinstance(site.call.func, ast.Attribute) else None
            if method == "backward" or (receiver in trainers and method in ("train", "fit")) \
                    or (receiver in self.optimizer_names and method == "step") \
                    or site.qualified == "torch.autograd.backward":
                train_site = train_site or site
            elif method == "generate":
                generate.append(site)
        for site in generate:
            conf = self.conf(site)
            for kw, field in (("max_new_tokens", "generation.max_new_tokens"), ("num_beams", "generation.num_beams"),
                              ("use_cache", "generation.use_cache")):
                resolved = self.value(site.kwarg(kw))
                if resolved is not None:
                    self.put(field, resolved, site, f"{site.label}({kw}=...)", conf)
        owner = dotted_name(train_site.call.func.value) if train_site is not None \
            and isinstance(train_site.call.func, ast.Attribute) else None
        if train_site is not None and owner in hf_trainers and not peft_found:
            pass  # a transformers/TRL Trainer's loop: the transformers adapter says what it trains
        elif train_site is not None:
            conf = self.conf(train_site)
            if peft_found:
                mode = "qlora" if self.weights_bits == 4 else "lora"
                # lora/qlora is no surer than the facts it rests on
                conf = self.plan.capped(conf, "peft.method", *(("precision.weights_bits",) if mode == "qlora" else ()))
            else:
                mode = "finetune" if self.pretrained else "train"
            detail = f"{train_site.label}(...): the script trains"
            if not peft_found and self.names_peft():
                # LoRA named here or in a local module, but not built where it can be read: it may train
                # adapters only, so the mode is not known (a full-training guess was wrong in every real job
                # of the benchmark that had this shape: mistral-finetune, moshi, sd-scripts, VideoChat2)
                self.adapter.note(self.plan, f"{detail}; LoRA/PEFT is named in the script or a local module it "
                                             "imports, not read: whether it trains adapters only is not known")
            else:
                self.add("task.mode", mode, self.src(train_site.call, detail), conf)
            if owner not in hf_trainers:  # LoRA found is named: only checkpointing can be absent
                from preflight.adapters.pytorch_local import absent_in_loop

                absent_in_loop(self.adapter, self.plan, self.project, self.script, train_site.call)
        elif generate:
            site = generate[0]
            self.add("task.mode", "generation", self.src(site.call, f"{site.label}(...) and no backward pass"),
                     self.conf(site))
        elif self.model_names and "training_step" not in self.idx.functions and any(
                self._inference_site(s) for s in self.calls):
            # a file that defines ``training_step`` is a module trained by a Trainer elsewhere; and
            # ``self.backbone.eval()`` freezes a submodule of a model being built, it does not make
            # the job an inference job
            site = next(s for s in self.calls if self._inference_site(s))
            self.add("task.mode", "inference", self.src(site.call, "no backward pass; model run under no_grad/eval"),
                     "medium")

    @staticmethod
    def _inference_site(site: CallSite) -> bool:
        if site.qualified in ("torch.no_grad", "torch.inference_mode"):
            return True
        return (site.name or "").endswith(".eval") and not (site.name or "").startswith("self.")

    def names_peft(self) -> bool:
        from preflight.adapters.pytorch_local import names_peft

        path = self.script.source.path
        root = Path(str(self.project.root)) if self.project.root else None
        # the root too: a package beside the script's folder (VideoChat2 tasks/train_it.py `from models
        # import *`, the LoRA in models/videochat_mistra/, OpenGVLab/Ask-Anything @ 4dd8210)
        return names_peft(self.script.source.text, self.script.tree, Path(str(path)) if path else None, root)

    def tokenizer_names(self) -> set[str]:
        """Names bound to a tokenizer by how it is built (``AutoTokenizer.from_pretrained``, a
        ``*Tokenizer*``/``*Processor`` class), whatever the variable is called."""
        names: set[str] = set()
        for name, values in self.idx.assigns.items():
            for value in values:
                call = value if isinstance(value, ast.Call) else None
                func = dotted_name(call.func) if call is not None else None
                if func and any(part.endswith(("Tokenizer", "TokenizerFast", "Processor"))
                                for part in func.split(".")):
                    names.add(name)
        return names

    def allocator_config(self) -> None:
        """``memory.expandable_segments`` from ``os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "..."``
        (or ``os.environ.setdefault(...)``) in the script: torch reads the variable when CUDA's
        allocator first initialises, so a script that sets it before any CUDA tensor decides it.
        Only a literal string is read; ``expandable_segments:True`` gives True, ``:False`` False.
        An assignment after a call that starts CUDA (any ``torch.cuda.*`` call but
        ``is_available``/``device_count``/``empty_cache``, or ``.cuda()``) is not read: the
        allocator may have read the variable by then."""
        tree = self.script.tree
        if tree is None:
            return
        started = [(n.lineno, n.col_offset) for n in ast.walk(tree) if isinstance(n, ast.Call)
                   and _starts_cuda(dotted_name(n.func) or "")]
        for node in ast.walk(tree):
            value: Optional[ast.AST] = None
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if (isinstance(target, ast.Subscript) and dotted_name(target.value) == "os.environ"
                        and isinstance(target.slice, ast.Constant)
                        and target.slice.value == "PYTORCH_CUDA_ALLOC_CONF"):
                    value = node.value
            elif (isinstance(node, ast.Call) and dotted_name(node.func) == "os.environ.setdefault"
                  and len(node.args) == 2 and isinstance(node.args[0], ast.Constant)
                  and node.args[0].value == "PYTORCH_CUDA_ALLOC_CONF"):
                value = node.args[1]
            if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
                continue
            options = dict(part.split(":", 1) for part in value.value.replace(" ", "").split(",")
                           if ":" in part)
            flag = options.get("expandable_segments", "").lower()
            where = (value.lineno, value.col_offset)
            if flag in ("true", "false") and not any(at < where for at in started):
                self.put("memory.expandable_segments", Resolved(flag == "true", "code", value.lineno),
                         None, f"PYTORCH_CUDA_ALLOC_CONF={value.value!r}", "high")
                return

    def _padding_arm(self, site: CallSite, padding: object) -> bool:
        """Whether a tokenizer call's ``padding=`` is the job's: not when the call's branch is not
        taken, nor when its branch is undecided and the other arm of the same ``if`` tokenizes with
        another padding (bigcode-project/octopack ``finetuning/santacoder/finetune.py:80-121`` @
        e17a8f6: ``if args.data_packing and is_train:`` packs with ``padding=False``, the ``else``
        pads to ``"max_length"``; the launch passes ``--data_packing`` and ``is_train`` is a parameter)."""
        runs = self.idx.runs(site)
        if runs is not None:
            return runs
        arms = {id(test): body for test, body in site.guards}
        for other in self.calls:
            if other is site or other.kwarg("max_length") is None or not any(
                    arms.get(id(test)) is (not body) for test, body in other.guards):
                continue
            theirs = self.value(other.kwarg("padding")) if other.kwarg("padding") is not None else None
            if theirs is None or theirs.value != padding:
                self.adapter.note(self.plan, f"{self.script.source.display}:{site.line}: {site.label}(padding="
                                             f"{padding!r}) is one arm of an `if` not decided statically; the other "
                                             f"(line {other.line}) tokenizes otherwise: the padding is not known")
                return False
        return True

    def _unbounded_padding(self, site: CallSite, name: str) -> bool:
        """``data.padding`` of a tokenizer call whose ``max_length`` is not a known integer (lm-sys/FastChat
        ``fastchat/train/train.py`` ``preprocess``: ``tokenizer(conversations, padding="max_length",
        max_length=tokenizer.model_max_length, truncation=True)``): ``"max_length"`` pads every row to that
        length, ``True``/``"longest"`` to the batch's longest, whatever the length is. Only a padding read as a
        value, in a branch that runs (:meth:`_padding_arm`), of a call that passes ``max_length=``."""
        if site.kwarg("padding") is None or site.kwarg("max_length") is None:
            return False  # (a call with no max_length at all, a prompt tokenized for generation, says nothing)
        padding = self.value(site.kwarg("padding"))
        if padding is None or padding.value not in ("max_length", True, "longest") \
                or not self._padding_arm(site, padding.value):
            return False
        how = "max_length" if padding.value == "max_length" else "dynamic"
        self.put("data.padding", Resolved(how, padding.kind, padding.line, padding.key, padding.detail),
                 site, f"{name}(padding={padding.value!r}, max_length not known statically)", "high")
        return True

    def collator_padding(self) -> None:
        """``data.padding`` from a transformers padding collator: the batch's longest sample
        (``padding=True``, its default, or ``"longest"``) or ``"max_length"``."""
        for site in self.calls:
            if site.last not in _PADDING_COLLATORS:
                continue
            padding = self.value(site.kwarg("padding"))
            value = True if padding is None else padding.value
            if not isinstance(value, (bool, str)):
                continue
            how = {True: "dynamic", "longest": "dynamic", "max_length": "max_length"}.get(value)
            if how is None:
                continue
            if how == "dynamic":
                from preflight.adapters.saved_padding import saved_padding

                # rows read back with load_from_disk, padded to max_length when they were saved
                # (adapters/saved_padding.py): the collator has nothing to pad
                saved = saved_padding(self.project, self.script)
                if saved is not None:
                    self.add("data.padding", "max_length", Source(
                        "code", saved[0], saved[1], "padding",
                        f"the rows are read with load_from_disk, saved by {saved[0]} after tokenizing with "
                        f"padding='max_length' (line {saved[1]}); {site.label}(...) pads to the batch's longest, "
                        "which is that length"), "medium")
                    return
            resolved = (Resolved(how, "code", site.line) if padding is None
                        else Resolved(how, padding.kind, padding.line, padding.key, padding.detail))
            self.put("data.padding", resolved, site, f"{site.label}(padding={value!r})",
                     "medium" if padding is None else "high")
            return

    def shapes(self) -> None:
        seq_found = False
        padded = armed = False
        tokenizers = self.tokenizer_names()
        split = next((s for s in self.calls if s.kwarg("text_target") is not None), None)
        if split is not None:
            # source and target truncated separately (THUDM/ChatGLM-6B ptuning/main.py:176-177,
            # max_source_length and max_target_length): no one tokenizer call bounds the sequence
            self.adapter.note(self.plan, f"{self.script.source.display}:{split.line}: {split.label}(text_target=...): "
                                         "source and target are truncated separately; no one tokenizer max_length "
                                         "is the sequence length")
            tokenizers = set()
        targets = _target_tokenizer_calls(getattr(self.script, "tree", None))
        from preflight.adapters.cliargs_dead_reads import dead_nodes

        # a tokenizer call in a closure the script never calls cuts no training sample (FastLoRAChat's
        # ``tokenize``: adapters/cliargs_dead_reads.py)
        targets |= dead_nodes(getattr(self.script, "tree", None))
        for site in self.calls:
            if split is not None:
                break
            if id(site.call) in targets:
                # labels tokenized under `with tokenizer.as_target_tokenizer():` (transformers' run_seq2seq.py
                # before 4.22): the target length, not the length of the sequences the model reads
                continue
            name = site.name or ""
            owner, _, method = name.rpartition(".")
            built = name in tokenizers or (owner in tokenizers and method in (
                "encode", "encode_plus", "batch_encode_plus", "__call__", "apply_chat_template"))
            if (built or "tokenizer" in name.lower()) and not name.endswith("from_pretrained"):
                resolved = self.value(site.kwarg("max_length"))
                if resolved is None or not isinstance(resolved.value, int):
                    # the length not known statically (``max_length=tokenizer.model_max_length``, FastChat's
                    # ``train.py`` preprocess): the padding still is, whatever the length
                    if self._unbounded_padding(site, name):
                        padded = True
                    continue
                padding = self.value(site.kwarg("padding"))
                fixed = padding is not None and padding.value == "max_length"
                seq_found = True
                cut = dropped_tokens(getattr(self.script, "tree", None), site.call, site.target)
                if cut and isinstance(resolved.value, int) and resolved.value > cut:
                    # `result["input_ids"][:-1]` after max_length=CUTOFF_LEN + 1 (adapters/seq_slice.py)
                    said = f"{site.target}['input_ids'] drops {cut} token(s) of max_length {resolved.value}"
                    resolved = Resolved(resolved.value - cut, resolved.kind, resolved.line, resolved.key,
                                        f"{resolved.detail}; {said}" if resolved.detail else said, resolved.cap)
                self.put("data.seq_len", resolved, site, f"{name}(max_length=...)"
                         + ("" if fixed else ": an upper bound"), "high" if fixed else "medium")
                arm = padding is None or padding.value not in ("max_length", True, "longest") \
                    or self._padding_arm(site, padding.value)
                armed = armed or not arm
                if padding is not None and padding.value in ("max_length", True, "longest") and arm:
                    how = "max_length" if fixed else "dynamic"
                    padded = True
                    self.put("data.padding", Resolved(how, padding.kind, padding.line, padding.key,
                                                      padding.detail),
                             site, f"{name}(padding={padding.value!r})", "high")
        if not padded and not armed:  # (rows padded or packed in an undecided arm: a collator pads nothing)
            self.collator_padding()
        if not seq_found:
            for var in _SEQ_NAMES:
                resolved = self.idx.argument(var) or self.value(ast.Name(id=var, ctx=ast.Load()))
                if resolved is not None and isinstance(resolved.value, int) and not isinstance(resolved.value, bool):
                    self.put("data.seq_len", resolved, None, f"{var} = {resolved.value}", "low")
                    break
        from preflight.adapters.encoder_transforms import encoder_calls

        # a CLIP/conditioning encoder's own preprocessing is not the training images' size
        sized = [s for s in self.calls if (s.qualified or "").startswith("torchvision.transforms")
                 and id(s.call) not in encoder_calls(s.script.tree)]
        crops = [s for s in sized if s.last in _CROP]
        resizes = [s for s in sized if s.last == "Resize"]
        for site in (crops or resizes)[:1]:
            resolved = self.value(site.arg(0, "size"))
            if resolved is None:
                continue
            size = resolved.value
            if isinstance(size, list) and len(size) == 2 and size[0] == size[1]:
                size = size[0]
            if isinstance(size, int) and not isinstance(size, bool):
                self.put("data.image_size", Resolved(size, resolved.kind, resolved.line, resolved.key, resolved.detail),
                         site, f"{site.label}({size})", "medium")
        if not (crops or resizes):
            from preflight.adapters.dataset_image_param import dataset_image_size

            dataset_image_size(self)  # ``MultiResolutionDataset(path, transform, args.size)``


def _target_tokenizer_calls(tree: object) -> set[int]:
    """The calls inside ``with tokenizer.as_target_tokenizer():`` blocks (the labels of a seq2seq job)."""
    out: set[int] = set()
    if not isinstance(tree, ast.AST):
        return out
    for node in ast.walk(tree):
        if isinstance(node, (ast.With, ast.AsyncWith)) and any(
                isinstance(item.context_expr, ast.Call) and isinstance(item.context_expr.func, ast.Attribute)
                and item.context_expr.func.attr == "as_target_tokenizer" for item in node.items):
            out.update(id(sub) for stmt in node.body for sub in ast.walk(stmt) if isinstance(sub, ast.Call))
    return out

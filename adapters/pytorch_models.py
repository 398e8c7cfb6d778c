"""The model a raw-PyTorch script trains: hub loads, local modules, checkpoints, quantization.

Part of the raw-PyTorch adapter (:mod:`preflight.adapters.pytorch`), split by concern."""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters.pytorch_pass import (
    _DTYPE_BITS,
    _MODEL_CLASS,
    _NOT_MODEL,
    _TV_VIT,
    _WEIGHT_FILES,
    _PassCore,
)

from preflight.adapters_api import CallSite, Resolved
from preflight.analysis.syntax import dotted_name


class _ModelPass(_PassCore):
    def models(self) -> None:
        found = False
        self.frozen = self.frozen_models()
        for site in self.calls:
            name = site.name or ""
            if name.endswith(".from_pretrained"):
                cls = name.rsplit(".", 2)[-2]
                if not _MODEL_CLASS.match(cls) or _NOT_MODEL.search(cls) or self.in_local_constructor(site):
                    continue
                found = self.pretrained = True
                if site.target and site.target not in self.frozen:
                    self.model_names.add(site.target)
                self.from_pretrained(site, cls)
            elif site.matches("timm.create_model") or site.matches("torchvision.models.get_model"):
                ref = self.value(site.arg(0, "model_name" if "timm" in (site.qualified or "") else "name"))
                if ref is not None and isinstance(ref.value, str):
                    found = True
                    self.model_names.add(site.target or "model")
                    self.put("model.ref", ref, site, f"{name}(...)", self.conf(site))
                    if "torchvision" in (site.qualified or ""):
                        self.torchvision_mha(site, ref.value)
            elif (site.qualified or "").startswith("torchvision.models.") and site.last and site.last[0].islower() \
                    and site.last not in ("get_model", "get_weight", "list_models"):
                found = True
                self.model_names.add(site.target or "model")
                self.add("model.ref", site.last, self.src(site.call, f"{name}()"), self.conf(site))
                self.torchvision_mha(site, site.last)
        if not found:
            self.local_module()
        if not found and not any(f.adapter == self.adapter.name for f in self.plan.facts("model.ref")):
            self.checkpoint_weights()

    def in_local_constructor(self, site: CallSite) -> bool:
        """The call sits in a ``@classmethod`` of a local ``nn.Module`` class: an alternate constructor
        of that class, which copies the hub model's weights into its own layers (karpathy/llm.c @
        7ecd8906 ``train_gpt2.py:200-216``, ``GPT.from_pretrained`` loads ``GPT2LMHeadModel`` to fill a
        local ``GPT``): the hub class is not the model trained."""
        node = self.idx.classes.get(site.klass or "")
        if node is None or not any((self.idx.qualify(dotted_name(b)) or "").endswith("nn.Module") for b in node.bases):
            return False
        fn = next((f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == site.function), None)
        return fn is not None and any(dotted_name(d) == "classmethod" for d in fn.decorator_list)

    def checkpoint_weights(self) -> None:
        """The model built from code and then given a checkpoint's weights, the model trained
        (``trainer.fit(model)``) or already known as the model: the checkpoint is the model
        (lllyasviel/ControlNet@ed85cd1e25a5 ``tutorial_train.py:11,20-21,35``: ``model.load_state_dict(
        load_state_dict(resume_path, location='cpu'))`` then ``trainer.fit(model, dataloader)``; also
        ``torch.load(path)``, ``safetensors.torch.load_file(path)``, ``torch.load(path)["state_dict"]``).
        The path is a literal or a resolved value with a weights-file suffix; medium, and only when
        exactly one such load reaches the trained model."""
        fitted = {dotted_name(s.call.args[0]) for s in self.calls
                  if (s.name or "").endswith(".fit") and s.call.args} | self.model_names
        found = []
        for site in self.calls:
            func = site.call.func
            if not ((site.name or "").endswith(".load_state_dict") and isinstance(func, ast.Attribute)
                    and site.call.args and dotted_name(func.value) in fitted):
                continue
            inner = site.call.args[0]
            while isinstance(inner, ast.Subscript):
                inner = inner.value
            if not isinstance(inner, ast.Call) or not (inner.args or inner.keywords):
                continue
            first = inner.args[0] if inner.args else inner.keywords[0].value
            ref = self.value(first)
            if ref is not None and isinstance(ref.value, str) and ref.value.lower().endswith(_WEIGHT_FILES):
                found.append((site, ref))
        if len(found) == 1:
            site, ref = found[0]
            self.put("model.ref", ref, site, f"{dotted_name(site.call.func)}() of the trained model: the weights "
                     "it starts from", "medium")

    def torchvision_mha(self, site: Any, builder: str) -> None:
        """torchvision's ViT builders (``vit_b_16`` ... ``vit_h_14``) build ``EncoderBlock``s
        whose attention is ``torch.nn.MultiheadAttention`` (``model.torch_mha``: how its SDPA
        output is copied, ``estimate.terms.mha_output_copied``)."""
        if _TV_VIT.match(builder):
            self.add("model.torch_mha", True,
                     self.src(site.call, f"{site.label}(): torchvision's ViT runs nn.MultiheadAttention"),
                     self.conf(site))

    def frozen_models(self) -> set[str]:
        """Names of models loaded with ``from_pretrained`` that the job does not train, when it
        loads several: a distillation teacher or a reference model beside the one whose
        ``.parameters()``/``.named_parameters()`` the script reads (huggingface/distil-whisper
        ``run_distillation.py:986-995``: ``teacher_model`` then ``student_model``, the optimizer's
        parameter groups built from ``student_model.named_parameters()``). Empty unless exactly
        one of them has its parameters read, or all but one are frozen with ``requires_grad_(False)``."""
        loaded = {s.target for s in self.calls if s.target and (s.name or "").endswith(".from_pretrained")
                  and _MODEL_CLASS.match((s.name or "").rsplit(".", 2)[-2]) and not _NOT_MODEL.search(s.name or "")}
        if len(loaded) < 2:
            return set()
        # `next(model.parameters()).device` asks where the model is, it does not train it
        probes = {id(s.call.args[0]) for s in self.calls if s.name == "next" and s.call.args}
        read = {(s.name or "").rsplit(".", 1)[0] for s in self.calls
                if (s.name or "").endswith((".parameters", ".named_parameters")) and id(s.call) not in probes}
        trained = loaded & read
        if len(trained) == 1:
            return loaded - trained
        # else the models frozen in so many words (`teacher.requires_grad_(False)`), when one is left
        frozen = {(s.name or "").rsplit(".", 1)[0] for s in self.calls if (s.name or "").endswith(".requires_grad_")
                  and s.call.args and isinstance(s.call.args[0], ast.Constant) and s.call.args[0].value is False}
        return loaded & frozen if len(loaded - frozen) == 1 else set()

    def from_pretrained(self, site: CallSite, cls: str) -> None:
        conf = self.conf(site)
        if site.target in self.frozen:
            # another model is the one trained: this one's name is an alternative at most, and its
            # dtype, quantization and attention are not the trained model's
            ref = self.value(site.arg(0, "pretrained_model_name_or_path"))
            if ref is not None and isinstance(ref.value, str):
                self.put("model.ref", ref, site, f"{cls}.from_pretrained() of {site.target}, which the job does "
                                                 "not train (its parameters never reach an optimizer)", "low")
            return
        ref = self.value(site.arg(0, "pretrained_model_name_or_path"))
        if ref is not None and isinstance(ref.value, str):
            self.put("model.ref", ref, site, f"{cls}.from_pretrained()", conf)
        self.add("model.class_name", cls, self.src(site.call, f"{cls}.from_pretrained()"), conf)
        quantized = self.quantized_load(site)
        for kw in ("torch_dtype", "dtype"):
            dtype = self.dtype(site.kwarg(kw))
            if dtype is not None and not quantized:  # with 4/8-bit weights dtype is the compute dtype
                where = self.src(site.kwarg(kw), f"from_pretrained({kw}=...)")
                self.add("precision.weights_bits", _DTYPE_BITS[dtype], where, conf)
        attn = site.kwarg("attn_implementation")
        resolved = self.value(attn)
        if resolved is not None:
            self.put("model.attn_implementation", resolved, site, "from_pretrained(attn_implementation=...)", conf)
        flash = self.value(site.kwarg("use_flash_attention_2"))
        if flash is not None and flash.value is True:
            self.add("model.attn_implementation", "flash_attention_2",
                     self.src(site.call, "from_pretrained(use_flash_attention_2=True)"), conf)
        for kw, bits in (("load_in_4bit", 4), ("load_in_8bit", 8)):
            flag = self.value(site.kwarg(kw))
            if flag is not None and flag.value is True:
                self.weights_bits = bits
                self.add("precision.weights_bits", bits, self.src(site.kwarg(kw), f"from_pretrained({kw}=True)"), conf)
                if bits == 8:  # bitsandbytes LLM.int8 (the 8-bit load has no other type)
                    self.add("precision.quant_type", "int8", self.src(site.kwarg(kw), f"from_pretrained({kw}=True): "
                                                                                     "bitsandbytes int8"), conf)

    def quantized_load(self, site: CallSite) -> bool:
        """from_pretrained(load_in_4bit/8bit=True) or quantization_config=<a quantization config>."""
        for kw in ("load_in_4bit", "load_in_8bit"):
            flag = self.value(site.kwarg(kw))
            if flag is not None and flag.value is True:
                return True
        qconf = site.kwarg("quantization_config")
        if qconf is None or (isinstance(qconf, ast.Constant) and qconf.value is None):
            return False
        call = self.call_of(qconf)
        if call is None or dotted_name(call.func) is None:
            return True  # some quantization config we cannot read: weights are not plain 16-bit
        if not (dotted_name(call.func) or "").endswith("BitsAndBytesConfig"):
            return True
        return any(k.arg in ("load_in_4bit", "load_in_8bit") and (self.value(k.value) or Resolved(False, "code")).value
                   is not False for k in call.keywords)

    def local_module(self) -> None:
        modules = {name for name, node in self.idx.classes.items()
                   if any((self.idx.qualify(dotted_name(b)) or "").endswith(("nn.Module", "LightningModule"))
                          for b in node.bases)}
        built = {s.name: s for s in self.calls if s.name in modules and s.klass not in modules
                 and not _attached_submodule(s.target)}
        if len(built) == 1:
            cls, site = next(iter(built.items()))
            self.model_names.add(site.target or "model")
            detail = f"{cls}(...): a local nn.Module"
            self.add("model.ref", cls, self.src(site.call, detail), "medium")
            self.add("model.class_name", cls, self.src(site.call, detail), "medium")
            self.local_count(cls, site)
            self.local_attention(cls, modules)

    def local_attention(self, cls: str, modules: set[str]) -> None:
        """``model.attn_implementation`` sdpa for a local model whose classes (the built one and the
        local classes it names, transitively) call ``scaled_dot_product_attention`` with no guard
        around the call, and compute no softmax attention of their own (rasbt/LLMs-from-scratch
        ``ch05/10_llm-training-speed/02_opt_multi_gpu_ddp.py:138`` at 28c65cdf)."""
        reach, todo = set(), [cls]
        while todo:
            name = todo.pop()
            if name in reach or name not in self.idx.classes:
                continue
            reach.add(name)
            todo.extend(n.id for n in ast.walk(self.idx.classes[name]) if isinstance(n, ast.Name) and n.id in modules)
        sdpa = [s for s in self.idx.calls if s.klass in reach and (s.name or "").endswith("scaled_dot_product_attention")]
        manual = any(isinstance(n, (ast.Attribute, ast.Name)) and (getattr(n, "attr", None) or getattr(n, "id", ""))
                     in ("softmax", "Softmax") for name in reach for n in ast.walk(self.idx.classes[name]))
        if sdpa and not manual and all(not s.guards for s in sdpa):
            self.add("model.attn_implementation", "sdpa",
                     self.src(sdpa[0].call, f"{sdpa[0].label}() in {sdpa[0].klass}, a class of the local model "
                                            f"{cls}"), "medium")

    def local_count(self, cls: str, site: CallSite) -> None:
        """Its parameter count when its layers' sizes are known (module_params), with
        literal keyword arguments at the call."""
        from preflight.adapters.module_params import count_class

        counted = None
        if not site.call.args:
            kwargs: dict[str, Any] = {}
            for kw in site.call.keywords:
                value = self.value(kw.value)
                if kw.arg is None or value is None:
                    break
                kwargs[kw.arg] = value.value
            else:
                counted = count_class(self.script.tree, cls, kwargs)
        if counted is None:
            self.local_count_nested(cls, site)
            return
        total, layers = counted
        self.add("model.num_parameters", total,
                 self.src(site.call, f"{cls}(): {total:,} parameters of {len(layers)} layers, counted from "
                                     "their sizes"), "medium")

    def local_count_nested(self, cls: str, site: CallSite) -> None:
        """The count of a model of several local classes (blocks repeated, sizes from a config
        dict handed in): module_params_nested.count_module, with the arguments the call passes read as
        literals (a dict bound once, or passed into the function around the call)."""
        from preflight.adapters.module_params_nested import UNKNOWN, argument_value, count_module

        def arg(expr: ast.AST) -> Any:
            resolved = self.value(expr)
            if resolved is not None:
                return resolved.value
            picked = self.table_entry(expr, site)
            if picked is not None:
                return argument_value(self.script.tree, site.function, picked)
            return argument_value(self.script.tree, site.function, expr)

        if any(isinstance(a, ast.Starred) for a in site.call.args) or any(k.arg is None for k in site.call.keywords):
            return
        args = [arg(a) for a in site.call.args]
        kwargs = {k.arg: arg(k.value) for k in site.call.keywords if k.arg is not None}
        # module sizes from a named dataset or a text file the job holds
        from preflight.catalog_values import catalog_constants

        counted = count_module(catalog_constants(self.idx, self.script.tree), cls, args, kwargs)
        if counted is None:
            return
        total, layers = counted
        given = sum(1 for v in [*args, *kwargs.values()] if v is not UNKNOWN)
        self.add("model.num_parameters", total,
                 self.src(site.call, f"{cls}(): {total:,} parameters of {len(layers)} layers of its own and "
                                     f"nested local classes, counted from their sizes ({given} argument(s) read "
                                     "as literals)"), "medium")

    def table_entry(self, expr: ast.AST, site: CallSite) -> Optional[ast.expr]:
        """The entry a table literal indexed by a known key selects, the expression or the one value a
        name is bound to in the scope of the call (karpathy/llm.c @ 7ecd8906 ``train_gpt2.py:654-660``:
        ``model_config = {"d12": GPTConfig(...), "d24": ...}[args.model]`` with ``--model d12``); None
        otherwise."""
        node: Any = expr
        if isinstance(node, ast.Name):
            scope: list[ast.AST] = list(self.script.tree.body) if self.script.tree is not None else []
            if site.function is not None:
                fns = self.idx.functions.get(site.function, [])
                if len(fns) != 1 or not isinstance(fns[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
                    return None
                scope = list(fns[0].body)
            bound: list[ast.AST] = []
            stack = list(scope)
            while stack:
                sub = stack.pop()
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                    continue
                if isinstance(sub, ast.Name) and sub.id == node.id and isinstance(sub.ctx, ast.Store):
                    bound.append(sub)
                stack.extend(ast.iter_child_nodes(sub))
            binds = [n for n in ast.walk(ast.Module(body=[s for s in scope if isinstance(s, ast.stmt)], type_ignores=[]))
                     if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
                     and n.targets[0].id == node.id]
            if len(bound) != 1 or len(binds) != 1:
                return None
            node = binds[0].value
        if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict)):
            return None
        keys = node.value.keys
        if not all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in keys):
            return None
        key = self.value(node.slice)
        if key is None or not isinstance(key.value, str):
            return None
        hits = [v for k, v in zip(keys, node.value.values) if isinstance(k, ast.Constant) and k.value == key.value]
        return hits[-1] if hits else None

    def quantization(self) -> None:
        self.bnb_layers()
        for site in self.calls:
            if site.last != "BitsAndBytesConfig":
                continue
            for kw, bits in (("load_in_4bit", 4), ("load_in_8bit", 8)):
                flag = self.value(site.kwarg(kw))
                if flag is not None and flag.value is True:
                    self.weights_bits = bits
                    self.add("precision.weights_bits", bits,
                             self.src(site.call, f"BitsAndBytesConfig({kw}=True)"), self.conf(site))
                    if bits == 8:
                        self.add("precision.quant_type", "int8",
                                 self.src(site.call, f"BitsAndBytesConfig({kw}=True): bitsandbytes int8"),
                                 self.conf(site))

    def bnb_layers(self) -> None:
        """bitsandbytes' ``Linear4bit`` built, or handed as the layer class to a call that swaps the model's
        linear layers (AnswerDotAI/fsdp_qlora @ 05ed9f2 train.py:615-616 ``replace_linear(model.model,
        Linear4bit, compute_dtype=..., quant_type='nf4', ...)``) where that call runs: 4-bit base weights;
        ``quant_type=`` given there is the 4-bit type, and ``compress_statistics`` (bitsandbytes' double
        quantization) is on unless given False (its default, bitsandbytes/nn/modules.py Linear4bit)."""
        if self.weights_bits is not None:
            return
        for site in self.calls:
            if self.idx.runs(site) is not True or site.name in ("isinstance", "issubclass", "type"):
                continue
            named = [site.qualified or ""] + [self.idx.qualify(dotted_name(a)) or "" for a in site.call.args
                                              if isinstance(a, (ast.Name, ast.Attribute))]
            if not any(q.startswith("bitsandbytes.") and q.rsplit(".", 1)[-1] == "Linear4bit" for q in named):
                continue
            conf = "medium"
            self.weights_bits = 4
            self.add("precision.weights_bits", 4, self.src(site.call, f"{site.label}(...) with bitsandbytes "
                                                                      "Linear4bit layers: 4-bit base weights"), conf)
            qt = self.value(site.kwarg("quant_type"))
            if qt is not None and qt.value in ("nf4", "fp4"):
                self.add("precision.quant_type", qt.value, self.src(site.kwarg("quant_type"),
                                                                    f"{site.label}(quant_type=...)"), conf)
            dq_expr = site.kwarg("compress_statistics")
            dq = self.value(dq_expr) if dq_expr is not None else None
            if dq_expr is None:
                self.add("precision.double_quant", True,
                         self.src(site.call, "Linear4bit without compress_statistics: bitsandbytes' default True "
                                             "(double quantization)", "default"), conf)
            elif dq is not None and isinstance(dq.value, bool):
                self.add("precision.double_quant", dq.value, self.src(dq_expr, f"{site.label}(compress_statistics"
                                                                               "=...)"), conf)
            return


def _attached_submodule(target: Optional[str]) -> bool:
    """``attn.attn_gate = AttnGate(hidden)``, ``model.fc = Head(...)``: a local module assigned to an
    attribute of another object is a part attached to a model built elsewhere (a gate added to each
    attention layer of a pretrained model, a new head), not the model itself. ``self.x = Net()`` and
    ``trainer.model = Net()`` (an attribute named like the model) still build the model."""
    if target is None or "." not in target or target.startswith("self."):
        return False
    return target.rsplit(".", 1)[-1].lower() not in ("model", "net", "network", "module", "student", "teacher")

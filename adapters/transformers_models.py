"""The model a Transformers/TRL script loads: ``from_pretrained`` version-dependent defaults (dtype,
attention), quantized loading, the project's own model classes, ``use_cache`` and the MLP
activation; and the state and helpers every pass of the transformers adapter shares.

Part of the transformers adapter (:mod:`preflight.adapters.transformers`), split by concern."""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from preflight.adapters.pytorch_pass import _MODEL_CLASS, _NOT_MODEL
from preflight.adapters.script_pass import ScriptPassState
from preflight.adapters.trained_model import not_trained
from preflight.adapters.transformers_version import Version, find_version

from preflight.adapters_api import CallSite, Project, ScriptIndex
from preflight.analysis.syntax import dotted_name
from preflight.plan import FIELDS, Source, TrainingPlan

if TYPE_CHECKING:
    from preflight.adapters.transformers import TransformersAdapter


def _is_hf(site: CallSite) -> bool:
    q = site.qualified or ""
    return q.startswith(("transformers.", "trl.", "peft."))


class _PassCore(ScriptPassState):
    """One script's pass: its calls, the transformers/TRL/torch versions its project pins, and
    the helpers that add facts and notes."""


    def __init__(self, adapter: TransformersAdapter, project: Project, plan: TrainingPlan,
                 idx: ScriptIndex) -> None:
        super().__init__(adapter, project, plan, idx)
        folder = Path(self.script.source.path).parent
        self.transformers = find_version("transformers", folder, project.root)
        if self.transformers is None and project.transformers_version:
            self.transformers = Version("transformers", project.transformers_version, "stated by the user",
                                        "--transformers-version / [tool.preflight] transformers-version")
        self.trl = find_version("trl", folder, project.root)
        self.torch = find_version("torch", folder, project.root)
        self.major = self.transformers.parts[0] if self.transformers else 5
        # TrainingArguments values that decide where the Trainer's loss runs (compile_loss.py)
        self.loss_args: dict[str, Any] = {}

    # -- helpers -------------------------------------------------------------
    def conf(self, site: CallSite) -> str:
        return "high" if self.idx.runs(site) else "medium"

    def src(self, node: Any, detail: Optional[str] = None, kind: str = "code", key: Optional[str] = None) -> Source:
        return self.project.source(self.script, node, kind, key=key, detail=detail)

    def add(self, field: str, value: Any, source: Source, confidence: str = "high", priority: int = 0) -> None:
        self.adapter.add_checked(self.plan, field, value, source, confidence, priority)

    def note(self, text: str) -> None:
        self.adapter.note(self.plan, text)

    def version_text(self) -> str:
        return f"transformers {self.transformers.text}" if self.transformers else "transformers 5.x (assumed)"

    def trl_at_least(self, *numbers: int) -> bool:
        return self.trl is None or self.trl.at_least(*numbers)

    def trl_text(self) -> str:
        return f"TRL {self.trl.text}" if self.trl else "TRL latest (assumed)"


class _ModelPass(_PassCore):
    def models(self) -> None:
        for site in self.calls:
            name = site.name or ""
            if not name.endswith(".from_pretrained"):
                continue
            cls = name.rsplit(".", 2)[-2]
            if "." not in name[:-len(".from_pretrained")]:
                from preflight.adapters.model_class_choice import chosen_class

                chosen = chosen_class(self.idx, cls, _MODEL_CLASS, _NOT_MODEL)
                if chosen is not None:
                    self.model_defaults(site, f"{cls} (transformers' {' or '.join(chosen)})")
                    continue
            if not _MODEL_CLASS.match(cls) or _NOT_MODEL.search(cls):
                continue
            self.model_defaults(site, cls)

    def quantized(self, site: CallSite) -> Optional[int]:
        """4 or 8 when ``site`` loads quantized weights with bitsandbytes, 0 for another
        quantization config, None when not quantized."""
        for kw, bits in (("load_in_4bit", 4), ("load_in_8bit", 8)):
            flag = self.idx.resolve(site.kwarg(kw))
            if flag is not None and flag.value is True:
                if self.major >= 5:
                    self.note(f"{self.script.source.display}:{site.line}: from_pretrained({kw}=True) was removed "
                              f"in transformers 5.x ({self.version_text()}); use "
                              "quantization_config=BitsAndBytesConfig(...)")
                return bits
        qconf = site.kwarg("quantization_config")
        if qconf is None or (isinstance(qconf, ast.Constant) and qconf.value is None):
            return None
        call = qconf if isinstance(qconf, ast.Call) else None
        if isinstance(qconf, ast.Name):
            bound = self.idx.assigns.get(qconf.id, [])
            call = bound[0] if len(bound) == 1 and isinstance(bound[0], ast.Call) else None
        if call is None or not (dotted_name(call.func) or "").endswith("BitsAndBytesConfig"):
            return 0
        for keyword in call.keywords:
            value = self.idx.resolve(keyword.value)
            if keyword.arg in ("load_in_4bit", "load_in_8bit") and value is not None and value.value is True:
                return 4 if keyword.arg == "load_in_4bit" else 8
        return 0

    def own_flash_attention(self, site: CallSite) -> Optional[tuple[str, str]]:
        """(module file, function) when the project module the class comes from imports flash-attn at its
        top level and calls its ``flash_attn_*`` functions, and computes no softmax attention or sdpa
        anywhere (ProLong ``training/modeling_flash_llama.py:41,325``); else None."""
        module = (site.qualified or "").rsplit(".", 2)[0]
        if not module or "." not in (site.qualified or ""):
            return None
        rel = module.replace(".", "/")
        bases = [Path(str(self.project.root))]
        if self.script.source.path is not None:
            bases.append(Path(str(self.script.source.path)).parent)
        from preflight.local_trees import parse_small_file

        for base in bases:
            path = base / f"{rel}.py"
            if not path.is_file() or not self.project.may_read(path):
                continue
            tree = parse_small_file(path)
            if tree is None:
                return None
            imported = {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom)
                        and (n.module or "").split(".")[0] == "flash_attn" for a in n.names}
            called = [n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                      and n.func.id in imported and n.func.id.startswith("flash_attn_")]
            named = [n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in imported
                     and n.id.startswith("flash_attn_")]
            other = any(isinstance(n, ast.Call) and (dotted_name(n.func) or "").rsplit(".", 1)[-1]
                        in ("softmax", "scaled_dot_product_attention", "Softmax") for n in ast.walk(tree))
            if (called or named) and not other:
                return os.path.relpath(path, self.project.root) if str(path).startswith(str(self.project.root)) \
                    else str(path), (called or named)[0]
            return None
        return None

    def project_class(self, site: CallSite) -> bool:
        """The class is imported from a module of the project (a file or package of that name beside
        the script or at the project's root), not from transformers."""
        qualified = site.qualified or ""
        root = qualified.split(".")[0]
        if not root or root in ("transformers", "peft", "trl", "torch") or qualified == site.name:
            return False
        bases = [Path(str(self.project.root))]
        if self.script.source.path is not None:
            bases.append(Path(str(self.script.source.path)).parent)
        return any((b / root).is_dir() or (b / f"{root}.py").is_file() for b in bases)

    def model_defaults(self, site: CallSite, cls: str) -> None:
        conf = "medium" if self.conf(site) == "high" else "low"
        where = f"{self.script.source.display}:{site.line}"
        quantized = self.quantized(site)
        given = [kw for kw in ("dtype", "torch_dtype") if site.kwarg(kw) is not None]
        from preflight.adapters.model_cast_init import chained_cast

        cast = chained_cast(self.idx.calls, site.call) if quantized is None else None
        if cast is not None:
            self.add("precision.weights_bits", 16,
                     self.src(cast[1], f"{cls}.from_pretrained(...).{getattr(cast[1].func, 'attr', '')}(): "
                              f"{cast[0]} weights"), self.conf(site))
        elif not given and quantized is None:
            from preflight.adapters.model_cast_init import later_cast

            later = later_cast(self.idx, site) if self.major < 5 else None
            if later is not None and later[2]:
                self.add("precision.weights_bits", 16,
                         self.src(later[1].call, f"{cls}.from_pretrained() without dtype, then "
                                  f"{ast.unparse(later[1].call)} at line {later[1].line}: {later[0]} weights"), "medium")
            elif later is not None:
                self.note(f"{where}: {cls}.from_pretrained() without dtype loads fp32, but "
                          f"{ast.unparse(later[1].call)} at line {later[1].line} casts it under a test not decided "
                          "here: the weight size is left open")
            elif self.major < 5:
                self.add("precision.weights_bits", 32,
                         self.src(site.call, f"{cls}.from_pretrained() without dtype: {self.version_text()} "
                                  "loads fp32 (transformers 4.x default torch_dtype=None)", "default", "dtype"), conf)
            else:
                self.note(f"{where}: {cls}.from_pretrained() without dtype: {self.version_text()} defaults to "
                          "dtype=\"auto\" (the dtype in the checkpoint's config.json), so the weight size is "
                          "not known statically")
        for kw in given:
            value = self.idx.resolve(site.kwarg(kw))
            if value is not None and value.value == "auto":
                self.note(f"{where}: from_pretrained({kw}=\"auto\"): the dtype comes from the checkpoint's "
                          "config.json; not a fact")
            if kw == "torch_dtype" and self.transformers is not None and self.transformers.at_least(4, 57):
                self.note(f"{where}: torch_dtype= is deprecated since transformers 4.57 ({self.version_text()}); "
                          "use dtype=")
        if site.kwarg("attn_implementation") is None and site.kwarg("use_flash_attention_2") is None:
            if self.project_class(site):
                # a model class of the project's own modeling file, named like the library's
                # (princeton-nlp/ProLong training/train_language_model.py:16 ``from
                # training.modeling_flash_llama import LlamaForCausalLM``, whose attention calls
                # flash-attn itself): from_pretrained is the library's, the attention is not
                flash = self.own_flash_attention(site)
                if flash is not None:
                    self.add("model.attn_implementation", "flash_attention_2",
                             self.src(site.call, f"{cls} is the project's own ({flash[0]}): its attention calls "
                                      f"{flash[1]}() of flash-attn, with no softmax or sdpa path"), conf)
                    return
                self.note(f"{where}: {cls} is the project's own ({site.qualified}): its attention is its code's, "
                          "not the transformers default")
                return
            trained = not_trained(self.idx, site.target)
            if trained is not None:
                self.note(f"{where}: {cls}.from_pretrained() into {site.target}, which the job does not hand to its "
                          f"engine or optimizer ({trained} is): the library's attention default is not the trained "
                          "model's")
                return
            if self.transformers is not None and not self.transformers.at_least(4, 36):
                self.add("model.attn_implementation", "eager",
                         self.src(site.call, f"{self.version_text()}: no attn_implementation before 4.36, eager "
                                  "attention", "default", "attn_implementation"), conf)
            else:
                self.add("model.attn_implementation", "sdpa",
                         self.src(site.call, f"{self.version_text()} default (>= 4.36): sdpa when the model "
                                  "supports it, else eager", "default", "attn_implementation"), conf)

    def use_cache(self) -> None:
        """``model.use_cache`` as the script says it: ``from_pretrained(..., use_cache=X)`` on a
        model class, or ``<model>.config.use_cache = False`` (a True set back after training is
        for generation, not read). An explicit value beats the default-kind fact that FSDP
        activation checkpointing leaves the cache on (``adapters/_cache.py``)."""
        if "model.use_cache" not in FIELDS:
            return
        for site in self.calls:
            name = site.name or ""
            cls = name.rsplit(".", 2)[-2] if name.endswith(".from_pretrained") else ""
            if not cls or not _MODEL_CLASS.match(cls) or _NOT_MODEL.search(cls):
                continue
            flag = self.idx.resolve(site.kwarg("use_cache"))
            if flag is not None and isinstance(flag.value, bool) and self.idx.runs(site) is not False:
                self.add("model.use_cache", flag.value,
                         self.src(site.call, f"{cls}.from_pretrained(use_cache={flag.value})",
                                  key="use_cache"), self.conf(site))
                return
        tree = self.script.tree
        if tree is None:
            return
        for node in ast.walk(tree):
            if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Constant) \
                    or node.value.value is not False:
                continue
            for target in node.targets:
                if isinstance(target, ast.Attribute) and target.attr == "use_cache" \
                        and isinstance(target.value, ast.Attribute) and target.value.attr == "config":
                    self.add("model.use_cache", False,
                             self.src(node, f"{ast.unparse(target)} = False", key="use_cache"), "high")
                    return

    def activation(self) -> None:
        """``model.activation_function``: the MLP activation the script builds the model with,
        ``from_pretrained(..., activation_function="gelu_pytorch_tanh")`` (or ``hidden_act=``) on
        a model class, or a config class called with it (``GPT2Config(activation_function=...)``,
        which the model is then built from). A string literal or a name bound to one only."""
        if "model.activation_function" not in FIELDS:
            return
        for site in self.calls:
            name = site.name or ""
            cls = name.rsplit(".", 2)[-2] if name.endswith(".from_pretrained") else ""
            model = bool(cls) and bool(_MODEL_CLASS.match(cls)) and not _NOT_MODEL.search(cls)
            # a config class called, or loaded (AutoConfig.from_pretrained(..., activation_function=))
            config_cls = cls or (site.last or "")
            config = config_cls.endswith("Config") and config_cls not in (
                "LoraConfig", "BitsAndBytesConfig", "GenerationConfig", "PeftConfig")
            if not (model or config) or self.idx.runs(site) is False:
                continue
            for key in ("activation_function", "hidden_act"):
                found = self.idx.resolve(site.kwarg(key))
                if found is None or not isinstance(found.value, str):
                    continue
                self.add("model.activation_function", found.value.lower(),
                         self.src(site.call, f"{site.label}({key}={found.value!r})", key=key),
                         self.conf(site))
                return

    def loads_non_fp32(self) -> bool:
        """A from_pretrained in the script loads 16-bit, "auto" or quantized weights (or,
        in 5.x, leaves dtype at its "auto" default): with AMP off the Trainer then computes
        in that dtype, not fp32."""
        for site in self.calls:
            name = site.name or ""
            if not name.endswith(".from_pretrained") or _NOT_MODEL.search(name.rsplit(".", 2)[-2]):
                continue
            if self.quantized(site) is not None:
                return True
            exprs = [e for e in (site.kwarg(kw) for kw in ("dtype", "torch_dtype")) if e is not None]
            if not exprs and self.major >= 5:
                return True
            for expr in exprs:
                text = ast.unparse(expr).lower()
                if not any(word in text for word in ("float32", "fp32")) or "auto" in text:
                    return True
        return False

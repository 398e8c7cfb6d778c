"""TrainingArguments / TRL config values (helper of the transformers adapter, frameworks.md §1.3).

Values come from the ``TrainingArguments(...)``/``SFTConfig(...)`` call in the script
(kind ``code``), from a JSON/YAML file read by ``HfArgumentParser`` and the ``<script>.args``
file beside the script (kind ``config``), and from ``--key value`` flags on the launch
command (kind ``cli``). Each call also gets the framework defaults (kind ``default``) with
the version range they hold for.
"""

from __future__ import annotations

import ast
import os
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Union

from preflight.adapters._cache import cache_stays_on
from preflight.adapters.deepspeed import deepspeed_block

from preflight.adapters_api import CallSite
from preflight.analysis.syntax import config_at, dotted_name, unpacked_key_path
from preflight.plan import FIELDS, Source
from preflight.script_argv import opaque_words
from preflight.sources import read_text_limited

if TYPE_CHECKING:
    from preflight.adapters.transformers import _ScriptPass

TRL_CONFIGS = ("SFTConfig", "DPOConfig", "GRPOConfig", "ORPOConfig", "KTOConfig", "CPOConfig", "PPOConfig",
               "RewardConfig", "RLOOConfig", "OnlineDPOConfig", "GKDConfig", "PRMConfig", "BCOConfig",
               "XPOConfig", "NashMDConfig")
ARG_CLASSES = ("TrainingArguments", "Seq2SeqTrainingArguments", *TRL_CONFIGS)

# TrainingArguments keys read, with their value type (frameworks.md §1.3).
TRAINING_KEYS: dict[str, str] = {
    "per_device_train_batch_size": "int", "gradient_accumulation_steps": "int", "bf16": "bool", "fp16": "bool",
    "optim": "str", "gradient_checkpointing": "bool", "activation_checkpointing": "bool", "deepspeed": "any",
    "fsdp": "any", "torch_compile": "bool", "max_length": "int", "max_seq_length": "int",
    "use_liger_kernel": "bool", "fsdp_config": "any", "dataloader_num_workers": "int", "dataloader_pin_memory": "bool",
    "label_smoothing_factor": "any", "loss_type": "str", "group_by_length": "bool",
}
_FSDP = {"full_shard": "fsdp_full", "shard_grad_op": "fsdp_grad_op", "hybrid_shard": "fsdp_hybrid",
         "hybrid_shard_zero2": "fsdp_hybrid", "no_shard": "ddp"}
_SEQ_KEYS = ("max_length", "max_seq_length")
# keys whose redeclared default in a local TrainingArguments subclass is read
_SUBCLASS_KEYS = ("per_device_train_batch_size", "gradient_accumulation_steps", "optim", "gradient_checkpointing",
                  "torch_compile")


def _enclosing_function(tree: ast.AST, node: ast.expr) -> Optional[list[ast.stmt]]:
    """The body of the innermost function (or the module) that holds ``node``."""
    best: Optional[Union[ast.FunctionDef, ast.AsyncFunctionDef]] = None
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                and fn.lineno <= node.lineno <= (fn.end_lineno or 0) and (best is None or fn.lineno >= best.lineno):
            best = fn
    if best is not None:
        return best.body
    return tree.body if isinstance(tree, ast.Module) else None


def _statements(body: list[ast.stmt], plain: bool) -> Any:
    """Each statement of ``body`` and of the blocks nested in it (not nested functions or classes),
    with whether it runs unconditionally (a plain statement of ``body`` itself)."""
    for stmt in body:
        yield stmt, plain
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for field_name in ("body", "orelse", "finalbody", "handlers"):
            inner = getattr(stmt, field_name, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                yield from _statements(inner, plain and isinstance(stmt, (ast.With, ast.Try)) and field_name == "body")
            elif isinstance(inner, list):
                for h in inner:
                    if isinstance(h, ast.ExceptHandler):
                        yield from _statements(h.body, False)


def _class_constant(cls: ast.ClassDef, name: str, before: int) -> Optional[ast.expr]:
    """The literal a class attribute holds where a field default names it (InternLM/xtuner
    xtuner/apis/training_args.py:26,44-47 @ b934f462: ``default_per_device_train_batch_size = 1``
    then ``per_device_train_batch_size: int = field(default=default_per_device_train_batch_size)``):
    the last plain assignment of ``name`` in the class body above line ``before``, when it is a
    constant; None otherwise."""
    found: Optional[ast.expr] = None
    for stmt in cls.body:
        if stmt.lineno >= before:
            break
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
            found = stmt.value if len(stmt.targets) == 1 else None
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == name:
            found = stmt.value
    return found if isinstance(found, ast.Constant) else None


def parse_flags(tokens: list[str]) -> dict[str, tuple[Optional[str], str]]:
    """HfArgumentParser-style flags: ``--key value``, ``--key=value``, ``--flag`` (true) and
    ``--no_flag`` (false) for the known keys; the value text and the token(s) as written."""
    out: dict[str, tuple[Optional[str], str]] = {}
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        i += 1
        if not tok.startswith("--"):
            continue
        name, eq, val = tok[2:].partition("=")
        name = name.replace("-", "_")
        if name.startswith("no_") and name[3:] in TRAINING_KEYS and TRAINING_KEYS[name[3:]] == "bool":
            out[name[3:]] = ("false", tok)
            continue
        if name not in TRAINING_KEYS:
            continue
        if eq:
            out[name] = (val, tok)
        elif i < len(tokens) and not tokens[i].startswith("--"):
            out[name] = (tokens[i], f"{tok} {tokens[i]}")
            i += 1
        elif TRAINING_KEYS[name] == "bool":
            out[name] = ("true", tok)
    return out


def convert(key: str, value: Any) -> Any:
    """A config/CLI value as the field type, or None when it does not fit."""
    kind = TRAINING_KEYS[key]
    if kind == "int":
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            return int(value)
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    if kind == "bool":
        if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no", "1", "0"):
            return value.lower() in ("true", "yes", "1")
        return value if isinstance(value, bool) else None
    if kind == "str":
        return value if isinstance(value, str) else None
    return value


def record_fp16_and_bf16(add: Any, fp16: Source, bf16: Source, conf: str) -> None:
    """The pair of ``precision.fp16_and_bf16`` facts of one setting (PF503 reads them): the
    fp16 key's source, then the bf16 key's. Only settings with a file line (a call, a file)."""
    if "precision.fp16_and_bf16" not in FIELDS or not (fp16.path and fp16.line and bf16.path and bf16.line):
        return
    for src, other in ((fp16, bf16), (bf16, fp16)):
        add("precision.fp16_and_bf16", True,
            Source(src.kind, src.path, src.line, src.key,
                   f"{src.detail or src.key}; the other 16-bit mode is on at {other.location()}"), conf)


class ArgsPass:
    """The TrainingArguments values of one script, from every place they can be set."""

    def __init__(self, owner: _ScriptPass) -> None:
        self.o = owner
        self.trl_used = False
        self.priority = 0  # 1 for values written on the arguments object after it is built
        self.deepspeed_unread = False  # deepspeed="FILE" names a config preflight did not read

    # -- entry -----------------------------------------------------------------
    def run(self) -> None:
        calls = [s for s in self.o.calls if s.last in ARG_CLASSES and _hf(s)]
        for site in calls:
            trl = site.last in TRL_CONFIGS
            self.trl_used |= trl
            self.from_call(site, trl)
        parsers = [s for s in self.o.calls if s.last == "HfArgumentParser" and _hf(s)]
        for site in parsers[:1]:
            self.from_parser(site, bool(calls))
        self.attribute_writes()

    # -- attribute writes on the arguments object -------------------------------
    def attribute_writes(self) -> None:
        """``training_args.per_device_train_batch_size = 8`` on the object a ``...Trainer(args=X)``
        call takes, in the function that builds the trainer (willccbb/verifiers
        examples/grpo/train_wordle.py:35-41 @ 39f0675a: ``training_args = vf.grpo_defaults(...)``
        then attribute writes, then ``vf.GRPOTrainer(args=training_args)``): the written value is
        the one the Trainer reads, over the constructor, the parser and the launch line (priority
        1). High when the write is a plain statement of that function's body, medium under an
        ``if``/loop; a value not known statically is skipped."""
        tree = self.o.script.tree
        if tree is None:
            return
        trainers = [s for s in self.o.calls if (s.last or "").endswith("Trainer") and s.kwarg("args") is not None
                    and isinstance(s.kwarg("args"), ast.Name)]
        done: set[tuple[str, int]] = set()
        for site in trainers:
            name = site.kwarg("args").id
            scope = _enclosing_function(tree, site.call)
            if scope is None or (name, id(scope)) in done:
                continue
            done.add((name, id(scope)))
            values: dict[str, tuple[Any, Source]] = {}
            confs: dict[str, str] = {}
            for stmt, plain in _statements(scope, True):
                if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                        and isinstance(stmt.targets[0], ast.Attribute) and isinstance(stmt.targets[0].value, ast.Name)
                        and stmt.targets[0].value.id == name and stmt.lineno < site.line):
                    continue
                key = stmt.targets[0].attr
                if key not in TRAINING_KEYS:
                    continue
                resolved = self.o.idx.resolve(stmt.value)
                converted = convert(key, resolved.value) if resolved is not None else None
                if converted is None:
                    values.pop(key, None)  # a later write of an unknown value: the earlier one no longer holds
                    confs.pop(key, None)
                    continue
                values[key] = (converted, self.o.src(stmt.lineno, f"{name}.{key} = {ast.unparse(stmt.value)} "
                                                     f"(the arguments {site.label}(args={name}) takes)", key=key))
                confs[key] = "high" if plain else "medium"
            for conf in ("high", "medium"):
                group = {k: v for k, v in values.items() if confs[k] == conf}
                if group:
                    self.apply_written(group, conf, site)

    def apply_written(self, values: dict[str, tuple[Any, Source]], conf: str, site: CallSite) -> None:
        self.priority = 1
        try:
            self.apply(values, conf, self.trl_used or (site.last or "").startswith("GRPO"), complete=False,
                       label=site.last or "Trainer")
        finally:
            self.priority = 0

    def add(self, field: str, value: Any, source: Source, confidence: str = "high") -> None:
        self.o.add(field, value, source, confidence, self.priority)

    # -- the call in the script ------------------------------------------------
    def from_call(self, site: CallSite, trl: bool) -> None:
        conf = self.o.conf(site)
        values: dict[str, tuple[Any, Source]] = {}
        for kw in site.call.keywords:
            if kw.arg not in TRAINING_KEYS:
                continue
            resolved = self.o.idx.resolve(kw.value)
            if resolved is None:
                if kw.arg == "deepspeed" and isinstance(kw.value, ast.Dict):
                    self.o.note(f"{self.where(site.line)}: {site.label}(deepspeed={{...}}): an inline DeepSpeed "
                                "config dict; not read")
                continue
            what = f"{site.last}({kw.arg}=...)"
            if resolved.kind == "cli":
                source = Source("cli", None, None, resolved.key, f"{what}: {resolved.detail}")
            else:
                detail = f"{what}; {resolved.detail}" if resolved.detail else what
                source = self.o.src(resolved.line or site.line, detail, key=resolved.key)
            values[kw.arg] = (resolved.value, source)
        unpacked = [kw for kw in site.call.keywords if kw.arg is None]
        from_config = self.from_unpacked(site, unpacked) if unpacked else None
        if from_config is not None:
            for key, value in from_config.items():
                values.setdefault(key, value)
        self.apply(values, conf, trl, complete=True, label=site.last or "TrainingArguments")
        if (unpacked and from_config is None) or any(isinstance(a, ast.Starred) for a in site.call.args):
            self.o.note(f"{self.where(site.line)}: {site.label}(**...): keys passed by unpacking are not read, "
                        "so no framework defaults are recorded for this call")
            return
        if _default_factory_call(site):
            # `training_args: Seq2SeqTrainingArguments = field(default_factory=lambda: Seq2SeqTrainingArguments(...))`
            # is the fallback when the job's config gives none (THUDM/ChatGLM3 finetune_demo/finetune_hf.py:165-167)
            self.o.note(f"{self.where(site.line)}: {site.label}(...) is a dataclass field's default_factory, "
                        "used only when no value is given; its defaults are not recorded")
            return
        fp16 = values.get("fp16")
        written = {kw.arg for kw in site.call.keywords if kw.arg}
        fp16_on = (fp16[0] is True) if fp16 is not None else (None if "fp16" in written else False)
        self.defaults(site, trl, set(values) | written, conf, fp16_on=fp16_on)

    def from_unpacked(self, site: CallSite, unpacked: list[ast.keyword]) -> Optional[dict[str, tuple[Any, Source]]]:
        """``TrainingArguments(**cfg["training"])``: the mapping at that key path of a YAML/JSON
        config given to the audit (``--config``), when exactly one holds it. None when any
        unpacked mapping cannot be found."""
        out: dict[str, tuple[Any, Source]] = {}
        for kw in unpacked:
            path = unpacked_key_path(kw.value)
            if path == () and isinstance(kw.value, ast.Name):
                path = _key_bound_to(site, kw.value.id) or ()
            if path is None:
                return None
            found = [(config, config_at(config.data, path)) for _, config in self.o.project.configs
                     if deepspeed_block(config) is None]
            found = [(c, d) for c, d in found if d is not None and set(d) & set(TRAINING_KEYS)]
            if len(found) != 1:
                return None
            config, data = found[0]
            assert data is not None
            text = ast.unparse(kw.value)
            for key, value in data.items():
                if key not in TRAINING_KEYS:
                    continue
                converted = convert(key, value)
                if converted is not None:
                    out[key] = (converted, self.o.project.config_source(
                        config, (*path, key), detail=f"{site.last}(**{text}) field {key}"))
        return out

    # -- HfArgumentParser ------------------------------------------------------
    def from_parser(self, site: CallSite, have_call: bool) -> None:
        classes = self.parser_classes(site)
        known = [c for c in classes if c in ARG_CLASSES]
        if not known:
            return
        trl = any(c in TRL_CONFIGS for c in known)
        self.trl_used |= trl
        label = known[0]
        methods = {s.call.func.attr for s in self.o.calls if isinstance(s.call.func, ast.Attribute)}
        reads_file = bool(methods & {"parse_json_file", "parse_yaml_file", "parse_dict"}) or self.json_idiom()
        found: set[str] = set()
        if reads_file:
            for _, config in self.o.project.configs:
                data = config.data
                if not isinstance(data, dict) or deepspeed_block(config) is not None:
                    continue
                keys = {k: v for k, v in data.items() if k in TRAINING_KEYS}
                if not keys:
                    continue
                values = {}
                for key, value in keys.items():
                    converted = convert(key, value)
                    if converted is not None:
                        values[key] = (converted, self.o.project.config_source(
                            config, (key,), detail=f"{label} field {key} read by HfArgumentParser"))
                found |= set(values)
                self.apply(values, "high", trl, complete=False, label=label)
        on_line: set[str] = set()
        opaque: list[str] = []
        if "parse_args_into_dataclasses" in methods and not (found and self.json_idiom()):
            # argv flags are appended after the .args file's, so they win over it
            tokens = self.o.project.script_args(self.o.script)
            flags = parse_flags(tokens)
            # given with a value not known statically (`--gradient_accumulation_steps $accu`, a
            # shell computation): the key is set, to a value preflight does not know
            on_line = {k for k, (text, _) in flags.items() if text is not None and "$" in text
                       and convert(k, text) is None}
            opaque = opaque_words(tokens)
            found |= self.args_file(site, label, trl, skip=set(flags))
            values = {}
            for key, (text, written) in flags.items():
                converted = convert(key, text)
                if converted is not None:
                    values[key] = (converted, Source("cli", None, None, f"--{key}",
                                                     f"{written}: {label} field read by HfArgumentParser"))
            found |= set(values)
            self.apply(values, "high", trl, complete=False, label=label)
        if opaque:
            self.o.note(f"{self.where(site.line)}: the launch line passes {', '.join(opaque)}, not known statically: "
                        f"{label} options it may hold are unknown, so no defaults are recorded")
            return
        found |= self.subclass_defaults(site, trl, label, found | on_line)
        if not have_call:
            self.defaults(site, trl, on_line, "medium", label=label)

    def subclass_defaults(self, site: CallSite, trl: bool, label: str, given: set[str]) -> set[str]:
        """Defaults a local TrainingArguments subclass the parser builds redeclares
        (``class TrainingArguments(transformers.TrainingArguments): optim: str =
        field(default="adamw_torch")``, as Qwen, LLaVA, alpaca_farm and MiniCPM write it): the
        job's value of that key unless the line or a file gives it."""
        expr = site.arg(0, "dataclass_types")
        if isinstance(expr, ast.Name) and len(self.o.idx.assigns.get(expr.id, [])) == 1:
            expr = self.o.idx.assigns[expr.id][0]
        items = expr.elts if isinstance(expr, (ast.Tuple, ast.List)) else [expr] if expr is not None else []
        values: dict[str, tuple[Any, Source]] = {}
        for item in items:
            name = dotted_name(item) if item is not None else None
            local = self.o.idx.classes.get(name or "")
            shown = self.o.script.source.display
            verified = False
            if local is None and name and "." in (self.o.idx.qualify(name) or ""):
                found = imported_subclass(self.o.script, self.o.idx.qualify(name) or "")
                if found is not None:
                    local, shown, verified = found[0], found[1], True
            if local is None or not (verified or any((dotted_name(b) or "").rsplit(".", 1)[-1] in ARG_CLASSES
                                                     for b in local.bases)):
                continue
            for stmt in local.body:
                if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
                        and stmt.value is not None):
                    continue
                key = stmt.target.id
                if key not in _SUBCLASS_KEYS or key in given or key in values:
                    continue
                value: Optional[ast.expr] = stmt.value
                if isinstance(value, ast.Call) and (dotted_name(value.func) or "").endswith("field"):
                    value = next((k.value for k in value.keywords if k.arg == "default"), None)
                if isinstance(value, ast.Name):
                    value = _class_constant(local, value.id, stmt.lineno)
                if not isinstance(value, ast.Constant):
                    continue
                converted = convert(key, value.value)
                if converted is not None:
                    values[key] = (converted, Source("code", shown, stmt.lineno, key,
                                                     f"{local.name}.{key} default {value.value!r} (a "
                                                     f"{label} subclass; not given on the line)"))
        if values:
            self.apply(values, "high", trl, complete=False, label=label)
        return set(values)

    def parser_classes(self, site: CallSite) -> list[str]:
        expr = site.arg(0, "dataclass_types")
        if isinstance(expr, ast.Name) and expr.id in self.o.idx.assigns:
            # a variable holding the classes (``types = (ModelArgs, TrainingArguments)``);
            # a bare class name (``HfArgumentParser(TrainingArguments)``) is kept as it is
            bound = self.o.idx.assigns[expr.id]
            expr = bound[0] if len(bound) == 1 else None
        items = expr.elts if isinstance(expr, (ast.Tuple, ast.List)) else [expr] if expr is not None else []
        out = []
        for item in items:
            name = self.o.idx.qualify(dotted_name(item)) if item is not None else None
            local = self.o.idx.classes.get(name or "")
            if local is not None:  # class MyArguments(TrainingArguments): its base's defaults
                bases = [self.o.idx.qualify(dotted_name(b)) or "" for b in local.bases]
                name = next((b for b in bases if b.rsplit(".", 1)[-1] in ARG_CLASSES), name)
            elif name and "." in name and not name.startswith(("transformers.", "trl.")):
                found = imported_subclass(self.o.script, name)  # a subclass in a local module (ProLong)
                name = found[2] if found is not None else name
            if name and (name.startswith(("transformers.", "trl.")) or "." not in name):
                out.append(name.rsplit(".", 1)[-1])
        return out

    def json_idiom(self) -> bool:
        """``len(sys.argv) == 2 and sys.argv[1].endswith(".json")``."""
        for node in ast.walk(self.o.script.tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "endswith" \
                    and "argv" in ast.unparse(node.func.value) and node.args \
                    and isinstance(node.args[0], ast.Constant) and node.args[0].value in (".json", ".yaml", ".yml"):
                return True
        return False

    def args_file(self, site: CallSite, label: str, trl: bool, skip: set[str]) -> set[str]:
        """``<script>.args`` beside the script, read by parse_args_into_dataclasses(look_for_args_file=True)."""
        for s in self.o.calls:
            if isinstance(s.call.func, ast.Attribute) and s.call.func.attr == "parse_args_into_dataclasses":
                flag = self.o.idx.resolve(s.kwarg("look_for_args_file"))
                if flag is not None and flag.value is False:
                    return set()
        path = Path(self.o.script.source.path).with_suffix(".args")
        if not os.path.isfile(path):
            return set()
        try:
            text = read_text_limited(path, errors="replace")
        except OSError:
            return set()
        shown = self.o.script.source.display.rsplit(".", 1)[0] + ".args"
        values: dict[str, tuple[Any, Source]] = {}
        for number, line in enumerate(text.splitlines(), 1):
            try:
                tokens = shlex.split(line, comments=True)
            except ValueError:
                continue
            for key, (value, written) in parse_flags(tokens).items():
                converted = convert(key, value)
                if key in skip:
                    self.o.note(f"{shown}:{number}: {written} is overridden by --{key} on the command line")
                elif converted is not None:
                    values[key] = (converted, Source("config", shown, number, key,
                                                     f"{written} in {shown} (read by HfArgumentParser's "
                                                     "look_for_args_file)"))
        self.o.note(f"{shown}: read as {label} arguments (HfArgumentParser reads <script>.args next to the "
                    "script)")
        self.apply(values, "high", trl, complete=False, label=label)
        return set(values)

    # -- facts -----------------------------------------------------------------
    def where(self, line: Optional[int]) -> str:
        return f"{self.o.script.source.display}:{line}" if line else self.o.script.source.display

    def apply(self, values: dict[str, tuple[Any, Source]], conf: str, trl: bool, *, complete: bool,
              label: str) -> None:
        """Facts for one group of values (one call, one file, the command line)."""
        add = self.add
        for key, field in (("per_device_train_batch_size", "batch.micro"),
                           ("gradient_accumulation_steps", "batch.grad_accum")):
            if key in values:
                add(field, values[key][0], values[key][1], conf)
        for key in ("gradient_checkpointing", "activation_checkpointing"):
            if key in values:
                add("memory.gradient_checkpointing", values[key][0], values[key][1], conf)
        if "torch_compile" in values:
            add("compile.enabled", values["torch_compile"][0], values["torch_compile"][1], conf)
        if values.get("use_liger_kernel", (False,))[0] is True and "loss.implementation" in FIELDS:
            # Liger's fused linear cross-entropy replaces the LM head + loss (never full logits)
            add("loss.implementation", "fused", values["use_liger_kernel"][1], conf)
            if "model.liger_kernels" in FIELDS:
                # the Trainer applies apply_liger_kernel_to_<model> with its defaults: RMSNorm,
                # SwiGLU and RoPE are Liger's too (estimate: activations.liger_norm)
                add("model.liger_kernels", True, values["use_liger_kernel"][1], conf)
        for key in ("label_smoothing_factor", "loss_type"):
            if key in values:
                self.o.loss_args[key] = values[key][0]
        if "optim" in values:
            add("optimizer.name", values["optim"][0], values["optim"][1], conf)
        if "group_by_length" in values and isinstance(values["group_by_length"][0], bool):
            add("data.group_by_length", values["group_by_length"][0], values["group_by_length"][1], conf)
        if "dataloader_num_workers" in values:
            add("data.num_workers", values["dataloader_num_workers"][0], values["dataloader_num_workers"][1], conf)
        if "dataloader_pin_memory" in values and isinstance(values["dataloader_pin_memory"][0], bool):
            add("data.pin_memory", values["dataloader_pin_memory"][0], values["dataloader_pin_memory"][1], conf)
        if trl or label in TRL_CONFIGS:
            for key in _SEQ_KEYS:
                if key in values:
                    add("data.seq_len", values[key][0], values[key][1], conf)
        if "deepspeed" in values and self.unread_deepspeed(values["deepspeed"][0]):
            # the DeepSpeed config decides precision and optimizer; not read, so --bf16 says little
            self.deepspeed_unread = True
        self.precision(values, "low" if self.deepspeed_unread else conf, trl, complete)
        if "fsdp" in values:
            self.fsdp(*values["fsdp"], conf)
        if "fsdp_config" in values:
            self.fsdp_config(*values["fsdp_config"], conf)
        if "deepspeed" in values:
            self.deepspeed(*values["deepspeed"])

    def precision(self, values: dict[str, tuple[Any, Source]], conf: str, trl: bool, complete: bool) -> None:
        bf16 = values.get("bf16")
        fp16 = values.get("fp16")
        for key, field in (("fp16", "precision.hf_fp16"), ("bf16", "precision.hf_bf16")):
            # the switch the HF DeepSpeed integration compares with `<key>.enabled` (fill_match)
            item, full_eval = values.get(key), values.get(f"{key}_full_eval")
            if field in FIELDS and item is not None and isinstance(item[0], bool) and not (
                    full_eval is not None and full_eval[0] is not False):
                self.add(field, item[0], item[1], conf)
        on = [(mode, item[1]) for mode, item in (("amp_bf16", bf16), ("amp_fp16", fp16))
              if item is not None and item[0] is True]
        for mode, source in on:
            self.add("precision.mode", mode, source, conf)
        if len(on) == 2:
            self.o.note(f"{on[0][1].location()}: bf16=True and fp16=True together: TrainingArguments raises "
                        "ValueError (\"At most one of fp16 and bf16 can be True\")")
            record_fp16_and_bf16(self.add, fp16[1], bf16[1], conf)  # type: ignore[index]
        off = [item for item in (bf16, fp16) if item is not None and item[0] is False]
        # All explicit False, or (in a call) the missing one defaults to False too.
        if not on and off and (len(off) == 2 or (complete and not (trl and bf16 is None))):
            source = off[0][1]
            if self.o.loads_non_fp32():
                self.o.note(f"{source.location()}: bf16/fp16 off: no autocast; the model is not loaded in fp32, "
                            "so it computes in the dtype of its weights")
                return
            self.add("precision.mode", "fp32",
                       Source(source.kind, source.path, source.line, source.key,
                              (source.detail or "") + ": neither bf16 nor fp16, the Trainer computes in fp32"), conf)

    def fsdp_config(self, value: Any, source: Source, conf: str) -> None:
        """``fsdp_config``: a dict, or a JSON file named on the line (relative to the working
        directory or the script): its ``activation_checkpointing`` turns checkpointing on."""
        data, where = value, source
        if isinstance(value, str) and value.endswith(".json"):
            import json

            for base in (Path(self.o.project.root), Path(str(self.o.script.source.path)).parent):
                path = base / value
                if os.path.isfile(path) and self.o.project.may_read(path):
                    try:
                        data = json.loads(read_text_limited(path, errors="replace"))
                    except (OSError, ValueError):
                        return
                    where = Source("config", value, None, "activation_checkpointing",
                                   f"{value} (fsdp_config named by {source.location()})")
                    break
        if not isinstance(data, dict):
            return
        for key in ("activation_checkpointing", "fsdp_activation_checkpointing"):
            if isinstance(data.get(key), bool):
                self.add("memory.gradient_checkpointing", data[key], where, conf)
                if data[key]:
                    self.add("model.use_cache", True, cache_stays_on(where), "medium")
                return

    def fsdp(self, value: Any, source: Source, conf: str) -> None:
        words = value.split() if isinstance(value, str) else value if isinstance(value, list) else []
        words = [w.lower() for w in words if isinstance(w, str)]
        for word in words:
            if word in _FSDP:
                self.add("dist.sharding", _FSDP[word], source, conf)
        if words and not any(w in _FSDP for w in words):
            self.add("dist.sharding", "fsdp_full", Source(source.kind, source.path, source.line, source.key,
                                                            (source.detail or "") + ": FULL_SHARD by default"), conf)
        if "offload" in words:
            for field in ("dist.offload_params", "dist.offload_optimizer"):
                self.add(field, "cpu", source, conf)

    def loaded_deepspeed(self, value: str) -> list[str]:
        name = Path(value).name
        return [c.path for _, c in self.o.project.configs
                if Path(c.path).name == name and deepspeed_block(c) is not None]

    def unread_deepspeed(self, value: Any) -> bool:
        """``deepspeed="FILE"`` names a file that no loaded DeepSpeed config is."""
        return isinstance(value, str) and bool(value) and not self.loaded_deepspeed(value)

    def deepspeed(self, value: Any, source: Source) -> None:
        if not isinstance(value, str):
            return
        where = source.location() if source.path else f"cli {source.key}"
        loaded = self.loaded_deepspeed(value)
        if loaded:
            self.o.note(f"{where}: deepspeed=\"{value}\": the Trainer runs DeepSpeed with {loaded[0]}, which is "
                        "read by the deepspeed adapter (its \"auto\" values are filled from TrainingArguments)")
        else:
            self.o.note(f"{where}: deepspeed=\"{value}\": the Trainer runs DeepSpeed with that file; pass it with "
                        "--config to have the deepspeed adapter read it (until then precision and optimizer are "
                        "read at low confidence: that file decides them)")

    def defaults(self, site: CallSite, trl: bool, given: set[str], conf: str, label: Optional[str] = None,
                 fp16_on: Optional[bool] = False) -> None:
        """Framework defaults of the keys the call leaves out (kind ``default``)."""
        label = label or site.last or "TrainingArguments"
        sft = label == "SFTConfig"
        conf = "medium" if conf == "high" and not self.deepspeed_unread else "low"

        def default(field: str, value: Any, key: str, detail: str, confidence: str = conf) -> None:
            self.o.add(field, value, self.o.src(site.call, f"{label} default: {detail}", "default", key), confidence)

        span = "transformers 4.35-5.24"
        if "per_device_train_batch_size" not in given:
            default("batch.micro", 8, "per_device_train_batch_size", f"per_device_train_batch_size=8 ({span})")
        if "gradient_accumulation_steps" not in given:
            default("batch.grad_accum", 1, "gradient_accumulation_steps", f"gradient_accumulation_steps=1 ({span})")
        if sft and "bf16" not in given and fp16_on is False and self.o.trl_at_least(0, 19):
            default("precision.mode", "amp_bf16", "bf16",
                    f"bf16=None -> True unless fp16 (TRL >= 0.19; {self.o.trl_text()})")
        elif "bf16" not in given and "fp16" not in given and not self.o.loads_non_fp32():
            default("precision.mode", "fp32", "bf16", f"bf16=False, fp16=False: fp32 ({span})")
        if "gradient_checkpointing" not in given and "activation_checkpointing" not in given:
            if sft and self.o.trl_at_least(0, 22):
                default("memory.gradient_checkpointing", True, "gradient_checkpointing",
                        f"gradient_checkpointing=True (TRL >= 0.22; {self.o.trl_text()})")
            else:
                default("memory.gradient_checkpointing", False, "gradient_checkpointing",
                        f"gradient_checkpointing=False ({span})")
        if "torch_compile" not in given:
            default("compile.enabled", False, "torch_compile", f"torch_compile=False ({span})")
        if "dataloader_num_workers" not in given:
            # the Trainer's DataLoader takes num_workers=args.dataloader_num_workers (default 0 in
            # every release: the batches are loaded in the main process)
            default("data.num_workers", 0, "dataloader_num_workers", f"dataloader_num_workers=0 ({span})")
        if "dataloader_pin_memory" not in given:
            # the Trainer's DataLoader takes pin_memory=args.dataloader_pin_memory (default True)
            default("data.pin_memory", True, "dataloader_pin_memory", f"dataloader_pin_memory=True ({span})")
        if sft and not given & set(_SEQ_KEYS) and self.o.trl_at_least(0, 16):
            default("data.seq_len", 1024, "max_length", f"max_length=1024 (TRL >= 0.16; {self.o.trl_text()})")
        if "optim" not in given:
            self.default_optim(site, label, conf)

    def default_optim(self, site: CallSite, label: str, conf: str) -> None:
        from preflight.adapters.transformers_version import default_optim

        name, detail = default_optim(self.o.transformers, self.o.torch)
        if name is None:
            self.o.note(f"{self.where(site.line)}: {label} {detail}")
            return
        self.o.add("optimizer.name", name, self.o.src(site.call, f"{label} default: {detail}", "default", "optim"),
                   conf)


def imported_subclass(script: Any, qualified: str) -> Optional[tuple[ast.ClassDef, str, str]]:
    """(class, file shown, library base) of ``pkg.mod.Cls``, a class of a local module deriving from
    transformers'/TRL's argument class (princeton-nlp/ProLong @ 907dcf4 ``training/train_language_model.py:17,99``
    ``from training.trainer import TrainingArguments`` and ``HfArgumentParser((ScriptArguments,
    TrainingArguments, DataArguments))``; ``training/trainer.py:73,234-235`` ``class
    TrainingArguments(HfTrainingArguments)`` with ``from transformers import TrainingArguments as
    HfTrainingArguments``); None otherwise. Read, never imported."""
    from preflight.local_trees import parse_file
    from preflight.script_parsers import _module_file

    module, _, name = qualified.rpartition(".")
    if not module or script.source.path is None:
        return None
    path = _module_file(Path(str(script.source.path)).parent, module)
    if path is None:
        return None
    try:
        if path.stat().st_size > 2_000_000:
            return None
        tree = parse_file(path)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    imports: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                imports[a.asname or a.name] = f"{node.module}.{a.name}"
        elif isinstance(node, ast.Import):
            for a in node.names:
                imports[a.asname or a.name] = a.name
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name]
    if len(classes) != 1:
        return None
    for base in classes[0].bases:
        dotted = dotted_name(base) or ""
        head, _, rest = dotted.partition(".")
        q = imports.get(head, head) + (f".{rest}" if rest else "")
        if q.startswith(("transformers.", "trl.")) and q.rsplit(".", 1)[-1] in ARG_CLASSES:
            try:
                shown = os.path.relpath(path, Path(str(script.source.path)).parent)
            except ValueError:
                shown = path.name
            return classes[0], shown, q
    return None


def _default_factory_call(site: CallSite) -> bool:
    """The call is the body of a ``default_factory=lambda: ...`` (a dataclass field's fallback)."""
    for node in ast.walk(site.script.tree):
        if (isinstance(node, ast.keyword) and node.arg == "default_factory" and isinstance(node.value, ast.Lambda)
                and node.value.body is site.call):
            return True
    return False


def _key_bound_to(site: CallSite, name: str) -> Optional[tuple[str, ...]]:
    """``training_args = kwargs.get('training_args')`` (or ``kwargs['training_args']``), the one
    assignment of ``name`` in the function around the call: the config key it takes
    (THUDM/ChatGLM3 finetune_demo/finetune_hf.py:184-194 builds Seq2SeqTrainingArguments from
    the ``training_args`` section of its YAML). None when it is not exactly that."""
    line = getattr(site.call, "lineno", 0)
    for node in ast.walk(site.script.tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.name != site.function:
            continue
        if not (node.lineno <= line <= (node.end_lineno or node.lineno)):
            continue
        values = [a.value for a in ast.walk(node) if isinstance(a, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == name for t in a.targets)]
        if len(values) != 1:
            return None
        value = values[0]
        if (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "get"
                and value.args and isinstance(value.args[0], ast.Constant) and isinstance(value.args[0].value, str)):
            base = unpacked_key_path(value.func.value)
            return None if base is None else (*base, value.args[0].value)
        path = unpacked_key_path(value)
        return path if path else None
    return None


def _hf(site: CallSite) -> bool:
    q = site.qualified or ""
    return q.startswith(("transformers.", "trl."))

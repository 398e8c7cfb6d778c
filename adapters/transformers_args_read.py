"""Where TrainingArguments / TRL config values are found: the call's keywords, attribute writes, unpacked dicts, HfArgumentParser files and the script's .args file, a local subclass's defaults.

Part of :mod:`preflight.adapters.transformers_args` (its ``ArgsPass``), split by concern."""

from __future__ import annotations

import ast
import os
import shlex
from pathlib import Path
from typing import Any, Optional, Union, cast

from preflight.adapters.deepspeed import deepspeed_block
from preflight.adapters.transformers_args_apply import (
    ARG_CLASSES,
    TRAINING_KEYS,
    TRL_CONFIGS,
    _ArgsApply,
    _statements,
)

from preflight.adapters_api import CallSite
from preflight.analysis.syntax import config_at, dotted_name, unpacked_key_path
from preflight.plan import Source
from preflight.script_argv import opaque_words
from preflight.sources import read_text_limited

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


def imported_subclass(script: Any, qualified: str) -> Optional[tuple[ast.ClassDef, str, str]]:
    """(class, file shown, library base) of ``pkg.mod.Cls``, a class of a local module deriving from
    transformers'/TRL's argument class (princeton-nlp/ProLong @ 907dcf4 ``training/train_language_model.py:17,99``
    ``from training.trainer import TrainingArguments`` and ``HfArgumentParser((ScriptArguments,
    TrainingArguments, DataArguments))``; ``training/trainer.py:73,234-235`` ``class
    TrainingArguments(HfTrainingArguments)`` with ``from transformers import TrainingArguments as
    HfTrainingArguments``); None otherwise. Read, never imported."""
    from preflight.local_trees import parse_small_file
    from preflight.script_parsers import _module_file

    module, _, name = qualified.rpartition(".")
    if not module or script.source.path is None:
        return None
    path = _module_file(Path(str(script.source.path)).parent, module)
    tree = parse_small_file(path) if path is not None else None
    if path is None or tree is None:
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



class _ArgsRead(_ArgsApply):
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
        trainers = [(s, arg) for s in self.o.calls if (s.last or "").endswith("Trainer")
                    and isinstance(arg := s.kwarg("args"), ast.Name)]
        done: set[tuple[str, int]] = set()
        for site, arg in trainers:
            name = arg.id
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

    # -- the call in the script ------------------------------------------------
    def from_call(self, site: CallSite, trl: bool) -> None:
        conf = self.o.conf(site)
        values: dict[str, tuple[Any, Source]] = {}
        keywords = [(kw.arg, kw.value) for kw in site.call.keywords if kw.arg is not None]
        unpacked: list[ast.keyword] = []
        written: set[str] = set()
        for kw in site.call.keywords:
            if kw.arg is not None:
                continue
            arms = self.literal_arms(kw.value)
            if arms is None:
                unpacked.append(kw)
                continue
            # ``**({"warmup_steps": ...} if _TRANSFORMERS_V5 else {"warmup_ratio": ...})``
            # (amazon-science/chronos-forecasting @ 95185d1 scripts/training/train.py:666): the keys of the
            # arms that may run are written; a key every such arm gives the same expression is read as a keyword
            keys = {str(k.value) for arm in arms for k in arm.keys if isinstance(k, ast.Constant)}
            written |= keys
            for key in sorted(keys):
                exprs = [next((v for k, v in zip(arm.keys, arm.values)
                               if isinstance(k, ast.Constant) and k.value == key), None) for arm in arms]
                if all(e is not None for e in exprs) and len({ast.dump(e) for e in exprs if e is not None}) == 1:
                    keywords.append((key, cast(ast.expr, exprs[0])))
        for arg, expr in keywords:
            if arg not in TRAINING_KEYS:
                continue
            resolved = self.o.idx.resolve(expr)
            if resolved is None:
                if arg == "deepspeed" and isinstance(expr, ast.Dict):
                    self.o.note(f"{self.where(site.line)}: {site.label}(deepspeed={{...}}): an inline DeepSpeed "
                                "config dict; not read")
                continue
            what = f"{site.last}({arg}=...)"
            if resolved.kind == "cli":
                source = Source("cli", None, None, resolved.key, f"{what}: {resolved.detail}")
            else:
                detail = f"{what}; {resolved.detail}" if resolved.detail else what
                source = self.o.src(resolved.line or site.line, detail, key=resolved.key)
            if resolved.cap is not None:
                self.caps[id(source)] = resolved.cap
            values[arg] = (resolved.value, source)
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
        written |= {kw.arg for kw in site.call.keywords if kw.arg}
        fp16_on = (fp16[0] is True) if fp16 is not None else (None if "fp16" in written else False)
        self.defaults(site, trl, set(values) | written, conf, fp16_on=fp16_on)

    def literal_arms(self, expr: ast.expr) -> Optional[list[ast.Dict]]:
        """The dict displays ``**expr`` may unpack: ``{...}`` itself, or the arms of ``{...} if c else
        {...}`` (only the arm ``c`` selects when it is known); None for anything else."""
        if isinstance(expr, ast.Dict):
            ok = all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in expr.keys)
            return [expr] if ok else None
        if not isinstance(expr, ast.IfExp):
            return None
        test = self.o.idx.resolve(expr.test)
        if test is not None and isinstance(test.value, bool):
            return self.literal_arms(expr.body if test.value else expr.orelse)
        body, orelse = self.literal_arms(expr.body), self.literal_arms(expr.orelse)
        return None if body is None or orelse is None else body + orelse

    def from_unpacked(self, site: CallSite, unpacked: list[ast.keyword]) -> Optional[dict[str, tuple[Any, Source]]]:
        """``TrainingArguments(**cfg["training"])``: the mapping at that key path of a YAML/JSON
        config given to the audit (``--config``), when exactly one holds it. None when any
        unpacked mapping cannot be found."""
        out: dict[str, tuple[Any, Source]] = {}
        for kw in unpacked:
            if isinstance(kw.value, ast.Name):
                from preflight.adapters.fire_kwargs import fire_kwargs

                fired = fire_kwargs(self.o.idx, site.function, kw.value.id)  # fire's **kwargs: the line's rest
                if fired is not None:
                    for key, (value, said) in fired.items():
                        if key not in TRAINING_KEYS:
                            continue
                        converted = convert(key, value)
                        if converted is None:
                            return None  # a key given a value not read: the mapping is not known
                        out[key] = (converted, Source("cli", None, None, f"--{key}",
                                                      f"{site.last}(**{kw.value.id}): {said} (fire)"))
                    continue
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

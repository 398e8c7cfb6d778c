"""The options a job's script declares, read without running it (argparse, dataclasses with
``HfArgumentParser``/``TrlParser``, ``fire.Fire``, click, typer, the library argument classes),
and the values a launch line gives them. Used by :mod:`preflight.adapters.cliargs`."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.cliargs_frontends import (  # noqa: F401  (moved; re-exported)
    _ARCH,
    _LIBRARY,
    _LIBRARY_DOC,
    Declared,
    Option,
    _call_parse,
    _class_attribute,
    _click,
    _config_file_parser,
    _from_trl,
    _library_classes,
    _literal,
    _name_of,
    _trailing_comment,
    _type_kind,
    _typer,
    is_call_parse,
    prefer_given,
)

from preflight.adapters_api import Project
from preflight.local_trees import nodes_of, source_and_tree
from preflight.sources import ParsedPython

_MAX_MODULES = 12
# a script that may declare options or have side effects this adapter reads (cheap text check;
# with a launch line, the options may be declared in a module the script imports)
_DECLARES = re.compile(r"add_argument|dataclass|Fire\(|HfArgumentParser|TrlParser|call_parse|"
                       r"prepare_model_for_(kbit|int8)_training|__dict__\[")
_MAX_BYTES = 1_000_000


def _metadata_help(node: Optional[ast.AST]) -> str:
    """The ``help`` of a dataclass field's ``metadata={"help": "..."}`` (HfArgumentParser's convention)."""
    if isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values):
            if isinstance(key, ast.Constant) and key.value == "help" \
                    and isinstance(value, ast.Constant) and isinstance(value.value, str):
                return value.value
    return ""
















def _collect(tree: ast.Module, display: str, decl: Declared, text: str = "") -> list[tuple[str, str]]:
    """Declarations of one module; returns its local imports (module, name). A typed-argument-parser
    ``class Args(Tap)`` documents each option by the comment after it (``bs: int = 768  # global batch
    size``, FoundationVision/VAR utils/arg_util.py:48): that comment is the option's help."""
    lines = text.splitlines() if text else []
    imports: list[tuple[str, str]] = []
    dataclasses_: list[ast.ClassDef] = []
    fire_targets: list[str] = []
    funcs: dict[str, ast.FunctionDef] = {}
    tuples: dict[str, ast.expr] = {}
    set_defaults: list[tuple[str, Any, int]] = []
    for node in nodes_of(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, (ast.Tuple, ast.List)):
            tuples[node.targets[0].id] = node.value
    for node in nodes_of(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            imports.extend((node.module, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level:
            # relative: resolved against the importing module's folder
            imports.extend(("." * node.level + (node.module or ""), a.name) for a in node.names)
        elif isinstance(node, ast.Import):
            # ``import config`` of a local package whose module adds the options to the script's parser
            # (epfml/llm-baselines src/main.py:14 -> config/__init__.py -> config/base.py parse_args)
            imports.extend((a.name, "") for a in node.names)
        elif isinstance(node, ast.ClassDef):
            dataclasses_.append(node)
            decl.bases.setdefault(node.name, [_name_of(b) for b in node.bases])
            if any(_name_of(b) in ("HfArgumentParser", "TrlParser") for b in node.bases):
                decl.parser_classes.append(node.name)  # a project's own parser (alignment's H4ArgumentParser)
        elif isinstance(node, ast.FunctionDef):
            funcs.setdefault(node.name, node)
            if any(_config_file_parser(d) for d in node.decorator_list) and "pyrallis" not in decl.parsers:
                decl.parsers.append("pyrallis")  # ``@pyrallis.wrap()`` over ``def train(config: TrainConfig)``
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "__dict__" and isinstance(node.slice, ast.Attribute) \
                and node.slice.attr in _ARCH:
            decl.arch_lookup = True
        elif isinstance(node, ast.Call):
            fname = _name_of(node.func)
            if fname == "getattr" and len(node.args) == 2 and isinstance(node.args[1], ast.Attribute) \
                    and node.args[1].attr in _ARCH:
                decl.arch_lookup = True
            if _config_file_parser(node) and "pyrallis" not in decl.parsers:
                decl.parsers.append("pyrallis")  # ``cfg = pyrallis.parse(config_class=TrainConfig)``
            if fname == "add_argument":
                _argparse(node, display, decl)
            elif fname.startswith("DEFINE_"):
                # flags.DEFINE_integer("batch_size", 128), read as FLAGS.batch_size
                from preflight.adapters.absl_flags import absl_define

                absl_define(node, fname, display, decl, Option)
            elif fname == "set_defaults" and isinstance(node.func, ast.Attribute):
                for given in node.keywords:
                    ok, value = _literal(given.value)
                    if given.arg is not None and ok:
                        set_defaults.append((given.arg, value, node.lineno))
            elif fname == "option" and isinstance(node.func, ast.Attribute) and _name_of(node.func.value) == "click":
                _click(node, display, decl)
            elif (fname in ("HfArgumentParser", "TrlParser") and node.args) or (
                    fname == "add_parser" and any(k.arg == "dataclass_types" for k in node.keywords)):
                decl.parsers.append("TrlParser" if fname == "add_parser" else fname)
                arg = node.args[0] if fname != "add_parser" else \
                    next(k.value for k in node.keywords if k.arg == "dataclass_types")
                if isinstance(arg, ast.Name) and arg.id in tuples:
                    arg = tuples[arg.id]
                _library_classes(arg, decl, tree)
            elif node.args and isinstance(node.args[0], (ast.Tuple, ast.List)) and fname[:1].isupper():
                decl.maybe_parsers.append((fname, node.args[0], tree))  # a parser class defined elsewhere?
            elif fname == "Fire" and node.args and isinstance(node.args[0], ast.Name):
                decl.parsers.append("fire")
                fire_targets.append(node.args[0].id)
    for cls in dataclasses_:
        tap = any(_name_of(b) == "Tap" for b in cls.bases)
        if any(_name_of(b) in ("TrainingArguments", "Seq2SeqTrainingArguments") for b in cls.bases):
            for key, value in {**_LIBRARY["TrainingArguments"], "fsdp": "", "fp16": False}.items():
                inherited = Option(key, value, True, isinstance(value, bool), f"{display}:{cls.lineno}", "library",
                                   library="TrainingArguments")
                if key in decl.owners:  # an earlier class's own field: this class inherits the library's
                    decl.shadowed.append((cls.name, inherited))
                decl.add(inherited)
        elif any(_name_of(b) in ("ModelConfig", "SFTConfig", "DPOConfig") and _from_trl(tree, b) for b in cls.bases):
            # a project subclass of TRL's ModelConfig/SFTConfig inherits its fields and defaults
            # (rhymes-ai/Aria @ 9b25fecb aria/config.py:27-28 ``class AriaModelConfig(ModelConfig)``); a project's
            # own class of that name (TRI-ML/prismatic-vlms ``ModelConfig(ChoiceRegistry)``) is not TRL's
            lib = next(_name_of(b) for b in cls.bases if _name_of(b) in ("ModelConfig", "SFTConfig", "DPOConfig"))
            for key, value in _LIBRARY[lib].items():
                decl.add(Option(key, value, True, isinstance(value, bool), _LIBRARY_DOC[lib], "library", library=lib))
        for stmt in cls.body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                value = stmt.value
                meta_help = ""
                if isinstance(value, ast.Call) and _name_of(value.func) == "field":
                    kw = {k.arg: k.value for k in value.keywords}
                    value = kw.get("default")
                    meta_help = _metadata_help(kw.get("metadata"))
                if isinstance(value, ast.Name):
                    value = _class_attribute(cls, value.id, stmt.lineno) or value
                ok, default = _literal(value)
                ann = ast.unparse(stmt.annotation) if hasattr(ast, "unparse") else ""
                trainer = any(_name_of(b) in ("TrainingArguments", "Seq2SeqTrainingArguments") for b in cls.bases)
                opt = Option(stmt.target.id, default, ok, "bool" in ann, f"{display}:{stmt.lineno}",
                             "tap" if tap else "dataclass",
                             help=_trailing_comment(lines, stmt.end_lineno or stmt.lineno) if tap
                             else meta_help if trainer else "",
                             library="TrainingArguments" if trainer else "")
                held = decl.options.get(stmt.target.id)
                if trainer and held is not None and held.origin == "library" and (
                        held.where == f"{display}:{cls.lineno}" or held.library == "TrainingArguments"):
                    # (also when the parser's tuple names the subclass by the library's own name,
                    # facebookresearch/MobileLLM utils/process_args.py:45,59 ``class TrainingArguments(
                    # transformers.TrainingArguments)`` in ``HfArgumentParser((..., TrainingArguments))``)
                    # the subclass redeclares a TrainingArguments field: its default wins over the library's
                    # (InternLM/xtuner xtuner/apis/training_args.py:44-47 per_device_train_batch_size 1)
                    decl.options[stmt.target.id] = opt
                    decl.owners[stmt.target.id] = cls.name
                elif held is not None and held.origin in ("dataclass", "tap") and held.where != opt.where:
                    decl.shadowed.append((cls.name, opt))
                else:
                    decl.add(opt)
                    if decl.options[stmt.target.id] is opt:
                        decl.owners[stmt.target.id] = cls.name
    for typer_fn in funcs.values():
        _typer(typer_fn, display, decl)
        _call_parse(typer_fn, display, decl)
    for name in fire_targets:
        fn = funcs.get(name)
        if fn is None:
            continue
        decl.fire_functions.append(fn)
        args = fn.args.args + fn.args.kwonlyargs
        defaults = [None] * (len(fn.args.args) - len(fn.args.defaults)) + list(fn.args.defaults) + \
            list(fn.args.kw_defaults)
        for a, d in zip(args, defaults):
            ok, default = _literal(d)
            decl.add(Option(a.arg, default, ok, isinstance(default, bool), f"{display}:{a.lineno}", "fire"))
    _apply_set_defaults(set_defaults, display, decl)
    return imports


def _apply_set_defaults(found: list[tuple[str, Any, int]], display: str, decl: Declared) -> None:
    """``parser.set_defaults(pin_mem=True)``: argparse gives it to every action of that ``dest``
    declared before it (``ArgumentParser.set_defaults`` sets ``action.default``), and to one declared
    after it unless that one writes its own ``default=`` (``add_argument`` takes the parser default
    only when none is given). So ``--pin_mem`` (store_true) and ``--no_pin_mem`` (store_false, same
    dest) then ``set_defaults(pin_mem=True)`` default to True (MCG-NJU/VideoMAE
    run_class_finetuning.py:176-179). Only options of the same module are changed."""
    for name, value, line in found:
        opt = decl.options.get(name)
        if opt is None or opt.origin != "argparse":
            continue
        where, _, at = opt.where.rpartition(":")
        if where != display or not at.isdigit():
            continue
        if int(at) < line or not opt.explicit:
            opt.default, opt.has_default = value, True
            opt.where = f"{display}:{line}"


















def _argparse(call: ast.Call, display: str, decl: Declared) -> None:
    flags = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    longs = [f for f in flags if f.startswith("--")]
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    dest_ok, dest = _literal(kw.get("dest"))
    names = [f[2:].replace("-", "_") for f in longs] or [f[1:] for f in flags if f.startswith("-")]
    if dest_ok and isinstance(dest, str):
        names.append(dest)
    ok, default = _literal(kw.get("default"))
    action_ok, action = _literal(kw.get("action"))
    flag_only = action_ok and action in ("store_true", "store_false")
    explicit = ok
    if flag_only and not ok:
        ok, default = True, action == "store_false"
    help_ok, help_text = _literal(kw.get("help"))
    choices_ok, choices = _literal(kw.get("choices"))
    choices = tuple(choices) if choices_ok and isinstance(choices, (list, tuple)) \
        and all(isinstance(c, str) for c in choices) else ()
    if flag_only and dest_ok and isinstance(dest, str):
        # the flags store into ``dest`` alone (argparse makes no attribute of the flag's name)
        for flag in longs:
            short = flag[2:].replace("-", "_")
            if short != dest:
                decl.flag_sets.setdefault(short, (dest, action == "store_true"))
        names = [dest]
    for flag in flags:
        short = flag.lstrip("-").replace("-", "_")
        if names and short != names[0]:
            decl.aliases.setdefault(short, names[0])
    names = names[:1] + [n for n in names[1:] if n != names[0]]
    if names and "." in names[0]:
        # grouped options (OpenRLHF's --train.micro_batch_size): known by their last part too,
        # when no other option of the job ends the same way
        short = names[0].rsplit(".", 1)[-1]
        decl.dotted[short] = None if short in decl.dotted else names[0]
        if "lora" in names[0].split(".")[:-1] and short in ("rank", "r", "dim"):
            decl.dotted["lora_rank"] = None if "lora_rank" in decl.dotted else names[0]  # --ds.lora.rank
    nargs_ok, nargs = _literal(kw.get("nargs"))
    count = nargs if nargs_ok and isinstance(nargs, int) and not isinstance(nargs, bool) and nargs >= 2 else 1
    kind = _type_kind(kw.get("type"))
    for name in names:
        decl.add(Option(name, default, ok, flag_only, f"{display}:{call.lineno}", "argparse",
                        help=help_text if help_ok and isinstance(help_text, str) else "", choices=choices,
                        explicit=explicit, nargs=count, kind=kind))
    decl.parsers.append("argparse")


def _local_module(module: str, bases: list[Path]) -> Optional[Path]:
    rel = module.replace(".", "/")
    for base in bases:
        for cand in (base / f"{rel}.py", base / rel / "__init__.py"):
            if cand.is_file():
                return cand
    return None


def declared_options(script: ParsedPython, project: Project) -> Declared:
    """The options the script and the project modules it imports declare, read once per
    audit (the cliargs adapter, the precision-by-absence derivation and the value_flow adapter
    all ask). Callers must not change the result."""
    held = project.cache.setdefault("cliargs.declared", {})
    found = held.get(id(script))
    if found is None or found[0] is not script:
        found = held[id(script)] = (script, _declared_options(script, project))
    return found[1]


def _declared_options(script: ParsedPython, project: Project) -> Declared:
    decl = Declared()
    display = str(script.source.display)
    imports = _collect(script.tree, display, decl, script.source.text)
    trees: list[tuple[ast.Module, str]] = [(script.tree, display)]
    decl.no_abbrev = "allow_abbrev" in script.source.text
    path = Path(str(script.source.path))
    bases: list[Path] = []
    d = path.resolve().parent
    for _ in range(8):  # a package module deep in its repository (FlagEmbedding/finetune/embedder/encoder_only/base)
        bases.append(d)
        if (d / ".git").exists() or d.parent == d:
            break
        d = d.parent
    bases += [b / "src" for b in bases if (b / "src").is_dir()]  # the src layout (OptimalScale/LMFlow src/lmflow)
    seen: set[str] = set()
    queue = [(m, n, path.resolve().parent) for m, n in imports]
    count = 0
    while queue and count < _MAX_MODULES:
        module, name, here = queue.pop(0)
        wanted = {name} | {n for m, n, h in queue if m == module and h == here}
        search = bases
        if module.startswith("."):
            level = len(module) - len(module.lstrip("."))
            folder = here
            for _ in range(level - 1):
                folder = folder.parent
            module, search = module.lstrip("."), [folder]
            if not module:
                module, name = name, ""
        if not module or module.split(".")[0] in ("torch", "transformers", "trl", "peft", "accelerate",
                                                  "deepspeed", "datasets", "numpy", "os", "sys"):
            continue
        found = _local_module(module, search) or (_local_module(f"{module}.{name}", search) if name else None)
        if found is None or str(found) in seen or not project.may_read(found):
            continue
        seen.add(str(found))
        try:
            if found.stat().st_size > _MAX_BYTES:
                continue
            text, tree = source_and_tree(found)
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        decl.texts.append(text)
        decl.no_abbrev = decl.no_abbrev or "allow_abbrev" in text
        count += 1
        shown = os.path.relpath(found, project.root) if str(found).startswith(str(project.root)) else str(found)
        more = [(m, n, found.parent) for m, n in _collect(tree, shown, decl, text)]
        # the name the importer wanted, imported here from elsewhere (a re-export: musubi-tuner @ 30c658c
        # wan_train_network.py takes setup_parser_common from hv_train_network, which imports it from
        # training/parser_common.py): its module next, before the other imports wait their turn
        # A package imported whole (``import config``) whose ``__init__.py`` imports its own modules
        # (``from . import base``, epfml/llm-baselines src/config/): those are what the package is, next too
        # A class some HfArgumentParser read so far is handed (hiyouga/ChatGLM-Efficient-Tuning @ 3c12daa
        # src/glmtuner/tuner/core/parser.py:10-26 takes ModelArguments, ... from glmtuner.hparams, whose
        # __init__.py imports each from its own module): its module next too, before the module cap is spent
        # on the rest of the package (the sft/rm/ppo workflows the same __init__.py imports)
        whole = found.name == "__init__.py" and not name
        ahead = [entry for entry in more if (entry[1] and (entry[1] in wanted or entry[1] in decl.given))
                 or (whole and entry[0].startswith("."))]
        queue[:0] = ahead
        queue.extend(entry for entry in more if entry not in ahead)
        trees.append((tree, shown))
    if "add_argument(f" in script.source.text or any("add_argument(f" in t for t in decl.texts):
        from preflight.adapters.cliargs_dict_options import dict_helper_options

        dict_helper_options(trees, decl, Option)
    if "prefigure" in script.source.text or any("prefigure" in t for t in decl.texts):
        _prefigure(script, project, decl)
    for fname, arg, where in decl.maybe_parsers:
        if fname in decl.parser_classes:
            decl.parsers.append("HfArgumentParser")
            _library_classes(arg, decl, where)
    prefer_given(decl)
    for short, full in decl.dotted.items():
        if full is not None and short not in decl.options:
            opt = decl.options[full]
            decl.options[short] = Option(short, opt.default, opt.has_default, opt.flag_only, opt.where, opt.origin,
                                         opt.help, opt.library)
    return decl


def _prefigure(script: ParsedPython, project: Project, decl: Declared) -> None:
    """``args = get_all_args()`` of prefigure (drscotthawley/prefigure prefigure/prefigure.py:
    ``read_defaults`` reads the ``[DEFAULTS]`` section of ``defaults.ini`` in the working directory,
    or the ``--config-file`` the launch line names; ``setup_args`` adds each key as ``--key-name``
    with the ``literal_eval`` of its value as default and the comment line above it as help).
    Stability-AI/stable-audio-tools @ 50049e3 ``train.py:26`` + ``defaults.ini``."""
    import configparser

    if not re.search(r"\bget_all_args\(", "\n".join([script.source.text, *decl.texts])):
        return
    args = project.script_args(script)
    name = "defaults.ini"
    for k, tok in enumerate(args):
        if tok == "--config-file" and k + 1 < len(args):
            name = args[k + 1]
        elif tok.startswith("--config-file="):
            name = tok.split("=", 1)[1]
    path = Path(str(project.root)) / name
    if path.suffix != ".ini" or not path.is_file() or not project.may_read(path):
        return
    try:
        from preflight.sources import read_text_limited

        text = read_text_limited(path, errors="replace")[:_MAX_BYTES]
        parser = configparser.ConfigParser(interpolation=None)
        parser.optionxform = str  # type: ignore[assignment,method-assign]
        parser.read_string(text)
        items = dict(parser.items("DEFAULTS")) if parser.has_section("DEFAULTS") else {}
    except (configparser.Error, OSError, ValueError):
        return
    lines = text.splitlines()
    shown = os.path.relpath(path, project.root)
    decl.parsers.append("prefigure")
    for key, raw in items.items():
        if key in ("wandb_config", "config_file"):
            break  # setup_args stops there
        lineno = next((i + 1 for i, line in enumerate(lines) if re.match(rf"\s*{re.escape(key)}\s*[=:]", line)), 0)
        above = lines[lineno - 2].strip() if lineno >= 2 else ""
        ok, value = _literal(ast.parse(raw, mode="eval").body) if _parses(raw) else (False, None)
        if not ok:
            value = raw  # literal_eval failed: the text itself
        decl.add(Option(key, value, True, isinstance(value, bool), f"{shown}:{lineno}", "prefigure",
                        help=above.lstrip("#").strip() if above.startswith("#") else ""))


def _parses(text: str) -> bool:
    try:
        ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _cli_values(args: list[str], decl: Declared) -> dict[str, tuple[Any, str]]:
    """``--name value``/``--name=value``/``--flag``/``--no_flag`` for declared names."""
    out: dict[str, tuple[Any, str]] = {}
    i = 0
    positional: list[str] = []
    while i < len(args):
        tok = args[i]
        i += 1
        if not tok.startswith("-") or tok == "--":
            if tok != "--":
                positional.append(tok)
            continue
        raw, eq, value = tok.lstrip("-").partition("=")
        name = raw.replace("-", "_")
        if not eq and name in decl.flag_sets and name not in decl.options:
            dest, stored = decl.flag_sets[name]
            out[dest] = (stored, tok)
            continue
        name = decl.aliases.get(name, name) if name not in decl.options else name
        negated = False
        if name not in decl.options and name.startswith("no_") and name[3:] in decl.options:
            name, negated = name[3:], True
        if name not in decl.options and name not in decl.dotted and tok.startswith("--"):
            name = decl.abbreviation(name) or name
        opt = decl.options.get(name)
        if opt is None:
            continue
        if eq:
            out[name] = (value, tok)
        elif negated:
            out[name] = (False, tok)
        elif opt.flag_only and (i >= len(args) or args[i].startswith("-")
                                or args[i].lower() not in ("true", "false", "1", "0")):
            out[name] = (True, tok)
        elif opt.nargs > 1 and i + opt.nargs <= len(args) \
                and not any(a.startswith("--") for a in args[i:i + opt.nargs]):
            words = " ".join(args[i:i + opt.nargs])  # ``--input-size 3 224 224`` (nargs=3)
            out[name] = (words, f"{tok} {words}")
            i += opt.nargs
        elif i < len(args) and not args[i].startswith("--"):
            out[name] = (args[i], f"{tok} {args[i]}")
            i += 1
        else:
            out[name] = (True, tok)
    for short, full in decl.dotted.items():
        if full is not None and full in out:
            out.setdefault(short, out[full])
    for name, tok in zip(decl.positionals, positional):  # typer arguments, in order
        out.setdefault(name, (tok, f"{tok} (positional argument {name})"))
    return out

"""What an option is (:class:`Option`, :class:`Declared`) and the command-line front-ends other than
argparse that declare options (typer, click, fastcore's ``call_parse``, the library argument classes,
TRL's parser), plus the literal and comment helpers they share with the argparse reader of
:mod:`preflight.adapters.cliargs_options`."""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight._record import dataclass, field
from preflight.analysis.syntax import dotted_name

_ARCH = ("arch", "a", "architecture")


# Library argument classes: the options they declare that matter here, with their defaults.
_TRL = "trl library"


_LIBRARY: dict[str, dict[str, Any]] = {
    "SFTConfig": {"max_length": 1024, "max_seq_length": None, "gradient_checkpointing": True, "bf16": True,
                  "per_device_train_batch_size": 8, "gradient_accumulation_steps": 1, "optim": None,
                  "use_liger_kernel": False, "torch_compile": False, "dataloader_num_workers": 0,
                  "packing": False},
    "DPOConfig": {"max_length": 1024, "gradient_checkpointing": True, "bf16": True,
                  "per_device_train_batch_size": 8, "gradient_accumulation_steps": 1, "optim": None,
                  "use_liger_kernel": False, "torch_compile": False, "dataloader_num_workers": 0},
    "TrainingArguments": {"per_device_train_batch_size": 8, "gradient_accumulation_steps": 1,
                          "gradient_checkpointing": False, "bf16": False, "optim": None,
                          "use_liger_kernel": False, "torch_compile": False, "dataloader_num_workers": 0,
                          # -1 unless a launcher passes --local_rank (every release): a copied
                          # _setup_devices joins a process group only for another value (DiffCSE train.py:200-247)
                          "local_rank": -1},
    "ModelConfig": {"model_name_or_path": None, "use_peft": False, "lora_r": 16, "load_in_4bit": False,
                    "load_in_8bit": False, "attn_implementation": None, "bnb_4bit_quant_type": "nf4",
                    "use_bnb_nested_quant": False,
                    # the dtype the script's load is given (``torch_dtype``; ``dtype`` in later TRL releases)
                    "torch_dtype": None, "dtype": None},
}


_LIBRARY_DOC = {"SFTConfig": "trl SFTConfig (trl/trainer/sft_config.py: max_length 1024, gradient_checkpointing "
                             "and bf16 default to True)",
                "DPOConfig": "trl DPOConfig (trl/trainer/dpo_config.py: max_length 1024, gradient_checkpointing "
                             "and bf16 default to True)",
                "TrainingArguments": "transformers TrainingArguments",
                "ModelConfig": "trl ModelConfig (trl/trainer/model_config.py)"}


@dataclass
class Option:
    name: str
    default: Any = None
    has_default: bool = False
    flag_only: bool = False  # store_true / bool field: given alone means True
    where: str = ""  # file:line of the declaration
    origin: str = ""  # argparse, dataclass, fire, library
    help: str = ""
    library: str = ""
    choices: tuple = ()  # the values the parser accepts (argparse ``choices=``, fastcore ``Param(choices=)``)
    explicit: bool = True  # the default was written (``default=``), not implied by the action
    nargs: int = 1  # argparse ``nargs=N`` (N >= 2): the next N words are its value, kept joined by spaces
    kind: str = ""  # the declared ``type=int``/``type=float`` ("int", "float"): the parser converts the word


@dataclass
class Declared:
    options: dict[str, Option] = field(default_factory=dict)
    parsers: list[str] = field(default_factory=list)  # HfArgumentParser, TrlParser, argparse, fire
    aliases: dict[str, str] = field(default_factory=dict)  # "a" (from -a) -> "arch"
    fire_functions: list = field(default_factory=list)  # the FunctionDef nodes given to fire.Fire
    texts: list = field(default_factory=list)  # the text of each local module read
    arch_lookup: bool = False  # models.__dict__[args.arch] / getattr(models, args.arch)
    parser_classes: list = field(default_factory=list)  # local subclasses of HfArgumentParser/TrlParser
    dotted: dict = field(default_factory=dict)  # "micro_batch_size" -> "train.micro_batch_size" (None: ambiguous)
    maybe_parsers: list = field(default_factory=list)  # (name, tuple, module tree) calls: a parser if the class is one
    positionals: list = field(default_factory=list)  # typer.Argument parameters, in order
    no_abbrev: bool = False  # a parser built with ``allow_abbrev=False`` somewhere in the modules read
    # ``--no_pin_mem`` (store_false, ``dest="pin_mem"``): the flag given alone stores this value in that dest
    flag_sets: dict = field(default_factory=dict)  # "no_pin_mem" -> ("pin_mem", False)
    given: set = field(default_factory=set)  # class names handed to an HfArgumentParser-like parser
    owners: dict = field(default_factory=dict)  # option name -> the dataclass whose field declared it
    shadowed: list = field(default_factory=list)  # (class, Option): a field another class declared first
    bases: dict = field(default_factory=dict)  # class name -> the names of its bases (the modules read)

    def abbreviation(self, name: str) -> Optional[str]:
        """The declared option that argparse takes ``--name`` for when ``name`` is not declared itself:
        argparse (and ``HfArgumentParser``/``TrlParser``, its subclasses) accepts any unambiguous prefix
        of a long option (``allow_abbrev=True``, the default): princeton-nlp/ProLong ``train_sft.sh:102``
        ``--model_name`` sets the ``model_name_or_path`` field (``training/train_language_model.py:34``).
        Only when every parser read is argparse-based (click, typer, fire and the others do not
        abbreviate), none is built with ``allow_abbrev=False``, and exactly one declared option starts
        with the name; else None."""
        if self.no_abbrev or not self.parsers or len(name) < 2 \
                or not set(self.parsers) <= {"argparse", "HfArgumentParser", "TrlParser"}:
            return None
        found = [o for o in self.options if o.startswith(name)]
        return found[0] if len(found) == 1 else None

    def add(self, opt: Option) -> None:
        self.options.setdefault(opt.name, opt)

    def unparsed(self, name: str) -> bool:
        """Whether option ``name`` is a field of a dataclass that no parser of the job is handed, nor a base
        of one: its default is never the job's. sahsaeedi/TPO @ 71a4425 ``run_tpo.py:27`` parses
        ``(ModelArguments, DataArguments, TPOConfig)``; ``utils/utils.py:892-923`` (imported for its helpers)
        also declares ``OnPolicyConfig.sft_model_path = "EleutherAI/pythia-160m"``, copied from TRL's
        ``trl/trainer/utils.py`` as other projects vendoring TRL's utils do. False when the parser's classes
        are not known or the option is no dataclass field."""
        owner = self.owners.get(name)
        opt = self.options.get(name)
        if not self.given or owner is None or opt is None or opt.origin not in ("dataclass", "tap"):
            return False
        reach, todo = set(), list(self.given)
        while todo:
            cls = todo.pop()
            if cls not in reach:
                reach.add(cls)
                todo.extend(self.bases.get(cls, ()))
        return owner not in reach


def _literal(node: Optional[ast.AST]) -> tuple[bool, Any]:
    if node is None:
        return False, None
    try:
        return True, ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        return False, None


def _name_of(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _from_trl(tree: ast.Module, base: ast.expr) -> bool:
    """Whether the class base ``base`` is TRL's: ``trl.X`` or a name the module imports from ``trl``."""
    if isinstance(base, ast.Attribute):
        root = base.value
        while isinstance(root, ast.Attribute):
            root = root.value
        return isinstance(root, ast.Name) and root.id == "trl"
    if not isinstance(base, ast.Name):
        return False
    return any(isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] == "trl"
               and any((a.asname or a.name) == base.id for a in n.names) for n in ast.walk(tree))


def _config_file_parser(node: ast.AST) -> bool:
    """``pyrallis.wrap()`` / ``pyrallis.parse(config_class=...)`` (also draccus, its fork): a parser
    that fills a dataclass from ``--config_path FILE`` (YAML/JSON), then from ``--key value``
    (corl-team/CORL algorithms/offline/dt.py:430 ``@pyrallis.wrap()`` over ``def train(config:
    TrainConfig)``, launched ``--config_path=configs/offline/dt/halfcheetah/medium_v2.yaml``)."""
    if not isinstance(node, ast.Call):
        return False
    name = dotted_name(node.func) or ""
    return name in ("pyrallis.wrap", "pyrallis.parse", "draccus.wrap", "draccus.parse")


def _trailing_comment(lines: list[str], lineno: int) -> str:
    """The ``# ...`` comment ending line ``lineno`` (1-based), or ""."""
    if not 0 < lineno <= len(lines):
        return ""
    line = lines[lineno - 1]
    try:
        import io
        import tokenize

        for tok in tokenize.generate_tokens(io.StringIO(line).readline):
            if tok.type == tokenize.COMMENT:
                return tok.string.lstrip("#").strip()
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return ""
    return ""


def _class_attribute(cls: ast.ClassDef, name: str, before: int) -> Optional[ast.expr]:
    """The value of the last plain ``name = ...`` in the class body above line ``before`` (a field
    default that names a class attribute: xtuner ``default_per_device_train_batch_size = 1``)."""
    found: Optional[ast.expr] = None
    for stmt in cls.body:
        if stmt.lineno >= before:
            break
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and stmt.targets[0].id == name:
            found = stmt.value
    return found


def _typer_kind(node: Optional[ast.AST]) -> str:
    """"Argument"/"Option" for ``typer.Argument(...)``/``typer.Option(...)``, else ""."""
    if isinstance(node, ast.Call):
        name = dotted_name(node.func) or ""
        if name in ("typer.Argument", "typer.Option", "Argument", "Option"):
            return name.rsplit(".", 1)[-1]
    return ""


def _typer(fn: ast.FunctionDef, display: str, decl: Declared) -> None:
    """A typer command (``@app.command()`` over parameters annotated ``Annotated[str,
    typer.Argument(...)]`` or defaulting to ``typer.Argument(...)``/``typer.Option(...)``):
    arguments are positional in order, options are ``--name`` (THUDM/ChatGLM3
    finetune_demo/finetune_hf.py:443-457: ``data_dir``, ``model_dir``, ``config_file``)."""
    if not any(isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr == "command"
               for d in fn.decorator_list):
        return
    args = fn.args.args
    defaults = [None] * (len(args) - len(fn.args.defaults)) + list(fn.args.defaults)
    found = []
    for a, d in zip(args, defaults):
        kind = _typer_kind(d)
        ann = a.annotation
        if not kind and isinstance(ann, ast.Subscript) and (dotted_name(ann.value) or "").endswith("Annotated") \
                and isinstance(ann.slice, ast.Tuple):
            kind = next((k for k in map(_typer_kind, ann.slice.elts[1:]) if k), "")
        if kind:
            found.append((a, d, kind))
    filled = typer_config_param(fn)
    if not found and filled is None:
        return
    if filled is not None:
        # a typer_config command (``@use_yaml_config(param_name="config")``): typer reads every parameter,
        # plain ones included (no default: an argument; a default: an option), and the decorator adds
        # the option naming the file (amazon-science/chronos-forecasting @ 95185d1
        # scripts/training/train.py:504-545, ``--config training/configs/chronos-t5-small.yaml``)
        kinds = {id(a): k for a, _, k in found}
        found = [(a, d, kinds.get(id(a)) or ("Argument" if d is None else "Option")) for a, d in zip(args, defaults)
                 if id(a) in kinds or a.annotation is None or not (dotted_name(a.annotation) or "").endswith("Context")]
        decl.add(Option(filled, None, False, False, f"{display}:{fn.lineno}", "typer"))
    for a, d, kind in found:
        default_node = None
        if isinstance(d, ast.Call) and _typer_kind(d):
            default_node = d.args[0] if d.args else next((k.value for k in d.keywords if k.arg == "default"), None)
        elif d is not None:
            default_node = d
        ok, default = _literal(default_node)
        ok = ok and default is not Ellipsis
        decl.add(Option(a.arg, default if ok else None, ok, isinstance(default, bool), f"{display}:{a.lineno}",
                        "typer"))
        if kind == "Argument":
            decl.positionals.append(a.arg)
    if "typer" not in decl.parsers:
        decl.parsers.append("typer")


_TYPER_CONFIG = ("use_yaml_config", "use_json_config", "use_toml_config", "use_dotenv_config", "use_config")


def typer_config_param(fn: ast.FunctionDef) -> Optional[str]:
    """The option a typer_config decorator adds to the command (``param_name=``, default
    ``config``), whose file fills the command's parameters; None without such a decorator."""
    for d in fn.decorator_list:
        call = d if isinstance(d, ast.Call) else None
        name = (dotted_name(call.func if call is not None else d) or "").rsplit(".", 1)[-1]
        if name not in _TYPER_CONFIG:
            continue
        given = next((k.value for k in (call.keywords if call is not None else []) if k.arg == "param_name"), None)
        if given is None:
            return "config"
        return given.value if isinstance(given, ast.Constant) and isinstance(given.value, str) else None
    return None


def is_call_parse(fn: ast.AST) -> bool:
    """``@call_parse`` / ``@call_parse()`` (fastcore.script): the function's parameters are its options."""
    return any((dotted_name(d.func if isinstance(d, ast.Call) else d) or "").rsplit(".", 1)[-1] == "call_parse"
               for d in getattr(fn, "decorator_list", []))


def _call_parse(fn: ast.FunctionDef, display: str, decl: Declared) -> None:
    """A fastcore ``@call_parse`` entry (AnswerDotAI/fsdp_qlora @ 05ed9f2 train.py:1185-1241): each
    parameter is ``--name`` with its default; ``bool`` alone is a flag, ``bool_arg`` takes a value;
    ``Param("", choices=[...])`` names the accepted values."""
    if not is_call_parse(fn):
        return
    args = fn.args.args + fn.args.kwonlyargs
    defaults = [None] * (len(fn.args.args) - len(fn.args.defaults)) + list(fn.args.defaults) + \
        list(fn.args.kw_defaults)
    for a, d in zip(args, defaults):
        ok, default = _literal(d)
        ann = a.annotation
        choices: tuple = ()
        if isinstance(ann, ast.Call) and _name_of(ann.func) == "Param":
            got_ok, got = _literal(next((k.value for k in ann.keywords if k.arg == "choices"), None))
            if got_ok and isinstance(got, (list, tuple)) and all(isinstance(c, str) for c in got):
                choices = tuple(got)
        flag = isinstance(ann, ast.Name) and ann.id == "bool"
        decl.add(Option(a.arg, default, ok, flag, f"{display}:{a.lineno}", "fastcore", choices=choices))
    if "fastcore" not in decl.parsers:
        decl.parsers.append("fastcore")


_LIBRARY_MODULES = ("transformers", "trl")


def library_origin(tree: Optional[ast.Module], c: ast.expr) -> bool:
    """Whether the class ``c`` a parser names is the library's of that name: ``transformers.X``/
    ``trl.X``, or a name the module imports from transformers or trl. A class the module defines
    itself or imports from anywhere else is not, whatever its name (TigerResearch/TigerBot @ the
    benchmark's commit, ``train/train_sft.py:13-23``: its own ``@dataclass class SFTConfig`` of model
    path, dataset and ``max_length``, parsed with ``transformers.TrainingArguments``; trl is not
    imported). ``tree`` None: not known where the class comes from, read by name as before."""
    if tree is None:
        return True
    if isinstance(c, ast.Attribute):
        root = c.value
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name):
            return False
        for n in ast.walk(tree):
            if isinstance(n, ast.Import):
                for a in n.names:
                    if (a.asname or a.name.split(".")[0]) == root.id:
                        return a.name.split(".")[0] in _LIBRARY_MODULES
        return root.id in _LIBRARY_MODULES
    if not isinstance(c, ast.Name):
        return False
    star = False
    for n in ast.walk(tree):
        if isinstance(n, ast.ClassDef) and n.name == c.id:
            return False  # the project's own class (its fields are read as a dataclass)
        if isinstance(n, ast.ImportFrom):
            top = (n.module or "").split(".")[0] if not n.level else ""
            for a in n.names:
                if (a.asname or a.name) == c.id:
                    return top in _LIBRARY_MODULES
                star = star or (a.name == "*" and top in _LIBRARY_MODULES)
    return star


# transformers' Seq2SeqTrainingArguments subclasses TrainingArguments and keeps its fields and defaults
# (hiyouga/ChatGLM-Efficient-Tuning @ 3c12daa src/glmtuner/tuner/core/parser.py:26 parses it beside its own classes)
_LIBRARY_ALIASES = {"Seq2SeqTrainingArguments": "TrainingArguments"}


def _library_classes(arg: ast.expr, decl: Declared, tree: Optional[ast.Module] = None) -> None:
    classes = arg.elts if isinstance(arg, (ast.Tuple, ast.List)) else [arg]
    for c in classes:
        name = _name_of(c)
        decl.given.add(name)
        lib = _LIBRARY_ALIASES.get(name, name)
        if lib in _LIBRARY and not library_origin(tree, c):
            continue
        for key, value in _LIBRARY.get(lib, {}).items():
            decl.add(Option(key, value, True, isinstance(value, bool), _LIBRARY_DOC[lib], "library", library=lib))


def _click(call: ast.Call, display: str, decl: Declared) -> None:
    """``@click.option("--per-device-train-batch-size", type=int, default=8)`` and boolean pairs
    (``"--gradient-checkpointing/--no-gradient-checkpointing", is_flag=True, default=True``):
    the decorated function receives the option as the keyword of that name (Dolly
    ``training/trainer.py``)."""
    flags = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    first = next((f for f in flags if f.startswith("--")), None)
    if first is None:
        return
    pair = first.split("/")
    name = pair[0].strip().lstrip("-").replace("-", "_")
    if not name.isidentifier():
        return
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    ok, default = _literal(kw.get("default"))
    flag_ok, is_flag = _literal(kw.get("is_flag"))
    # a boolean pair or is_flag; ``type=bool`` takes true/false, read as a bool the same way
    flag_only = (flag_ok and is_flag is True) or len(pair) == 2 or _name_of(kw.get("type", ast.Pass())) == "bool"
    help_ok, help_text = _literal(kw.get("help"))
    for short in [f for f in flags if f != first] + pair[1:]:  # ``'-p', '--config_path'``: -p too
        alias = short.strip().lstrip("-").replace("-", "_")
        if alias and alias != name and not alias.startswith("no_"):
            decl.aliases.setdefault(alias, name)
    decl.add(Option(name, default, ok, flag_only, f"{display}:{call.lineno}", "click",
                    help=help_text if help_ok and isinstance(help_text, str) else "", kind=_type_kind(kw.get("type"))))
    if "click" not in decl.parsers:
        decl.parsers.append("click")


def _type_kind(node: Optional[ast.AST]) -> str:
    """``type=int`` / ``type=float`` of an option declaration: "int" / "float"; else ""."""
    return node.id if isinstance(node, ast.Name) and node.id in ("int", "float") else ""


def prefer_given(decl: Declared) -> None:
    """A field declared by two dataclasses of the project keeps the declaration of the class the parser
    is handed: martin-wey/CodeUltraFeedback @ 0525dde ``src/dpo/alignment/configs.py:211-253`` declares
    ``optim`` in ``SFTConfig`` (default ``adamw_torch``, :224) and again in ``DPOConfig`` (``rmsprop``,
    :253), and ``run_dpo.py:22`` parses ``(ModelArguments, DataArguments, DPOConfig)``: the first class
    read must not decide. A handed class that does not declare the field inherits the library's (a
    ``TrainingArguments`` default). Nothing changes when the parser's classes are not known or both or
    neither class is handed to it. In reading order, so a class's own field wins over what it inherits."""
    if not decl.given:
        return
    for cls, opt in decl.shadowed:
        held = decl.owners.get(opt.name)
        if cls in decl.given and held is not None and (held not in decl.given or held == cls):
            decl.options[opt.name] = opt
            decl.owners[opt.name] = cls

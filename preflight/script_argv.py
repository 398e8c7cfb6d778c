"""Reading a script's argparse options off its launch line (helper of
:class:`preflight.script_index.ScriptIndex`): one ``add_argument`` call as an :class:`ArgSpec`,
the value an option takes on the command line (unique prefixes, ``--opt=value``, short options
with attached values, ``BooleanOptionalAction``), and argparse's conversion of it.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Optional, Sequence

from preflight._record import dataclass
from preflight.analysis.syntax import dotted_name


@dataclass
class ArgSpec:
    """One ``add_argument`` call."""

    dest: str
    options: tuple[str, ...]
    type_name: Optional[str]  # "int", "float", "str", "bool" or None
    action: Optional[str]  # store_true, store_false, BooleanOptionalAction, ...
    default: Optional[ast.expr]
    line: int

    @property
    def flag(self) -> str:
        longs = [o for o in self.options if o.startswith("--")]
        return (longs or list(self.options) or [self.dest])[0]

    @property
    def takes_value(self) -> bool:
        return self.action not in ("store_true", "store_false", "store_const", "count",
                                   "BooleanOptionalAction", "help", "version")


def from_argv(spec: ArgSpec, arguments: dict[str, list[ArgSpec]],
              args: Sequence[str]) -> Optional[tuple[Optional[str], str]]:
    """The value ``spec``'s option takes on the launch line ``args`` (the last one given wins,
    as in argparse) and the text it was read from; None when the line does not give it."""
    options: dict[str, ArgSpec] = {}
    for specs in arguments.values():
        for s in specs:
            for o in s.options:
                options[o] = s
            if s.action == "BooleanOptionalAction":
                options.update({"--no-" + o[2:]: s for o in s.options if o.startswith("--")})
    found: Optional[tuple[Optional[str], str]] = None
    i = 0
    while i < len(args):
        tok = args[i]
        if tok == "--":
            break
        name, eq, val = tok.partition("=") if tok.startswith("--") else (tok, "", "")
        match = _match_option(name, options)
        if match is None and tok.startswith("-") and not tok.startswith("--") and len(tok) > 2:
            short = options.get(tok[:2])
            if short is not None and short.takes_value:
                match, name, eq, val = short, tok[:2], "=", tok[2:]
        if match is None:
            i += 1
            continue
        owner = match
        value: Optional[str] = None
        text = tok
        if not owner.takes_value:
            if owner.action == "BooleanOptionalAction":
                value = "false" if name.startswith("--no-") else "true"
            else:
                value = None
        elif eq:
            value = val
        elif i + 1 < len(args):
            value, text = args[i + 1], f"{tok} {args[i + 1]}"
            i += 1
        else:
            i += 1
            continue
        if owner is spec:
            found = (value, text)
        i += 1
    return found

def positional_from_argv(spec: ArgSpec, arguments: dict[str, list[ArgSpec]],
                         args: Sequence[str]) -> Optional[tuple[Optional[str], str]]:
    """The token a positional argument (``parser.add_argument('config')``) takes on the launch line:
    the launch line's positional tokens in the order the script declares its positionals
    (open-mmlab/mmpretrain @ ee7f2e8 ``tools/train.py:16``, launched as ``tools/train.py
    configs/resnet/resnet50_8xb32_in1k.py --launcher=slurm --amp``). None when the line does not give
    it; tokens after an option the script does not declare (or declares with ``nargs``) are not
    placed, since whether it takes them is not known."""
    positionals = sorted((s for specs in arguments.values() for s in specs
                          if s.options and not s.options[0].startswith("-")), key=lambda s: s.line)
    options = {o: s for specs in arguments.values() for s in specs for o in s.options if o.startswith("-")}
    tokens: list[str] = []
    i = 0
    while i < len(args):
        tok = str(args[i])
        i += 1
        if tok == "--":
            tokens.extend(str(a) for a in args[i:])
            break
        if not tok.startswith("-") or tok == "-":
            tokens.append(tok)
            continue
        name = tok.partition("=")[0] if tok.startswith("--") else tok
        match = _match_option(name, options)
        attached = False
        if match is None and not tok.startswith("--") and len(tok) > 2:
            match, attached = options.get(tok[:2]), True
        if match is None:
            break  # whether it takes the next token is not known: only the tokens before it are placed
        if match.takes_value and "=" not in tok and not attached:
            i += 1  # the option's value
    place = next((n for n, s in enumerate(positionals) if s is spec), None)
    if place is None or place >= len(tokens):
        return None
    return tokens[place], f"{tokens[place]} (positional argument {spec.dest})"


_OPAQUE = re.compile(r"^\$\{[A-Za-z_][A-Za-z0-9_]*\[[@*]\]\}$")


def opaque_words(args: Sequence[str]) -> list[str]:
    """Words of a launch line that stand for arguments not known statically: a bash array the
    launch reader could not expand (``"${base_arguments[@]}"`` with an element appended under
    an unknown condition). Any option may be among them, so no default may be taken."""
    return [a for a in args if _OPAQUE.match(str(a))]


def _match_option(name: str, options: dict[str, ArgSpec]) -> Optional[ArgSpec]:
    if name in options:
        return options[name]
    if name.startswith("--") and len(name) > 2:
        owners = {id(s): s for o, s in options.items() if o.startswith(name)}
        if len(owners) == 1:
            return next(iter(owners.values()))  # argparse accepts unique prefixes
    return None


def _convert(value: Optional[str], spec: ArgSpec) -> Any:
    if spec.action == "store_true":
        return True
    if spec.action == "store_false":
        return False
    if spec.action == "BooleanOptionalAction":
        return value == "true"
    if value is None or not isinstance(value, str):
        return value
    try:
        if spec.type_name == "int":
            return int(value)
        if spec.type_name == "float":
            return float(value)
        if spec.type_name == "bool":
            return bool(value)  # what argparse does with type=bool: any non-empty string is True
    except ValueError:
        return None
    if spec.type_name in (None, "str"):
        return value
    if spec.type_name is not None and spec.type_name.lower() in _BOOL_CONVERTERS:
        return _BOOL_SPELLINGS.get(value.strip().lower())
    return None


# ``type=`` functions that parse a boolean flag's word (facebookresearch/swav @ 06b1b7cb src/utils.py:27-37
# ``bool_flag``: "off"/"false"/"0" False, "on"/"true"/"1" True, anything else an error; the ``str2bool`` of
# many scripts reads yes/no, t/f, y/n but not on/off): read only for a word every one of them reads alike
_BOOL_CONVERTERS = frozenset({"str2bool", "str_to_bool", "string_to_bool", "strtobool", "bool_flag", "boolean_flag",
                              "boolean_string", "parse_bool", "to_bool", "t_or_f"})
_BOOL_SPELLINGS = {"true": True, "false": False, "1": True, "0": False}


def _arg_spec(call: ast.Call) -> Optional[ArgSpec]:
    options = tuple(a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str))
    if not options or len(options) != len(call.args):
        return None
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    if "dest" in kw and isinstance(kw["dest"], ast.Constant) and isinstance(kw["dest"].value, str):
        dest = kw["dest"].value
    elif options[0].startswith("-"):
        longs = [o for o in options if o.startswith("--")]
        dest = (longs[0][2:] if longs else options[0].lstrip("-")).replace("-", "_")
    else:
        dest = options[0]  # a positional argument
    type_name = None
    type_expr = kw.get("type")
    if isinstance(type_expr, ast.Name):
        type_name = type_expr.id
    elif type_expr is not None:
        type_name = "?"
    action = None
    action_expr = kw.get("action")
    if isinstance(action_expr, ast.Constant) and isinstance(action_expr.value, str):
        action = action_expr.value
    elif action_expr is not None:
        action = (dotted_name(action_expr) or "?").rsplit(".", 1)[-1]
    if kw.get("nargs") is not None:
        return None  # lists and optional values are not followed
    return ArgSpec(dest, options, type_name, action, kw.get("default"), call.lineno)

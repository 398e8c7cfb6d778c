"""Reading a launch script (``run.sh``, ``train.sbatch``) without running it: the one launch
reader that ``audit``/``estimate``/``check`` and the scheduler gate share.

What is understood, line by line in order (nothing is executed, no command substitution):

- backslash line continuations; comments; ``cmd1 && cmd2`` / ``;`` / ``|`` (the first command);
  redirections; ``nohup``/``exec``/``time``/``env`` prefixes; a trailing ``&``;
- assignments ``VAR=value``, ``export VAR=value``, ``declare``/``local``/``readonly``;
  an assignment inside an ``if``/``case`` block applies only when the variable is still
  unset or empty (the ``if [ "$2" == "" ]; then ZERO_STAGE=3; fi`` default idiom);
- expansion of ``$VAR``, ``${VAR}``, ``${VAR:-x}``, ``${VAR-x}``, ``${VAR:=x}``, positional
  ``$1``.. (empty unless given), ``$((a * b))`` over known integers; ``$(...)`` and backquotes
  stay unknown (the text is kept, so the launcher reads it as "set at run time");
- ``#SBATCH`` directives give ``$SLURM_NNODES``/``$SLURM_JOB_NUM_NODES``,
  ``$SLURM_NTASKS_PER_NODE``, ``$SLURM_NTASKS``, ``$SLURM_GPUS_ON_NODE``/``$SLURM_GPUS_PER_NODE``
  as sbatch would set them; an explicit ``--gpus-per-node`` also gives ``$GPUS_PER_NODE`` no value.

:func:`read_shell` is pure (text in, :class:`ShellScript` out) and never raises.
"""

from __future__ import annotations

import ast
import operator
import os
import posixpath
import re
import shlex
from typing import Mapping, Optional, Sequence

from preflight.adapters.launchers import LaunchInfo, parse_launch

from preflight._record import dataclass, field

SHELL_SUFFIXES = (".sh", ".bash", ".sbatch", ".slurm", ".zsh")
LAUNCH_HEADS = ("srun", "torchrun", "accelerate", "accelerate-launch", "deepspeed", "mpirun", "fabric", "composer",
                "python", "python3")
_ASSIGN = re.compile(r"^(?:(?:export|declare|local|readonly|typeset)\s+(?:-\w+\s+)*)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
_PREFIXES = ("nohup", "exec", "time", "command")
_RUNNERS = ("uv", "poetry", "pipenv", "pdm", "rye", "hatch", "pixi")
_HEREDOC = re.compile(r"""^read\s+(?:-[A-Za-z]+\s+(?:''\s+|""\s+)?)*([A-Za-z_][A-Za-z0-9_]*)\s*<<-?\s*['"]?(\w+)['"]?\s*$""")
_BLOCK_OPEN = re.compile(r"^(if|elif|case|while|until|for)\b")
_BLOCK_CLOSE = re.compile(r"^(fi|esac|done)\b")
_MAX_LINES = 20000
SCRIPT_DIR = "<script-dir>"
_CD = re.compile(r"^(?:cd|pushd)\s+(.+?)\s*$")
_SCRIPT_DIR_CD = re.compile(r"dirname\s+[\"']?\$(?:0|\{?BASH_SOURCE)")
_MAX_VALUE = 8192
_ENV_WORD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


@dataclass
class LaunchLine:
    """A line that starts training processes: where it is, the text as written, the tokens
    after expansion and what the launch reader makes of them."""

    line: int
    text: str
    tokens: list[str]
    info: LaunchInfo
    # the directory the line runs in after ``cd DIR`` lines before it (relative to where the
    # script is started, or absolute; SCRIPT_DIR for ``cd "$(dirname "$0")"``); None: not moved
    cwd: Optional[str] = None


@dataclass
class SubScript:
    """A line that runs another shell script of the project (``bash scripts/train.sh 8 cfg``,
    ``./torchrun.sh --nnodes 1 ...``): its path and arguments after expansion."""

    line: int
    path: str
    args: list[str]
    cwd: Optional[str] = None
    env: dict[str, str] = field(default_factory=dict)  # `CUDA_VISIBLE_DEVICES=0,1 bash x.sh`


@dataclass
class ShellScript:
    path: str
    variables: dict[str, str] = field(default_factory=dict)  # final values, after the whole script
    launches: list[LaunchLine] = field(default_factory=list)
    subscripts: list[SubScript] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    slurm_env: dict[str, str] = field(default_factory=dict)


_QUOTED_ASSIGN = re.compile(r"""^\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_]*=["']""")
_MAX_QUOTED_LINES = 100


def _open_quote(text: str) -> str:
    """The quote character still open at the end of ``text`` ("" when none): backslash
    escapes outside single quotes, and a ``#`` comment outside quotes ends the scan."""
    quote = ""
    k = 0
    while k < len(text):
        ch = text[k]
        if ch == "\\" and quote != "'":
            k += 2
            continue
        if quote:
            if ch == quote:
                quote = ""
        elif ch in ("'", '"'):
            quote = ch
        elif ch == "#" and (k == 0 or text[k - 1].isspace()):
            break
        k += 1
    return quote


def logical_lines(lines: Sequence[str]) -> list[tuple[int, str]]:
    """Join backslash-continued lines: (first line number, joined text). An assignment whose
    quoted value spans lines (``ARGS="`` newline ``--nproc_per_node 8 \\`` ... ``"``, as in
    Qwen's and MiniCPM's launch scripts) is one logical line too (at most 100 lines)."""
    out: list[tuple[int, str]] = []
    buf: list[str] = []
    start = 0
    quoted = 0  # lines joined because a quoted assignment value is still open
    for n, raw in enumerate(lines, 1):
        if not buf:
            start = n
        stripped = raw.rstrip()
        if stripped.endswith("\\") and not stripped.lstrip().startswith("#"):
            buf.append(stripped[:-1])
            continue
        buf.append(raw)
        joined = " ".join(b.strip() for b in buf)
        if (_QUOTED_ASSIGN.match(buf[0]) and quoted < _MAX_QUOTED_LINES and n < len(lines)
                and _open_quote(joined)):
            quoted += 1
            continue
        out.append((start, joined))
        buf = []
        quoted = 0
    if buf:
        out.append((start, " ".join(b.strip() for b in buf)))
    return out


def _strip_comment(text: str) -> str:
    """Remove a ``# comment`` that is not inside quotes (``$#`` and ``${#x}`` are kept)."""
    quote = ""
    for k, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
            continue
        if ch in ("'", '"'):
            quote = ch
        elif ch == "#" and (k == 0 or text[k - 1].isspace()):
            return text[:k].rstrip()
    return text


def _first_command(text: str) -> str:
    """The first simple command of a line: cut at unquoted ``&&``, ``||``, ``;``, ``|`` and
    redirections (``> log 2>&1``)."""
    quote = ""
    k = 0
    while k < len(text):
        ch = text[k]
        if quote:
            if ch == quote:
                quote = ""
        elif ch in ("'", '"'):
            quote = ch
        elif ch in ";|" or text.startswith("&&", k) or ch in "<>" or (ch.isdigit() and text[k + 1:k + 2] == ">" and (k == 0 or text[k - 1].isspace())) or (ch == "&" and text[k + 1:k + 2] == ">"):
            return text[:k].strip()
        k += 1
    return text.strip().rstrip("&").strip()


def command_tokens(text: str) -> Optional[list[str]]:
    """The tokens of a shell command line as written (no expansion), or None when it is
    not a simple command (the gate's view of a launch line)."""
    text = _first_command(_strip_comment(text))
    if not text:
        return None
    while True:
        head = text.split(None, 1)
        if head and head[0].rsplit("/", 1)[-1] in _PREFIXES and len(head) > 1:
            text = head[1]
            if head[0].rsplit("/", 1)[-1] == "time":  # `/usr/bin/time -v python ...`: time's own options
                while text.startswith("-"):
                    opt = text.split(None, 1)
                    text = opt[1] if len(opt) > 1 else ""
            continue
        two = text.split(None, 2)
        if len(two) == 3 and two[0] in _RUNNERS and two[1] == "run":
            text = two[2]  # `uv run python train.py`: the environment manager runs the command
            continue
        break
    try:
        return shlex.split(text)
    except ValueError:
        return None


_VAR = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*|[0-9]+)(?:(:?[-=+])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*|[0-9]))")
# the script's own directory: `$(dirname "$0")`, `` `dirname $0` ``, `$(dirname ${BASH_SOURCE[0]})`,
# `$(cd "$(dirname "$0")" && pwd)` (OpenMMLab ``tools/dist_train.sh``: `$(dirname "$0")/train.py`)
_DIRNAME = r"""dirname\s+(?:--\s+)?["']?\$\{?(?:0|BASH_SOURCE(?:\[0\])?)\}?["']?"""
_DIRNAME_SUB = r"(?:\$\(\s*" + _DIRNAME + r"\s*\)|`\s*" + _DIRNAME + r"\s*`)"
_SELF_DIR = re.compile(r"""\$\(\s*cd\s+(?:--\s+)?["']?""" + _DIRNAME_SUB
                       + r"""["']?\s*(?:&>\s*/dev/null\s*)?(?:&&|;)\s*pwd(?:\s+-P)?\s*\)|""" + _DIRNAME_SUB)
_ARITH = re.compile(r"\$\(\(([^()]*)\)\)")
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
        ast.Div: operator.floordiv, ast.Mod: operator.mod}


def _arith(expr: str) -> Optional[int]:
    if not re.fullmatch(r"[0-9+\-*/% ()]+", expr) or len(expr) > 200:
        return None
    try:
        node = ast.parse(expr.strip(), mode="eval").body
    except SyntaxError:
        return None

    def ev(n: ast.AST) -> int:
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return n.value
        if isinstance(n, ast.BinOp) and type(n.op) in _OPS:
            right = ev(n.right)
            if isinstance(n.op, (ast.FloorDiv, ast.Div, ast.Mod)) and right == 0:
                raise ValueError
            return _OPS[type(n.op)](ev(n.left), right)
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return -ev(n.operand)
        raise ValueError

    try:
        value = ev(node)
    except (ValueError, RecursionError):
        return None
    return value if abs(value) < 10 ** 12 else None


def expand(text: str, env: dict[str, str], known: Optional[set[str]] = None) -> str:
    """Expand variables of ``text`` with ``env``; an unknown variable is kept as written.
    ``known`` names variables whose value is known to be empty (positional parameters not
    given), so ``${1:-3}`` is 3 and ``$1`` is empty."""
    known = known or set()

    def one(m: re.Match) -> str:
        name = m.group(1) or m.group(4)
        op, word = m.group(2), m.group(3)
        have = name in env
        value = env.get(name, "")
        empty_known = not have and name in known
        if op is None:
            return value if have else ("" if empty_known else m.group(0))
        word = expand(word or "", env, known)
        if op in (":-", ":="):
            if (have and value) :
                return value
            if have or empty_known or op == ":=":
                if op == ":=":
                    env[name] = word
                return word
            return word  # unset: the default applies
        if op in ("-", "="):
            if have:
                return value
            if op == "=":
                env[name] = word
            return word
        if op in (":+", "+"):
            return word if (have and (value or op == "+")) else ("" if (have or empty_known) else m.group(0))
        return m.group(0)

    if "dirname" in text and env.get("0"):
        here = posixpath.dirname(env["0"]) or "."
        text = _SELF_DIR.sub(lambda m: here, text)
    out = _VAR.sub(one, text)

    def arith(m: re.Match) -> str:
        inner = re.sub(r"\b([A-Za-z_][A-Za-z0-9_]*)\b", lambda v: env.get(v.group(1), v.group(1)), m.group(1))
        value = _arith(inner)
        return str(value) if value is not None else m.group(0)

    return _ARITH.sub(arith, out)


def slurm_environment(text: str, path: str = "<script>") -> dict[str, str]:
    """The ``SLURM_*`` variables sbatch would set from the script's ``#SBATCH`` directives
    (only those the directives fix)."""
    if "#SBATCH" not in text:
        return {}
    from preflight.gate.slurm import parse_sbatch

    return slurm_env_of(parse_sbatch(text, path))


def slurm_env_of(job) -> dict[str, str]:
    """The ``SLURM_*`` variables a :class:`~preflight.gate.slurm.SlurmJob`'s options fix."""
    env: dict[str, str] = {}
    nodes, _ = job.nodes()
    if job.get("nodes") is not None:
        env["SLURM_NNODES"] = env["SLURM_JOB_NUM_NODES"] = str(nodes)
    per_node = job.tasks_per_node()
    if per_node is not None:
        env["SLURM_NTASKS_PER_NODE"] = str(per_node)
        if job.get("nodes") is not None:
            env["SLURM_NTASKS"] = str(per_node * nodes)
    ntasks = job.value("ntasks")
    if ntasks and ntasks.isdigit():
        env["SLURM_NTASKS"] = ntasks
    req = job.gpus()
    if req.per_node is not None:
        env["SLURM_GPUS_ON_NODE"] = str(req.per_node)
        if job.get("gpus-per-node") is not None:
            env["SLURM_GPUS_PER_NODE"] = str(req.per_node)
    cpus = job.value("cpus-per-task")
    if cpus and cpus.isdigit():
        env["SLURM_CPUS_PER_TASK"] = cpus
    return env


def is_launch_tokens(tokens: Sequence[str]) -> bool:
    if not tokens:
        return False
    k = 0
    while k < len(tokens) and _ENV_WORD.match(tokens[k]):
        k += 1
    if k < len(tokens) and tokens[k] == "env":
        k += 1
        while k < len(tokens) and _ENV_WORD.match(tokens[k]):
            k += 1
    if k >= len(tokens):
        return False
    head = tokens[k].rsplit("/", 1)[-1]
    return head in LAUNCH_HEADS or head.startswith("python") or tokens[k].endswith(".py")


def _moved(cwd: Optional[str], arg: str, vars_: Mapping[str, str], empty: set[str]) -> Optional[str]:
    """The directory after ``cd ARG`` from ``cwd`` (None: where the script was started);
    an unknown target (``cd $(mktemp -d)``, ``cd -``, ``cd`` home) makes the directory unknown."""
    import posixpath

    if _SCRIPT_DIR_CD.search(arg):
        return SCRIPT_DIR
    try:
        words = shlex.split(arg)
    except ValueError:
        return "?"
    if len(words) != 1:
        return "?"
    target = expand(words[0], dict(vars_), empty)
    if not target or target == "-" or "$" in target or "`" in target or target.startswith("~"):
        return "?"
    if cwd == "?":
        return "?"
    if target.startswith("/"):
        return posixpath.normpath(target)
    base = cwd or ""
    return posixpath.normpath(posixpath.join(base, target)) if base else posixpath.normpath(target)



_SRUN_FROM_SBATCH = (("SLURM_NNODES", ("-N", "__nodes"), "--nodes"),
                     ("SLURM_NTASKS", ("-n", "__ntasks"), "--ntasks"),
                     ("SLURM_NTASKS_PER_NODE", ("__ntasks_per_node",), "--ntasks-per-node"))


def _srun_allocation(final: list[str], info: LaunchInfo, slurm: Mapping[str, str]) -> tuple[list[str], LaunchInfo]:
    """``srun python train.py`` inside an sbatch script without its own task flags runs one
    task per task of the job's allocation (open_clip ``docs/script_examples/stability_example.sh``
    @ 89fb801f: ``#SBATCH --nodes 30``, ``--ntasks-per-node=8``, then ``srun ... python -m
    open_clip_train.main``): the ``#SBATCH`` values are srun's."""
    at = next((i for i, t in enumerate(final) if os.path.basename(t) == "srun"), None)
    if at is None:
        return final, info
    extra: list[str] = []
    if any(f in info.wrapper_options for _, flags, _ in _SRUN_FROM_SBATCH for f in flags):
        return final, info  # srun's own task geometry
    for var, flags, flag in _SRUN_FROM_SBATCH:
        value = slurm.get(var)
        if value and value.isdigit() and not any(f in info.wrapper_options for f in flags):
            extra += [flag, value]
    if not extra:
        return final, info
    final = [*final[: at + 1], *extra, *final[at + 1:]]
    new = parse_launch(final)
    new.notes.append("srun without its own task flags runs the #SBATCH allocation: " + " ".join(extra))
    return final, new

_ARGS_FROM = re.compile(r"^\$\{[@*]:(\d+)\}$")
_SHIFT = re.compile(r"^shift(?:\s+(\d))?$")


def read_shell(text: str, path: str = "<script>", args: Sequence[str] = (),
               env: Optional[Mapping[str, str]] = None, start: int = 1,
               slurm: Optional[Mapping[str, str]] = None) -> ShellScript:
    """Read a launch script: variables in order, and every launch line with its tokens
    expanded. ``args`` are the script's positional arguments (``bash run.sh out 3``);
    ``env`` the variables known before it starts; lines before ``start`` are skipped
    (the gate starts at the first command after the ``#SBATCH`` block); ``slurm`` the
    ``SLURM_*`` values when the caller has read the directives already."""
    from preflight.adapters.shell_commands import launch_tokens, line_parts, subscript

    script = ShellScript(path=path)
    lines = text.splitlines()[:_MAX_LINES]
    slurm = dict(slurm) if slurm is not None else slurm_environment(text, path)
    script.slurm_env = dict(slurm)
    vars_: dict[str, str] = {**slurm, **dict(env or {})}
    positional = {str(k): str(v) for k, v in enumerate(args, 1)}
    vars_.update(positional)
    empty = {str(k) for k in range(1, 10)} - set(positional)
    vars_["#"] = str(len(args))
    vars_["0"] = path
    depth = 0
    heredoc: Optional[tuple[str, str, list[str]]] = None  # (variable, delimiter, body so far)
    cwd: Optional[str] = None  # after `cd DIR` at the top level
    for n, logical in logical_lines(lines):
        if n < start:
            continue
        if heredoc is not None:  # `read -r -d '' CMD <<EOF ... EOF`: the body is the variable's value
            if logical.strip() == heredoc[1]:
                body = " ".join(heredoc[2])
                if len(body) <= _MAX_VALUE:
                    vars_[heredoc[0]] = expand(body, vars_, empty)
                heredoc = None
            else:
                heredoc[2].append(logical.strip())
            continue
        stripped = _strip_comment(logical.strip())
        if not stripped:
            continue
        if "dirname" in stripped and not _CD.match(stripped):
            # `SCRIPT_DIR=$(cd "$(dirname "$0")" && pwd)`: one word once the script's folder is known
            stripped = _SELF_DIR.sub(lambda m: posixpath.dirname(path) or ".", stripped)
        doc = _HEREDOC.match(stripped)
        if doc:
            heredoc = (doc.group(1), doc.group(2), [])
            continue
        # a block's first line may carry a command: `if [ .. ]; then X=1; fi`
        for part, guarded in line_parts(stripped):
            if _BLOCK_OPEN.match(part):
                depth += 1
                continue
            if _BLOCK_CLOSE.match(part):
                depth = max(0, depth - 1)
                continue
            sh = _SHIFT.match(part)
            if sh and not depth:
                # timm distributed_train.sh:2-4 ``NUM_PROC=$1; shift; torchrun ... "$@"``: the
                # first arguments are the wrapper's own, "$@" passes on the rest
                args = list(args)[int(sh.group(1) or 1):]
                for k in range(1, 10):
                    vars_.pop(str(k), None)
                vars_.update({str(k): str(v) for k, v in enumerate(args, 1)})
                empty = {str(k) for k in range(1, 10)} - {str(k) for k in range(1, len(args) + 1)}
                vars_["#"] = str(len(args))
                continue
            cd = _CD.match(part)
            if cd and not depth and not guarded:
                cwd = _moved(cwd, cd.group(1), vars_, empty)
                continue
            m = _ASSIGN.match(part)
            if m and " " not in part.split("=", 1)[0].split()[-1]:
                name, raw = m.group(1), m.group(2)
                try:
                    words = shlex.split(raw) if raw.strip() else [""]
                except ValueError:
                    words = [raw]
                if _ARITH.fullmatch(raw.strip()):
                    words = [raw.strip()]  # `ACC=$((BATCH / PER_DEVICE / GPUS))`: one word
                pairs = [(name, words[0] if words else "")]
                if len(words) > 1:
                    if not all(_ENV_WORD.match(w) for w in words[1:]):
                        # `A=1 python train.py`, `PYTHONPATH="$(dirname $0)/..":$PYTHONPATH python -m ...`:
                        # an environment prefix of the command, handled below (quoted or not)
                        continue
                    pairs += [(w.split("=", 1)[0], w.split("=", 1)[1]) for w in words[1:]]  # `A="x" B=2`
                for name, word in pairs:
                    value = expand(word, vars_, empty)
                    if len(value) > _MAX_VALUE:  # X=$X$X... doubling: not followed (bounded memory)
                        vars_.pop(name, None)
                        continue
                    if (depth or guarded) and vars_.get(name):
                        continue  # a default set inside a block or after `&&`: only when still unset/empty
                    vars_[name] = value
                continue
        tokens = launch_tokens(stripped, vars_, empty)
        if tokens is None:
            sub = subscript(stripped, vars_, empty, args)
            if sub is not None:
                env_words = dict(w.split("=", 1) for w in sub[0])
                script.subscripts.append(SubScript(n, sub[1][0], sub[1][1:], cwd, env_words))
            continue
        expanded = []
        for tok in tokens:
            expanded.append(expand(tok, dict(vars_), empty))
        # an unquoted "$ARGS" holding several words splits again
        final: list[str] = []
        for raw_tok, tok in zip(tokens, expanded):
            if raw_tok in ("$@", "${@}", "$*", "${*}"):
                final.extend(str(a) for a in args)  # the script's own arguments, passed on
                continue
            tail = _ARGS_FROM.match(raw_tok)
            if tail:  # `${@:3}` (OpenMMLab dist_train.sh): the arguments from the third on
                final.extend(str(a) for a in list(args)[max(int(tail.group(1)) - 1, 0):])
                continue
            if raw_tok != tok and " " in tok.strip():
                final.extend(tok.split())
            elif tok == "" and raw_tok.startswith("$"):
                continue
            else:
                final.append(tok)
        info = parse_launch(final)
        if info.wrapper == "srun" and info.launcher in (None, "python") and slurm:
            final, info = _srun_allocation(final, info, slurm)
        if info.launcher is None and info.wrapper is None:
            continue
        script.launches.append(LaunchLine(n, stripped, final, info, cwd))
    script.variables = {k: v for k, v in vars_.items() if not k.isdigit() and k != "#"}
    return script

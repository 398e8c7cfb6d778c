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
- ``if``/``elif``/``else`` tests over known values (``[ $fsdp -ne 0 ]``, ``[ -z "$x" ]``) decide
  their branch; a test over anything else keeps the rule above;
- bash arrays: ``a=( ... )`` over lines, ``a+=( ... )``, ``"${a[@]}"``/``${a[*]}``; an array whose
  elements are not known (options appended under an unknown test) stays as written, and the
  launch line's options are then unknown;
- a variable set nowhere in the script before a launcher (``${OPTIONS_SAT} deepspeed ...``) is empty;
- a GPU count by a command (``$(nvidia-smi -L | wc -l)``, jq over ``CUDA_VISIBLE_DEVICES``,
  ``torch.cuda.device_count()``) or a node count (``scontrol show hostnames ... | wc -l``) is the
  ``#SBATCH`` allocation's, when the directives fix it;
- ``#SBATCH`` directives give ``$SLURM_NNODES``/``$SLURM_JOB_NUM_NODES``,
  ``$SLURM_NTASKS_PER_NODE``, ``$SLURM_NTASKS``, ``$SLURM_GPUS_ON_NODE``/``$SLURM_GPUS_PER_NODE``
  as sbatch would set them; an explicit ``--gpus-per-node`` also gives ``$GPUS_PER_NODE`` no value.

:func:`read_shell` is pure (text in, :class:`ShellScript` out) and never raises.
"""

from __future__ import annotations

import os
import posixpath
import re
import shlex
from typing import Callable, Mapping, Optional, Sequence

from preflight.adapters.launchers import LaunchInfo, parse_launch
from preflight.adapters.shell_arrays import (
    _ARRAY_ASSIGN,
    _ARRAY_REF,
    _assign_array,
    _join_arrays,
    read_array,
)
from preflight.adapters.shell_expand import _SELF_DIR, _arith_end, expand
from preflight.adapters.shell_lex import (  # noqa: F401  (moved; re-exported)
    _strip_comment,
    command_tokens,
    logical_lines,
    shell_words,
    split_value,
)
from preflight.adapters.shell_loops import ShellLoop, loop_header, ranked, runs_in_background
from preflight.adapters.shell_values import (
    _ARGS_FROM,
    _SHIFT,
    _optind_shift,
    _positional,
    condition,
    counted,
    field_count,
    grep_count,
    inline_counts,
)

from preflight._record import dataclass, field

SHELL_SUFFIXES = (".sh", ".bash", ".sbatch", ".slurm", ".zsh")
LAUNCH_HEADS = ("srun", "torchrun", "accelerate", "accelerate-launch", "deepspeed", "mpirun", "mpiexec", "fabric", "composer", "colossalai",
                "python", "python3", "fairseq-train")
_ASSIGN = re.compile(r"^(?:(?:export|declare|local|readonly|typeset)\s+(?:-\w+\s+)*)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
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
    # the shell loop the line sits in (its count the product of nested loops'); None: not in a loop
    loop: Optional[ShellLoop] = None


def _srun_without_command(tokens: list[str]) -> bool:
    """``srun ... bash x.sh ...``: srun running no launcher or Python script of its own."""
    info = parse_launch(tokens)
    return info.wrapper == "srun" and info.script is None and not info.launcher


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




























def slurm_environment(text: str, path: str = "<script>") -> dict[str, str]:
    """The ``SLURM_*`` variables sbatch would set from the script's ``#SBATCH`` directives
    (only those the directives fix)."""
    if "#SBATCH" not in text:
        return {}
    from preflight.adapters.srun_one_task import batch_text

    from preflight.gate.slurm import parse_sbatch

    # the directives of a heredoc piped to sbatch (``cat << EOF | sbatch``) when the script has none of its own
    body = batch_text(text)
    return slurm_env_of(parse_sbatch(body if body.startswith("#!") else "#!/bin/bash\n" + body, path))


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


_WHOLE_REF = re.compile(r"^\$(?:\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*)$")


def is_launch_tokens(tokens: Sequence[str]) -> bool:
    if not tokens:
        return False
    k = 0
    refs = False
    while k < len(tokens) and (_ENV_WORD.match(tokens[k]) or _WHOLE_REF.match(tokens[k])):
        # `${OPTIONS_NCCL} ${OPTIONS_SAT} deepspeed ...` (SwissArmyTransformer's finetune scripts):
        # a variable before a launcher is an environment prefix or nothing
        refs = refs or bool(_WHOLE_REF.match(tokens[k]))
        k += 1
    if refs and not _launcher_head(tokens, k):
        return False  # `$LAUNCHER train.py`: the variable may be the launcher itself
    if k < len(tokens) and tokens[k] == "env":
        k += 1
        while k < len(tokens) and _ENV_WORD.match(tokens[k]):
            k += 1
    if k >= len(tokens):
        return False
    from preflight.console_scripts import runner_end

    if runner_end(tokens, k) > k:  # ``poetry run python train.py``, ``uv run torchrun ...``
        return is_launch_tokens(tokens[runner_end(tokens, k):])
    from preflight.adapters.launch_container import container_end

    boxed, _image = container_end(tokens, k)
    if boxed > k:  # ``singularity exec --nv IMG python train.py``
        return is_launch_tokens(tokens[boxed:])
    from preflight.adapters.launch_wrappers import wrapper_end

    wrapped, _name = wrapper_end(tokens, k)
    if wrapped > k:  # ``numactl --cpunodebind=0 python train.py``, ``nsys profile -o p torchrun ...``
        return is_launch_tokens(tokens[wrapped:])
    head = tokens[k].rsplit("/", 1)[-1]
    return head in LAUNCH_HEADS or head.startswith("python") or tokens[k].endswith(".py") \
        or is_tune_run(tokens[k:])


def is_tune_run(tokens: Sequence[str]) -> bool:
    """``tune run RECIPE ...``: torchtune's own command runs a recipe (its config is the job)."""
    return len(tokens) > 2 and tokens[0].rsplit("/", 1)[-1] == "tune" and tokens[1] == "run"


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

def _launcher_head(tokens: Sequence[str], k: int) -> bool:
    """Whether ``tokens[k]`` names a launcher or Python (not a bare ``train.py``)."""
    if k >= len(tokens):
        return False
    head = tokens[k].rsplit("/", 1)[-1]
    return head in LAUNCH_HEADS or head == "env" or head.startswith("python")


def _drop_unset_prefix(tokens: list[str]) -> tuple[list[str], list[str]]:
    """``${OPTIONS_SAT} deepspeed ...`` with ``OPTIONS_SAT`` set nowhere in the script (VisualGLM-6B
    ``finetune/finetune_visualglm.sh`` @ e314fb9: ``# OPTIONS_SAT="SAT_HOME=$1"`` is commented
    out): an unquoted variable that expands to nothing disappears, and one set in the
    environment could only add an environment word. The tokens without such variables before
    the command, and the variables dropped."""
    k = 0
    dropped: list[str] = []
    kept: list[str] = []
    while k < len(tokens) and (_ENV_WORD.match(tokens[k]) or _WHOLE_REF.match(tokens[k])):
        (dropped if _WHOLE_REF.match(tokens[k]) else kept).append(tokens[k])
        k += 1
    if not dropped or not _launcher_head(tokens, k):
        return tokens, []
    return [*kept, *tokens[k:]], dropped




















# `source less/scripts/train/base_training_args.sh`, `. ./env.sh` (not `. utils/parse_options.sh`,
# whose loop sets variables from the script's own options: not read here)
_SOURCE = re.compile(r"^(?:source|\.)\s+([^\s;|&<>]+)\s*$")
_MAX_SOURCED = 2


def _source_file(script: ShellScript, n: int, raw: str, vars_: dict[str, str], empty: set[str],
                 args: Sequence[str], cwd: Optional[str], slurm: Mapping[str, str], sourced: Sourced,
                 nesting: int) -> None:
    """Set the variables a sourced file assigns (princeton-nlp/LESS ``less/scripts/train/
    warmup_lora_train.sh:3`` @ 8abf962 sources ``base_training_args.sh``, whose exported
    ``header`` and ``base_training_args`` strings the script runs with ``eval``)."""
    target = expand(raw.strip("\"'"), dict(vars_), empty)
    if "$" in target or target.endswith("parse_options.sh"):
        return
    got = sourced(target, cwd)
    if got is None:
        return
    shown, body = got
    start = {k: v for k, v in vars_.items() if not k.isdigit() and k not in ("#", "0")}
    inner = read_shell(body, shown, args, env=start, slurm=slurm, sourced=sourced, _nesting=nesting + 1)
    changed = {k: v for k, v in inner.variables.items() if k != "0" and vars_.get(k) != v}
    vars_.update(changed)
    if changed:
        script.notes.append(f"{script.path}:{n}: sources {shown}, which sets {', '.join(sorted(changed)[:6])}"
                            + (" ..." if len(changed) > 6 else ""))


def _enclosing_loop(loops_open: Sequence[Optional[ShellLoop]], logical: str) -> Optional[ShellLoop]:
    """The innermost loop around a launch line, its count the product of every enclosing loop's
    (None when one is not known), and whether the line runs in the background."""
    around = [lp for lp in loops_open if lp is not None]
    if not around:
        return None
    count: Optional[int] = 1
    for lp in around:
        count = None if count is None or lp.count is None else count * lp.count
    inner = around[-1]
    return ShellLoop(inner.line, inner.header, inner.var, count, runs_in_background(logical), ranked(logical))


Sourced = Callable[[str, Optional[str]], Optional[tuple[str, str]]]


def read_shell(text: str, path: str = "<script>", args: Sequence[str] = (),
               env: Optional[Mapping[str, str]] = None, start: int = 1,
               slurm: Optional[Mapping[str, str]] = None, sourced: Optional[Sourced] = None,
               _nesting: int = 0) -> ShellScript:
    """Read a launch script: variables in order, and every launch line with its tokens
    expanded. ``args`` are the script's positional arguments (``bash run.sh out 3``);
    ``env`` the variables known before it starts; lines before ``start`` are skipped
    (the gate starts at the first command after the ``#SBATCH`` block); ``slurm`` the
    ``SLURM_*`` values when the caller has read the directives already. ``sourced`` gives
    (shown path, text) of a file a ``source FILE`` / ``. FILE`` line names (its path as
    expanded, and the directory the line runs in), or None when it is not read: the
    variables that file sets are set at that line (nothing of it is run)."""
    from preflight.adapters.shell_commands import launch_tokens, line_parts, subscript
    from preflight.adapters.shell_getopts import apply_getopts, getopts_loops
    from preflight.adapters.shell_tests import compound_condition, join_test_parts

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
    # the if/elif/else branches around the line: (this branch is taken, an earlier branch of the
    # chain was), each True/False when the test is over known values, None when not known
    branches: list[list[Optional[bool]]] = []
    loops_open: list[Optional[ShellLoop]] = []  # per open block: the loop it is, None for if/case
    arrays: dict[str, Optional[list[str]]] = {}  # bash arrays; None: elements not known
    heredoc: Optional[tuple[str, str, list[str]]] = None  # (variable, delimiter, body so far)
    cwd: Optional[str] = None  # after `cd DIR` at the top level
    logical_all = logical_lines(lines)
    loops = getopts_loops(text, logical_all)
    skip_to = 0
    for n, logical in logical_all:
        if n < start or n <= skip_to:
            continue
        if n in loops and not any(b[0] is False for b in branches):
            skip_to = apply_getopts(script, loops[n], args, vars_, empty)
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
        for part, guarded in join_test_parts(line_parts(stripped, keep_else=True), stripped):
            if part == "else":
                if branches:
                    top = branches[-1]
                    top[0] = None if top[1] is None else not top[1]
                continue
            if _BLOCK_OPEN.match(part):
                head = part.split(None, 1)[0]
                if head == "elif" and branches:
                    top = branches[-1]
                    test = compound_condition(part, condition, vars_, empty) if top[1] is False else None
                    top[0] = False if top[1] is True else test
                    top[1] = True if top[1] is True else (test if top[1] is False else None)
                else:
                    test = compound_condition(part, condition, vars_, empty) if head == "if" else None
                    branches.append([test, test])
                    loops_open.append(loop_header(stripped if stripped.startswith(head) else part, n, vars_, empty)
                                      if head in ("for", "while", "until") else None)
                depth += 1
                continue
            if _BLOCK_CLOSE.match(part):
                depth = max(0, depth - 1)
                if branches:
                    branches.pop()
                if loops_open:
                    loops_open.pop()
                continue
            skipped = any(b[0] is False for b in branches)
            taken = all(b[0] is True for b in branches)  # True at the top level too
            array = _ARRAY_ASSIGN.match(part)
            if array:
                if not skipped:
                    _assign_array(arrays, vars_, empty, args, array, unknown=not taken or guarded)
                continue
            if "<<<" in part and not skipped and read_array(part, arrays, vars_, empty, not taken or guarded):
                continue
            sh = _SHIFT.match(_optind_shift(part, vars_))
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
            src = _SOURCE.match(part)
            if src and sourced is not None:
                if not skipped and _nesting < _MAX_SOURCED:
                    _source_file(script, n, src.group(1), vars_, empty, args, cwd, slurm, sourced, _nesting)
                continue
            cd = _CD.match(part)
            if cd and not depth and not guarded:
                cwd = _moved(cwd, cd.group(1), vars_, empty)
                continue
            m = _ASSIGN.match(part)
            if m and " " not in part.split("=", 1)[0].split()[-1]:
                name, raw = m.group(1), _join_arrays(m.group(2), arrays)
                if skipped:
                    continue  # a branch whose test is false
                raw, inline = inline_counts(raw, vars_, empty)  # `$(($(echo $D | grep -o , | wc -l)+1))`
                script.notes += [f"{path}:{n}: {name}: counts {why}" for why in inline]
                forwarded = _positional(raw, args)
                if forwarded is not None:
                    # `PY_ARGS=${@:5}`: the script's own arguments from the fifth on, one value
                    # that an unquoted `${PY_ARGS}` splits back into words on the launch line
                    if not ((depth and not (taken and branches)) or guarded) or not vars_.get(name):
                        vars_[name] = " ".join(shlex.quote(a) for a in forwarded)
                    continue
                try:
                    # `MASTER=$(scontrol show hostnames ... | head -n 1)`: a command's output, not a value
                    words = shell_words(raw, subst=False) if raw.strip() else [""]
                except ValueError:
                    words = [raw]
                whole = raw.strip()
                if whole.startswith("$((") and _arith_end(whole, 0) == len(whole):
                    words = [raw.strip()]  # `ACC=$((BATCH / PER_DEVICE / GPUS))`: one word
                count = counted(raw, slurm) or field_count(raw, vars_, empty) or grep_count(raw, vars_, empty)
                if count is not None:
                    words = [count[0]]
                    script.notes.append(f"{path}:{n}: {name}={raw.strip()} counts {count[1]}: {count[0]}")
                pairs = [(name, words[0] if words else "")]
                if len(words) > 1:
                    if not all(_ENV_WORD.match(w) for w in words[1:]):
                        # `A=1 python train.py`, `PYTHONPATH="$(dirname $0)/..":$PYTHONPATH python -m ...`:
                        # an environment prefix of the command, handled below (quoted or not)
                        if re.match(r"^[\"']?(?:\$\(|`)", whole) and not skipped:
                            vars_.pop(name, None)  # `IDS=$(nvidia-smi ... | paste -sd,)`: not run, not known
                        continue
                    pairs += [(w.split("=", 1)[0], w.split("=", 1)[1]) for w in words[1:]]  # `A="x" B=2`
                for name, word in pairs:
                    value = expand(word, vars_, empty)
                    if len(value) > _MAX_VALUE:  # X=$X$X... doubling: not followed (bounded memory)
                        vars_.pop(name, None)
                        continue
                    if ((depth and not (taken and branches)) or guarded) and vars_.get(name):
                        # a default set inside a block or after `&&`: only when still unset/empty
                        # (a branch whose test is known true assigns like the top level)
                        continue
                    vars_[name] = value
                continue
        tokens = launch_tokens(stripped, vars_, empty)
        if tokens is None or _srun_without_command(tokens):
            sub = subscript(stripped, vars_, empty, args)
            if sub is not None:
                env_words = dict(w.split("=", 1) for w in sub[0])
                script.subscripts.append(SubScript(n, sub[1][0], sub[1][1:], cwd, env_words))
                continue
            if tokens is None:
                continue
        expanded = []
        for tok in tokens:
            expanded.append(expand(tok, dict(vars_), empty))
        # an unquoted "$ARGS" holding several words splits again
        final: list[str] = []
        opaque: list[str] = []
        for raw_tok, tok in zip(tokens, expanded):
            if raw_tok in ("$@", "${@}", "$*", "${*}"):
                final.extend(str(a) for a in args)  # the script's own arguments, passed on
                continue
            ref = _ARRAY_REF.fullmatch(raw_tok)
            if ref:  # `"${base_arguments[@]}"` (ProLong train_sft.sh:164)
                items = arrays.get(ref.group(1))
                if items is not None:
                    final.extend(items)
                else:
                    final.append(raw_tok)  # kept as written: the arguments it holds are not known
                    opaque.append(ref.group(1))
                continue
            tail = _positional(raw_tok, args) if _ARGS_FROM.match(raw_tok) else None
            if tail is not None:  # `${@:3}` (OpenMMLab dist_train.sh): the arguments from the third on
                final.extend(tail)
                continue
            if raw_tok != tok and " " in tok.strip():
                final.extend(split_value(tok))
            elif tok == "" and raw_tok.startswith("$"):
                continue
            else:
                final.append(tok)
        final, unset = _drop_unset_prefix(final)
        info = parse_launch(final)
        for name in opaque:
            script.notes.append(f"{path}:{n}: the launch line passes the bash array {name}, whose elements are not "
                                "known statically: the options it holds are unknown (no defaults are taken for them)")
        if unset:
            script.notes.append(f"{path}:{n}: {', '.join(unset)} before the command is not set in the script: read "
                                "as empty (an environment prefix when set)")
        if info.wrapper == "srun" and info.launcher in (None, "python", "torchrun", "torch.distributed.launch") \
                and slurm:
            final, info = _srun_allocation(final, info, slurm)
        if info.launcher is None and info.wrapper is None and not is_tune_run(final):
            continue
        script.launches.append(LaunchLine(n, stripped, final, info, cwd, _enclosing_loop(loops_open, logical)))
    script.variables = {k: v for k, v in vars_.items() if not k.isdigit() and k != "#"}
    return script

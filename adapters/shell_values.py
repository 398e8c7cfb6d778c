"""What some words of a launch script evaluate to without running it: ``[ ... ]``/``test``
conditions, GPU and node counts (``nvidia-smi -L | wc -l``, ``$SLURM_*``), and the script's positional
arguments through ``shift`` and ``OPTIND`` (helpers of :func:`preflight.adapters.shell.read_shell`)."""

from __future__ import annotations

import operator
import re
import shlex
from typing import Mapping, Optional, Sequence

from preflight.adapters.shell_expand import expand

_TEST = re.compile(r"^(?:if|elif|while|until)\s+(?:\[\[?|test\b)\s*(.*?)\s*(?:\]\]?)?\s*$")


_INT_OPS = {"-eq": operator.eq, "-ne": operator.ne, "-gt": operator.gt, "-lt": operator.lt, "-ge": operator.ge,
            "-le": operator.le}


def condition(part: str, vars_: Mapping[str, str], empty: set[str]) -> Optional[bool]:
    """The value of an ``if``/``elif`` test over values the reader knows (``[ $fsdp -ne 0 ]``,
    ``[[ "$x" == "" ]]``, ``[ -z "$A" ]``): True/False, or None when it names anything not
    known statically (an unset variable, a command's output) or is no simple test."""
    m = _TEST.match(part.strip())
    if not m or not part.strip().startswith(("if", "elif")):
        return None
    try:
        words = shlex.split(m.group(1))
    except ValueError:
        return None
    values = [expand(w, dict(vars_), empty) for w in words]
    if any("$" in v or "`" in v for v in values):
        return None
    if len(values) == 2 and values[0] in ("-z", "-n"):
        return (values[1] == "") == (values[0] == "-z")
    if len(values) != 3:
        return None
    left, op, right = values
    if op in ("=", "=="):
        return left == right
    if op == "!=":
        return left != right
    if op in _INT_OPS:
        try:
            return bool(_INT_OPS[op](int(left), int(right)))
        except ValueError:
            return None
    return None


# what a command substitution counts: the node's GPUs (`nvidia-smi -L | wc -l`, jq over
# CUDA_VISIBLE_DEVICES, `torch.cuda.device_count()`) or the allocation's nodes (`scontrol
# show hostnames "$SLURM_JOB_NODELIST" | wc -l`): ProLong ``train_sft.sh`` @ princeton-nlp/ProLong
_GPU_COUNT = re.compile(r"^[\"']?(?:\$\(|`)\s*(?:nvidia-smi\s+(?:-L|--list-gpus)\s*\|\s*wc\s+-l"
                        r"|jq\s+-n\s+[\"']\[\$\{?CUDA_VISIBLE_DEVICES\}?\]\s*\|\s*length[\"']"
                        r"|echo\s+[\"']?\$\{?CUDA_VISIBLE_DEVICES\}?[\"']?\s*\|\s*tr\s+[\"'],[\"']\s+[\"']\\n[\"']\s*\|\s*wc\s+-l"
                        r"|python3?\s+-c\s+[\"']import torch;\s*print\(torch\.cuda\.device_count\(\)\)[\"'])"
                        r"\s*(?:\)|`)[\"']?$")


_NODE_COUNT = re.compile(r"^[\"']?(?:\$\(|`)\s*scontrol\s+show\s+hostnames?\s+[\"']?\$\{?SLURM_(?:JOB_)?NODELIST\}?[\"']?"
                         r"\s*\|\s*wc\s+-l\s*(?:\)|`)[\"']?$")


def counted(raw: str, slurm: Mapping[str, str]) -> Optional[tuple[str, str]]:
    """(value, why) of an assignment whose value counts the GPUs of the node or the nodes of
    the job with a command, inside an sbatch script whose ``#SBATCH`` directives fix that
    count (Slurm makes only the allocated GPUs visible); None otherwise."""
    raw = raw.strip()
    if _GPU_COUNT.match(raw) and slurm.get("SLURM_GPUS_ON_NODE", "").isdigit():
        return slurm["SLURM_GPUS_ON_NODE"], "the GPUs #SBATCH gives each node"
    if _NODE_COUNT.match(raw) and slurm.get("SLURM_NNODES", "").isdigit():
        return slurm["SLURM_NNODES"], "the nodes #SBATCH gives the job"
    return None


# the fields of a known variable counted by awk: `n_gpus=$(echo "${gpu_ids}" | awk -F, '{print NF}')`
# (hkust-nlp/dart-math @ 219b324 ``scripts/train-single-node.sh:72``, then ``$((bs / n_gpus))``; a LLaVA
# xtuner launch script ``NGPUS=$(echo $CUDA_VISIBLE_DEVICES | awk -F, '{print NF}')`` after ``export
# CUDA_VISIBLE_DEVICES=3,4``)
_FIELD_COUNT = re.compile(r"^[\"']?(?:\$\(|`)\s*(?:echo|printf\s+[\"']%s(?:\\n)?[\"'])\s+[\"']?\$\{?(\w+)\}?[\"']?"
                          r"\s*\|\s*awk\s+-F\s*[\"']?([^\s\"'])[\"']?\s+[\"']\{\s*print\s+NF;?\s*\}[\"']"
                          r"\s*(?:\)|`)[\"']?$")


def field_count(raw: str, vars_: Mapping[str, str], empty: set[str]) -> Optional[tuple[str, str]]:
    """(value, why) of ``$(echo "$X" | awk -F<sep> '{print NF}')`` with ``X`` holding a known value
    (no expansion left in it, no blank): its number of ``sep``-separated fields, as awk counts them;
    None otherwise (an unknown or empty variable: nothing is run)."""
    m = _FIELD_COUNT.match(raw.strip())
    if m is None or m.group(1) in empty or m.group(1) not in vars_:
        return None
    value = vars_[m.group(1)]
    if not value or any(c in value for c in "$`\\") or any(c.isspace() for c in value):
        return None
    return str(len(value.split(m.group(2)))), f"the {m.group(2)!r}-separated fields of ${m.group(1)} ({value})"


# a separator counted by grep: `nproc_per_node=$(echo ${devices%%,} | grep -o "," | wc -l)` (ZhengPeng7/BiRefNet
# @ 25cb930 ``train.sh:17``, then ``--nproc_per_node $((nproc_per_node+1))``), also inline as
# `NPROC=$(($(echo $CUDA_VISIBLE_DEVICES | grep -o "," | wc -l)+1))` (a neuralmagic llama-recipes script)
_GREP_COUNT = re.compile(r"(?:\$\(|`)\s*echo\s+(\"?)\$(?:(\w+)|\{(\w+)(?:(%%?|##?)([^}*?\[\]$`\\]*))?\})\1"
                         r"\s*\|\s*grep\s+-o\s+([\"']?)([^\s\"'*.?\[\]\\^$]+)\6\s*\|\s*wc\s+-l\s*(?:\)|`)")


def _known(vars_: Mapping[str, str], empty: set[str], name: str) -> Optional[str]:
    """A variable's value when it is known and plain (no expansion left, no blank)."""
    value = vars_.get(name)
    if name in empty or not value or any(c in value for c in "$`\\") or any(c.isspace() for c in value):
        return None
    return value


def _grep_count(m: re.Match[str], vars_: Mapping[str, str], empty: set[str]) -> Optional[tuple[str, str]]:
    name = m.group(2) or m.group(3)
    value = _known(vars_, empty, name)
    if value is None:
        return None
    op, pat, sep = m.group(4), m.group(5) or "", m.group(7)
    if op and pat:  # `${devices%%,}`: a literal suffix (prefix) stripped once
        if op.startswith("%") and value.endswith(pat):
            value = value[: -len(pat)]
        elif op.startswith("#") and value.startswith(pat):
            value = value[len(pat):]
    return str(value.count(sep)), f"the {sep!r} in ${name} ({value})"


def grep_count(raw: str, vars_: Mapping[str, str], empty: set[str]) -> Optional[tuple[str, str]]:
    """(value, why) of ``$(echo $X | grep -o <sep> | wc -l)`` (the whole value) over a known plain
    variable: how often the literal ``sep`` occurs in it; None otherwise."""
    whole = raw.strip()
    if len(whole) >= 2 and whole[0] == whole[-1] and whole[0] in "\"'":
        whole = whole[1:-1]
    m = _GREP_COUNT.fullmatch(whole)
    return None if m is None else _grep_count(m, vars_, empty)


def inline_counts(raw: str, vars_: Mapping[str, str], empty: set[str]) -> tuple[str, list[str]]:
    """``raw`` with each ``$(echo $X | grep -o <sep> | wc -l)`` inside an arithmetic ``$(( ))`` replaced by
    its count where ``X`` is known (``$(($(echo $D | grep -o "," | wc -l)+1))``), and the reasons."""
    if "$((" not in raw:
        return raw, []
    whys: list[str] = []

    def sub(m: re.Match[str]) -> str:
        got = _grep_count(m, vars_, empty)
        if got is None:
            return m.group(0)
        whys.append(got[1])
        return got[0]
    return _GREP_COUNT.sub(sub, raw), whys


_ARGS_FROM = re.compile(r"^\$\{[@*]:(\d+)(?::(\d+))?\}$")


_ARGS_ALL = re.compile(r"^\$(?:[@*]|\{[@*]\})$")


def _positional(raw: str, args: Sequence[str]) -> Optional[list[str]]:
    """The script's arguments a word ``$@`` / ``${@:5}`` / ``${@:2:3}`` / ``"${@:5}"`` stands for
    (open-mmlab/mmpretrain tools/slurm_train.sh:13 ``PY_ARGS=${@:5}``, then ``... ${PY_ARGS}`` on the
    ``srun`` line); None for any other word."""
    word = raw.strip()
    if len(word) >= 2 and word[0] == word[-1] == '"':
        word = word[1:-1]
    if _ARGS_ALL.fullmatch(word):
        return [str(a) for a in args]
    m = _ARGS_FROM.fullmatch(word)
    if m is None:
        return None
    start = max(int(m.group(1)) - 1, 0)
    end = start + int(m.group(2)) if m.group(2) is not None else None
    return [str(a) for a in list(args)[start:end]]


_SHIFT = re.compile(r"^shift(?:\s+(\d+))?$")


_OPTIND_SHIFT = re.compile(r"""^shift\s+["']?\$\(\(\s*\$?OPTIND\s*-\s*1\s*\)\)["']?$""")


def _optind_shift(part: str, vars_: Mapping[str, str]) -> str:
    """``shift $((OPTIND-1))`` after a ``getopts`` loop the reader evaluated: ``shift N``."""
    optind = vars_.get("OPTIND", "")
    if optind.isdigit() and _OPTIND_SHIFT.match(part.strip()):
        return f"shift {int(optind) - 1}"
    return part

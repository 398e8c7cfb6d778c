"""Shell loops around a launch line (read by :mod:`preflight.adapters.shell`): how many times the
line runs and whether its runs overlap.

A launch line inside ``for``/``while``/``until`` runs once per iteration, so the launch line alone
gives the figures of one run, not of the job. Two shapes matter:

- the line ends in ``&`` (started in the background, the loop goes on at once): the runs overlap.
  bowang-lab/MedSAM @ d71e8a1 ``train_multi_gpus.sh:65-79`` starts one ``srun -N 1 -n 1 -r $i ...
  --node_rank ${i} &`` per node of a five-node allocation and ``wait``s: five steps that form one
  job of 20 processes;
- the line runs in the foreground: the runs follow one another (a sweep over seeds or datasets);
  each is a job of its own.

The iteration count is read where the header fixes it: ``for (( i=0; i < N; ++i ))`` (also
``<=``, ``i++``, ``i+=1``), ``for x in a b c``, ``for i in $(seq A B)`` / ``{A..B}``, with the
script's variables known at the header (``$SLURM_NTASKS`` from ``#SBATCH --ntasks=5``). Anything
else (``while``, ``$(cat hosts)``, an array) has no count. Nothing is run.
"""

from __future__ import annotations

import re
import shlex
from typing import Mapping, Optional

from preflight.adapters.shell_expand import expand

from preflight._record import dataclass


@dataclass
class ShellLoop:
    """The loop a launch line sits in: its header's line and text, the loop variable, the
    iteration count when the header fixes it, and whether the launch line runs in the
    background (``&``: the iterations' runs overlap)."""

    line: int
    header: str
    var: Optional[str] = None
    count: Optional[int] = None
    background: bool = False
    ranked: bool = False  # the line hands each run a rank from a variable (``--node_rank ${i}``)

    def describe(self) -> str:
        times = f"{self.count} times" if self.count is not None else "an unknown number of times"
        how = "side by side (the line ends in `&`)" if self.background else "one run after another"
        return f"the launch line sits in the loop `{self.header}` (line {self.line}): it runs {times}, {how}"


_C_STYLE = re.compile(r"^for\s*\(\(\s*([A-Za-z_]\w*)\s*=\s*([^;]+?)\s*;\s*\1\s*(<=|<|!=)\s*([^;]+?)\s*;"
                      r"\s*(?:\+\+\1|\1\+\+|\1\s*\+=\s*1|\1\s*=\s*\1\s*\+\s*1)\s*\)\)")
_FOR_IN = re.compile(r"^for\s+([A-Za-z_]\w*)\s+in\s+(.*?)\s*(?:;\s*do\b.*)?$")
_WHILE = re.compile(r"^(while|until)\b\s*(.*?)\s*(?:;\s*do\b.*)?$")
_SEQ = re.compile(r"^(?:\$\(|`)\s*seq\s+(?:(-?\d+)\s+)?(?:(-?\d+)\s+)?(-?\d+)\s*(?:\)|`)$")
_BRACE = re.compile(r"^\{(-?\d+)\.\.(-?\d+)\}$")
_MAX_COUNT = 100000


def _int(text: str, vars_: Mapping[str, str], empty: set[str]) -> Optional[int]:
    value = expand(text.strip(), dict(vars_), empty).strip().strip("\"'")
    if value.startswith("$((") and value.endswith("))"):
        value = value[3:-2].strip()
    return int(value) if re.fullmatch(r"-?\d+", value) else None


def _words_count(words: str, vars_: Mapping[str, str], empty: set[str]) -> Optional[int]:
    text = expand(words, dict(vars_), empty).strip()
    seq = _SEQ.match(text)
    if seq:  # seq LAST / seq FIRST LAST / seq FIRST STEP LAST
        nums = [int(g) for g in seq.groups() if g is not None]
        first, step, last = (1, 1, nums[0]) if len(nums) == 1 else \
            (nums[0], 1, nums[1]) if len(nums) == 2 else (nums[0], nums[1], nums[2])
        if step <= 0:
            return None
        return max(0, (last - first) // step + 1)
    brace = _BRACE.match(text)
    if brace:
        return abs(int(brace.group(2)) - int(brace.group(1))) + 1
    if any(c in text for c in "$`*?[{") or not text:
        return None  # a command's output, a glob, an array, a variable not known
    try:
        return len(shlex.split(text))
    except ValueError:
        return None


def loop_header(text: str, line: int, vars_: Mapping[str, str], empty: set[str]) -> Optional[ShellLoop]:
    """The loop a block's first line opens (``text`` as written, its variables known at that
    line), or None when the line opens no loop."""
    header = text.strip()
    shown = re.split(r";\s*do\b", header, maxsplit=1)[0].strip()
    m = _C_STYLE.match(header)
    if m:
        start, op, bound = _int(m.group(2), vars_, empty), m.group(3), _int(m.group(4), vars_, empty)
        count = None
        if start is not None and bound is not None:
            count = max(0, bound - start + (1 if op == "<=" else 0))
        return ShellLoop(line, shown, m.group(1), count if count is None or count <= _MAX_COUNT else None)
    m = _FOR_IN.match(header)
    if m:
        count = _words_count(m.group(2), vars_, empty)
        return ShellLoop(line, shown, m.group(1), count if count is None or count <= _MAX_COUNT else None)
    if header.startswith("for"):
        return ShellLoop(line, shown)
    if _WHILE.match(header):
        return ShellLoop(line, shown)
    return None


_RANK_OPTION = r"(?:--?(?:node[_-]?rank|machine[_-]?rank|node[_-]?id|rank|nr))"
_RANK_ENV = r"(?:NODE_RANK|MACHINE_RANK|GROUP_RANK|RANK|NODE_ID)"
_REF = r"""["']?\$\{?[A-Za-z_]\w*\}?(?!\w)"""
_RANKED = re.compile(_RANK_OPTION + r"(?:=|\s+)" + _REF + r"|\b" + _RANK_ENV + "=" + _REF)


def ranked(line: str) -> bool:
    """Whether a launch line as written hands its run a rank from a variable (``--node_rank ${i}``,
    ``--machine_rank=$n``, ``NODE_RANK=$i``): in a loop, a rank that differs from run to run."""
    return bool(_RANKED.search(line))


_BACKGROUND = re.compile(r"(?<![&|>])&\s*$")


def runs_in_background(line: str) -> bool:
    """Whether a (logical) command line ends in a lone ``&`` (not ``&&``, not ``2>&1``)."""
    return bool(_BACKGROUND.search(line.rstrip().removesuffix("done").rstrip().rstrip(";").rstrip()))

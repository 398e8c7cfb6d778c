"""Score preflight on programs rebuilt from public bug reports (bench/bugs/cases/*.cases).

Each case is a bug with its corrected twin (or a tricky-correct program alone). For every
variant the script writes the files into a scratch directory and runs preflight the way a
user would: ``preflight check DIR``, ``preflight audit LAUNCH_SCRIPT SCRIPT... --config CONFIG...``
and ``preflight validate CONFIG...``. A finding counts when its severity is warning or
error.

The job is audited as the user launches it: the variant's launch script, whatever its name
(``launch.sh``; else the one shell script, ``run.sh``, ``finetune.sh``, ``x.sbatch``..., that runs
something and that no other shell script of the variant names; see ``launch_script``), is given
to ``audit`` first. preflight reads it as it reads any launch script: its launch line (continuation
lines, variables, ``#SBATCH`` directives, scripts it calls), the training script that line runs
and the configs it names. The variant's Python files and configs are passed too, as before. A
variant without a launch script is audited with the case's ``launch:`` line after ``--``.
(Until det45 the scorer read only a file named ``launch.sh``, and only its last line naming a
script, as the launch command: a measurement change; see docs/corpus.md.)

* A bug is **found** when some (code, file) pair at warning or above appears more often on
  the bug variant than on its twin: a finding the fix removes.
* A twin (or a tricky-correct program) is **flagged** when any finding at warning or above
  appears on it.

Usage::

    python bench/bugs/score.py                 # the table, per family
    python bench/bugs/score.py --verbose       # plus one line per case
    python bench/bugs/score.py --case acc-gather-metrics --show
    python bench/bugs/score.py --json out.json
    python bench/bugs/score.py --set all --jobs 2  # every set, variants run on two threads (same output)
    python bench/bugs/score.py --set held-out  # the held-out cases (bench/bugs/heldout/) alone
    python bench/bugs/score.py --set held-out-45 --family accelerate,deepspeed -v  # two families of one set
    python bench/bugs/score.py --set held-out-2  # the second held-out set (bench/bugs/heldout2/)
    python bench/bugs/score.py --set held-out-3  # the third held-out set (bench/bugs/heldout3/)
    python bench/bugs/score.py --set held-out-4  # the fourth held-out set (bench/bugs/heldout4/)
    python bench/bugs/score.py --set held-out-5  # the fifth held-out set (bench/bugs/heldout5/)
    python bench/bugs/score.py --set held-out-6  # the sixth held-out set (bench/bugs/heldout6/)
    python bench/bugs/score.py --set held-out-7  # the seventh held-out set (bench/bugs/heldout7/)
    python bench/bugs/score.py --set held-out-8  # the eighth held-out set (bench/bugs/heldout8/)
    python bench/bugs/score.py --set held-out-9  # the ninth held-out set (bench/bugs/heldout9/)
    python bench/bugs/score.py --set held-out-10  # the tenth held-out set (bench/bugs/heldout10/)
    python bench/bugs/score.py --set held-out-11  # the eleventh held-out set (bench/bugs/heldout11/)
    python bench/bugs/score.py --set held-out-12  # the twelfth held-out set (bench/bugs/heldout12/)
    python bench/bugs/score.py --set held-out-13  # the thirteenth held-out set (bench/bugs/heldout13/)
    python bench/bugs/score.py --set held-out-14  # the fourteenth held-out set (bench/bugs/heldout14/)
    python bench/bugs/score.py --set held-out-15  # the fifteenth held-out set (bench/bugs/heldout15/)
    python bench/bugs/score.py --set held-out-16  # the sixteenth held-out set (bench/bugs/heldout16/)
    python bench/bugs/score.py --set held-out-17  # the seventeenth held-out set (bench/bugs/heldout17/)
    python bench/bugs/score.py --set held-out-18  # the eighteenth held-out set (bench/bugs/heldout18/)
    python bench/bugs/score.py --set held-out-19  # the nineteenth held-out set (bench/bugs/heldout19/)
    python bench/bugs/score.py --set held-out-20  # the twentieth held-out set (bench/bugs/heldout20/)
    python bench/bugs/score.py --set held-out-21  # the twenty-first held-out set (bench/bugs/heldout21/)
    python bench/bugs/score.py --set held-out-22  # the twenty-second held-out set (bench/bugs/heldout22/)
    python bench/bugs/score.py --set held-out-23  # the twenty-third held-out set (bench/bugs/heldout23/)
    python bench/bugs/score.py --set held-out-24  # the twenty-fourth held-out set (bench/bugs/heldout24/)
    python bench/bugs/score.py --set held-out-25  # the twenty-fifth held-out set (bench/bugs/heldout25/)
    python bench/bugs/score.py --set held-out-26  # the twenty-sixth held-out set (bench/bugs/heldout26/)
    python bench/bugs/score.py --set held-out-27  # the twenty-seventh held-out set (bench/bugs/heldout27/)
    python bench/bugs/score.py --set held-out-28  # the twenty-eighth held-out set (bench/bugs/heldout28/)
    python bench/bugs/score.py --set held-out-29  # the twenty-ninth held-out set (bench/bugs/heldout29/)
    python bench/bugs/score.py --set held-out-30  # the thirtieth held-out set (bench/bugs/heldout30/)
    python bench/bugs/score.py --set held-out-31  # the thirty-first held-out set (bench/bugs/heldout31/)
    python bench/bugs/score.py --set held-out-32  # the thirty-second held-out set (bench/bugs/heldout32/)
    python bench/bugs/score.py --set held-out-33  # the thirty-third held-out set (bench/bugs/heldout33/)
    python bench/bugs/score.py --set held-out-34  # the thirty-fourth held-out set (bench/bugs/heldout34/)
    python bench/bugs/score.py --set held-out-35  # the thirty-fifth held-out set (bench/bugs/heldout35/)
    python bench/bugs/score.py --set held-out-36  # the thirty-sixth held-out set (bench/bugs/heldout36/)
    python bench/bugs/score.py --set held-out-37  # the thirty-seventh held-out set (bench/bugs/heldout37/)
    python bench/bugs/score.py --set held-out-38  # the thirty-eighth held-out set (bench/bugs/heldout38/)
    python bench/bugs/score.py --set held-out-39  # the thirty-ninth held-out set (bench/bugs/heldout39/)
    python bench/bugs/score.py --set held-out-40  # the fortieth held-out set (bench/bugs/heldout40/)
    python bench/bugs/score.py --set held-out-41  # the forty-first held-out set (bench/bugs/heldout41/)
    python bench/bugs/score.py --set held-out-42  # the forty-second held-out set (bench/bugs/heldout42/)
    python bench/bugs/score.py --set held-out-43  # the forty-third held-out set (bench/bugs/heldout43/)
    python bench/bugs/score.py --set held-out-44  # the forty-fourth held-out set (bench/bugs/heldout44/)
    python bench/bugs/score.py --set held-out-45  # the forty-fifth held-out set (bench/bugs/heldout45/)
    python bench/bugs/score.py --set held-out-46  # the forty-sixth held-out set (bench/bugs/heldout46/)
    python bench/bugs/score.py --set held-out-47  # the forty-seventh held-out set (bench/bugs/heldout47/)
    python bench/bugs/score.py --set held-out-48  # the forty-eighth held-out set (bench/bugs/heldout48/)
    python bench/bugs/score.py --set held-out-49  # the forty-ninth held-out set (bench/bugs/heldout49/)

The case format (one ``.cases`` file per family)::

    ### case: <id>
    source: <URL of the public report>
    title: <one line>
    kind: bug | correct            (correct: a tricky-correct program, files under fix/)
    launch: torchrun --nproc_per_node 4 train.py     (optional; a variant's launch script wins)
    expect: train.py:22 what the finding must say     (optional; held-out-2 labels every bug with it)
    still_buggy: PF457 | why the twin keeps that problem, with the source   (optional, see below)
    --- bug/train.py
    ...
    --- fix/train.py
    ...
    --- both/ds_config.json        (written into both variants)

No case is derived from preflight's own rule examples; each is rebuilt from its report.

``still_buggy`` names the codes (before the ``|``) of findings that were judged true on the twin (or
on a tricky-correct program): the report's own fix leaves that problem in the program, and the line
says why with a source. A twin whose warning-or-above findings all carry such codes is not counted as
a flagged correct program; it is counted in the table's last column instead, so the figure stays
visible. Any other code on it still flags it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

HERE = Path(__file__).resolve().parent
CASES_DIR = HERE / "cases"
HELDOUT_DIR = HERE / "heldout"  # written after the rules, never used to write or tune one
HELDOUT2_DIR = HERE / "heldout2"  # a second held-out set, written after the first was scored
HELDOUT3_DIR = HERE / "heldout3"  # a third held-out set, written after the second was scored
HELDOUT4_DIR = HERE / "heldout4"  # a fourth held-out set, written after the third was scored
HELDOUT5_DIR = HERE / "heldout5"  # a fifth held-out set, written after the fourth was scored
HELDOUT6_DIR = HERE / "heldout6"  # a sixth held-out set, written after the fifth was scored
HELDOUT7_DIR = HERE / "heldout7"  # a seventh held-out set, written after the sixth was scored
HELDOUT8_DIR = HERE / "heldout8"  # an eighth held-out set, written after the seventh was scored
HELDOUT9_DIR = HERE / "heldout9"  # a ninth held-out set, written after the eighth was scored
HELDOUT10_DIR = HERE / "heldout10"  # a tenth held-out set, written after the ninth was scored
HELDOUT11_DIR = HERE / "heldout11"  # an eleventh held-out set, written after the tenth was scored
HELDOUT12_DIR = HERE / "heldout12"  # a twelfth held-out set, written after the eleventh was scored
HELDOUT13_DIR = HERE / "heldout13"  # a thirteenth held-out set, written after the twelfth was scored
HELDOUT14_DIR = HERE / "heldout14"  # a fourteenth held-out set, written after the thirteenth was scored
HELDOUT15_DIR = HERE / "heldout15"  # a fifteenth held-out set, written after the fourteenth was scored
HELDOUT16_DIR = HERE / "heldout16"  # a sixteenth held-out set, written after the fifteenth was scored
HELDOUT17_DIR = HERE / "heldout17"  # a seventeenth held-out set, written after the sixteenth was scored
HELDOUT18_DIR = HERE / "heldout18"  # an eighteenth held-out set, written after the seventeenth was scored
HELDOUT19_DIR = HERE / "heldout19"  # a nineteenth held-out set, written after the eighteenth was scored
HELDOUT20_DIR = HERE / "heldout20"  # a twentieth held-out set, written after the nineteenth was scored
HELDOUT21_DIR = HERE / "heldout21"  # a twenty-first held-out set, written after the twentieth was scored
HELDOUT22_DIR = HERE / "heldout22"  # a twenty-second held-out set, written after the twenty-first was scored
HELDOUT23_DIR = HERE / "heldout23"  # a twenty-third held-out set, written after the twenty-second was scored
HELDOUT24_DIR = HERE / "heldout24"  # a twenty-fourth held-out set, written after the twenty-third was scored
HELDOUT25_DIR = HERE / "heldout25"  # a twenty-fifth held-out set, written after the twenty-fourth was scored
HELDOUT26_DIR = HERE / "heldout26"  # a twenty-sixth held-out set, written after the twenty-fifth was scored
HELDOUT27_DIR = HERE / "heldout27"  # a twenty-seventh held-out set, written after the twenty-sixth was scored
HELDOUT28_DIR = HERE / "heldout28"  # a twenty-eighth held-out set, written after the twenty-seventh was scored
HELDOUT29_DIR = HERE / "heldout29"  # a twenty-ninth held-out set, written after the twenty-eighth was scored
HELDOUT30_DIR = HERE / "heldout30"  # a thirtieth held-out set, written after the twenty-ninth was scored
HELDOUT31_DIR = HERE / "heldout31"  # a thirty-first held-out set, written after the thirtieth was scored
HELDOUT32_DIR = HERE / "heldout32"  # a thirty-second held-out set, written after the thirty-first was scored
HELDOUT33_DIR = HERE / "heldout33"  # a thirty-third held-out set, written after the thirty-second was scored
HELDOUT34_DIR = HERE / "heldout34"  # a thirty-fourth held-out set, written after the thirty-third was scored
HELDOUT35_DIR = HERE / "heldout35"  # a thirty-fifth held-out set, written after the thirty-fourth was scored
HELDOUT36_DIR = HERE / "heldout36"  # a thirty-sixth held-out set, written after the thirty-fifth was scored
HELDOUT37_DIR = HERE / "heldout37"  # a thirty-seventh held-out set, written after the thirty-sixth was scored
HELDOUT38_DIR = HERE / "heldout38"  # a thirty-eighth held-out set, written after the thirty-seventh was scored
HELDOUT39_DIR = HERE / "heldout39"  # a thirty-ninth held-out set, written after the thirty-eighth was scored
HELDOUT40_DIR = HERE / "heldout40"  # a fortieth held-out set, written after the thirty-ninth was scored
HELDOUT41_DIR = HERE / "heldout41"  # a forty-first held-out set, written after the fortieth was scored
HELDOUT42_DIR = HERE / "heldout42"  # a forty-second held-out set, written after the forty-first was scored
HELDOUT43_DIR = HERE / "heldout43"  # a forty-third held-out set, written after the forty-second was scored
HELDOUT44_DIR = HERE / "heldout44"  # a forty-fourth held-out set, written after the forty-third was scored
HELDOUT45_DIR = HERE / "heldout45"  # a forty-fifth held-out set, written after the forty-fourth was scored
HELDOUT46_DIR = HERE / "heldout46"  # a forty-sixth held-out set, written after the forty-fifth was scored
HELDOUT47_DIR = HERE / "heldout47"  # a forty-seventh held-out set, written after the forty-sixth was scored
HELDOUT48_DIR = HERE / "heldout48"  # a forty-eighth held-out set, written after the forty-seventh was scored
HELDOUT49_DIR = HERE / "heldout49"  # a forty-ninth held-out set, written after the forty-eighth was scored
SETS = {"in-sample": (CASES_DIR,), "held-out": (HELDOUT_DIR,), "held-out-2": (HELDOUT2_DIR,),
        "held-out-3": (HELDOUT3_DIR,), "held-out-4": (HELDOUT4_DIR,), "held-out-5": (HELDOUT5_DIR,),
        "held-out-6": (HELDOUT6_DIR,), "held-out-7": (HELDOUT7_DIR,), "held-out-8": (HELDOUT8_DIR,),
        "held-out-9": (HELDOUT9_DIR,), "held-out-10": (HELDOUT10_DIR,), "held-out-11": (HELDOUT11_DIR,),
        "held-out-12": (HELDOUT12_DIR,), "held-out-13": (HELDOUT13_DIR,), "held-out-14": (HELDOUT14_DIR,),
        "held-out-15": (HELDOUT15_DIR,), "held-out-16": (HELDOUT16_DIR,),
        "held-out-17": (HELDOUT17_DIR,), "held-out-18": (HELDOUT18_DIR,),
        "held-out-19": (HELDOUT19_DIR,), "held-out-20": (HELDOUT20_DIR,),
        "held-out-21": (HELDOUT21_DIR,), "held-out-22": (HELDOUT22_DIR,),
        "held-out-23": (HELDOUT23_DIR,), "held-out-24": (HELDOUT24_DIR,),
        "held-out-25": (HELDOUT25_DIR,), "held-out-26": (HELDOUT26_DIR,),
        "held-out-27": (HELDOUT27_DIR,), "held-out-28": (HELDOUT28_DIR,),
        "held-out-29": (HELDOUT29_DIR,), "held-out-30": (HELDOUT30_DIR,),
        "held-out-31": (HELDOUT31_DIR,), "held-out-32": (HELDOUT32_DIR,),
        "held-out-33": (HELDOUT33_DIR,), "held-out-34": (HELDOUT34_DIR,),
        "held-out-35": (HELDOUT35_DIR,), "held-out-36": (HELDOUT36_DIR,),
        "held-out-37": (HELDOUT37_DIR,), "held-out-38": (HELDOUT38_DIR,),
        "held-out-39": (HELDOUT39_DIR,), "held-out-40": (HELDOUT40_DIR,),
        "held-out-41": (HELDOUT41_DIR,), "held-out-42": (HELDOUT42_DIR,),
        "held-out-43": (HELDOUT43_DIR,), "held-out-44": (HELDOUT44_DIR,),
        "held-out-45": (HELDOUT45_DIR,), "held-out-46": (HELDOUT46_DIR,),
        "held-out-47": (HELDOUT47_DIR,), "held-out-48": (HELDOUT48_DIR,),
        "held-out-49": (HELDOUT49_DIR,),
        "all": (CASES_DIR, HELDOUT_DIR, HELDOUT2_DIR, HELDOUT3_DIR, HELDOUT4_DIR, HELDOUT5_DIR, HELDOUT6_DIR,
                HELDOUT7_DIR, HELDOUT8_DIR, HELDOUT9_DIR, HELDOUT10_DIR, HELDOUT11_DIR, HELDOUT12_DIR,
                HELDOUT13_DIR, HELDOUT14_DIR, HELDOUT15_DIR, HELDOUT16_DIR, HELDOUT17_DIR, HELDOUT18_DIR,
                HELDOUT19_DIR, HELDOUT20_DIR, HELDOUT21_DIR, HELDOUT22_DIR, HELDOUT23_DIR, HELDOUT24_DIR,
                HELDOUT25_DIR, HELDOUT26_DIR, HELDOUT27_DIR, HELDOUT28_DIR,
                HELDOUT29_DIR, HELDOUT30_DIR, HELDOUT31_DIR, HELDOUT32_DIR, HELDOUT33_DIR,
                HELDOUT34_DIR, HELDOUT35_DIR, HELDOUT36_DIR, HELDOUT37_DIR, HELDOUT38_DIR,
                HELDOUT39_DIR, HELDOUT40_DIR, HELDOUT41_DIR, HELDOUT42_DIR, HELDOUT43_DIR,
                HELDOUT44_DIR, HELDOUT45_DIR, HELDOUT46_DIR, HELDOUT47_DIR,
                HELDOUT48_DIR, HELDOUT49_DIR)}
FAMILIES = ("pytorch", "lightning", "accelerate", "transformers", "deepspeed", "hydra")
WARN = {"error", "warning"}
CONFIG_SUFFIXES = {".json", ".yaml", ".yml", ".toml"}


@dataclass
class Case:
    id: str
    family: str
    source: str = ""
    title: str = ""
    kind: str = "bug"
    launch: str = ""
    expect: str = ""  # file:line and meaning of the finding the bug needs (labeler's reading)
    still_buggy: str = ""  # "PF457 | why": findings judged true on the twin (the report's fix keeps the problem)
    files: Dict[str, Dict[str, str]] = field(default_factory=lambda: {"bug": {}, "fix": {}})


def parse_cases(path: Path) -> List[Case]:
    family = path.stem
    cases: List[Case] = []
    current: Optional[Case] = None
    target: Optional[tuple] = None
    buf: List[str] = []

    def flush() -> None:
        nonlocal target, buf
        if current is not None and target is not None:
            variant, name = target
            text = "\n".join(buf).strip("\n") + "\n"
            for v in (("bug", "fix") if variant == "both" else (variant,)):
                current.files.setdefault(v, {})[name] = text
        target, buf = None, []

    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("### case:"):
            flush()
            current = Case(id=line.split(":", 1)[1].strip(), family=family)
            cases.append(current)
            continue
        if current is None:
            continue
        m = re.match(r"^--- (bug|fix|both)/(\S+)\s*$", line)
        if m:
            flush()
            target = (m.group(1), m.group(2))
            continue
        if target is None:
            m = re.match(r"^(source|title|kind|launch|expect|still_buggy):\s*(.*)$", line)
            if m:
                setattr(current, m.group(1), m.group(2).strip())
            continue
        buf.append(line)
    flush()
    return cases


def load_cases(selected: Optional[str] = None, which: str = "in-sample") -> List[Case]:
    """The cases of one set: ``in-sample`` (cases/), ``held-out`` (heldout/), ``held-out-2``
    (heldout2/), ``held-out-3`` (heldout3/), ``held-out-4`` (heldout4/), ``held-out-5`` (heldout5/),
    ``held-out-6`` (heldout6/), ``held-out-7`` (heldout7/), ``held-out-8`` (heldout8/), ``held-out-9`` (heldout9/),
    ``held-out-10`` (heldout10/), ``held-out-11`` (heldout11/), ``held-out-12`` (heldout12/),
    ``held-out-13`` (heldout13/), ``held-out-14`` (heldout14/), ``held-out-15`` (heldout15/),
    ``held-out-16`` (heldout16/), ``held-out-17`` (heldout17/), ``held-out-18`` (heldout18/),
    ``held-out-19`` (heldout19/), ``held-out-20`` (heldout20/), ``held-out-21`` (heldout21/), ``held-out-22`` (heldout22/),
    ``held-out-23`` (heldout23/), ``held-out-24`` (heldout24/), ``held-out-25`` (heldout25/),
    ``held-out-26`` (heldout26/), ``held-out-27`` (heldout27/), ``held-out-28`` (heldout28/), ``held-out-29`` (heldout29/), ``held-out-30`` (heldout30/), ``held-out-31`` (heldout31/),
    ``held-out-32`` (heldout32/), ``held-out-33`` (heldout33/),
    ``held-out-34`` (heldout34/), ``held-out-35`` (heldout35/), ``held-out-36`` (heldout36/),
    ``held-out-37`` (heldout37/), ``held-out-38`` (heldout38/), ``held-out-39`` (heldout39/),
    ``held-out-40`` (heldout40/), ``held-out-41`` (heldout41/),
    ``held-out-42`` (heldout42/), ``held-out-43`` (heldout43/), ``held-out-44`` (heldout44/),
    ``held-out-45`` (heldout45/), ``held-out-46`` (heldout46/), ``held-out-47`` (heldout47/),
    ``held-out-48`` (heldout48/), ``held-out-49`` (heldout49/) or ``all``."""
    out: List[Case] = []
    for folder in SETS[which]:
        for fam in FAMILIES:
            p = folder / f"{fam}.cases"
            if p.exists():
                out.extend(parse_cases(p))
    if selected:
        out = [c for c in out if c.id == selected]
    return out


def _run(argv: List[str], cwd: Path) -> dict:
    proc = subprocess.run(argv, cwd=str(cwd), capture_output=True, text=True, timeout=120)
    if not proc.stdout.strip():  # preflight did not run (e.g. not importable from cwd): not a score of zero
        raise SystemExit(f"no output from {' '.join(argv)} in {cwd} (exit {proc.returncode}):\n{proc.stderr[-800:]}")
    try:
        return json.loads(proc.stdout or "{}")
    except json.JSONDecodeError:
        sys.stderr.write(f"unreadable output of {' '.join(argv)} in {cwd}:\n{proc.stdout[:500]}{proc.stderr[:500]}\n")
        return {}


SHELL_SUFFIXES = (".sh", ".bash", ".sbatch", ".slurm")
_LAUNCH_WORDS = re.compile(r"(?m)^[^#\n]*\b(torchrun|deepspeed|accelerate|srun|python3?|sbatch|bash|sh|"
                           r"mpirun|composer|lightning|tune|llamafactory-cli|trl)\b")


def launch_script(files: Dict[str, str]) -> Optional[str]:
    """The variant's launch script, whatever its name: ``launch.sh`` when there is one at the top, else
    the shell scripts (``.sh``/``.bash``/``.sbatch``/``.slurm`` or a ``#!...sh`` file) that run something
    (a Python script, a launcher, another shell script); of those, one no other names (the script the
    user runs, not one it calls), the shallowest, then by name. None when the variant has none."""
    shells = [n for n, t in files.items()
              if n.endswith(SHELL_SUFFIXES) or (t.startswith("#!") and "sh" in t.split("\n", 1)[0])]
    if "launch.sh" in shells:
        return "launch.sh"
    runs = [n for n in shells if _LAUNCH_WORDS.search(files[n])]
    if not runs:
        return None
    called = {n for n in runs for m in runs if m != n and Path(n).name in files[m]}
    top = [n for n in runs if n not in called] or runs
    return min(top, key=lambda n: (len(Path(n).parts), n))


def run_variant(exe: List[str], root: Path, files: Dict[str, str], launch: str) -> List[tuple]:
    """Write the files under root and run check, audit and validate; (code, file, line, sev, msg)."""
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    scripts = sorted(n for n in files if n.endswith((".py", ".ipynb")))
    script = launch_script(files)
    configs = sorted(n for n in files if Path(n).suffix in CONFIG_SUFFIXES)
    found: List[tuple] = []
    check = _run([*exe, "check", ".", "--format", "json", "--no-cache", "-j", "1", "--exit-zero"], root)
    for f in check.get("findings", []):
        found.append((f["code"], os.path.relpath(f["path"], root) if os.path.isabs(f["path"]) else f["path"],
                      f["line"], f["severity"], f["message"]))
    if scripts or script:
        # (a variant of a launch script and configs only, the launched Python file not part of the job, e.g.
        # transformers' run_translation.py: the user audits the launch script all the same)
        # the job as the user launches it: the launch script first (preflight reads its launch line,
        # the script it runs and the configs it names), then the variant's Python files
        argv = [*exe, "audit", *([script] if script else []), *scripts]
        # top-level configs are passed one by one; a config folder (Hydra's conf/) is passed as a folder
        given = []
        for c in configs:
            top = Path(c).parts[0] if len(Path(c).parts) > 1 else c
            if top not in given:
                given.append(top)
        for c in given:
            argv += ["--config", c]
        argv += ["--format", "json", "--no-cache", "-j", "1", "--exit-zero"]
        if launch and not script:
            argv += ["--", *shlex.split(launch)]
        audit = _run(argv, root)
        for f in audit.get("findings", []):
            found.append((f["code"], f.get("path") or "", f.get("line") or 0, f["severity"], f["message"]))
    if configs:
        val = _run([*exe, "validate", *configs, "--format", "json"], root)
        for entry in val.get("files", []):
            for p in entry.get("problems", []):
                found.append(("validate:" + p.get("code", "?"), os.path.relpath(p["path"], root)
                              if os.path.isabs(p["path"]) else p["path"], p.get("line") or 0,
                              p.get("severity", "error"), p.get("message", "")))
    # check and audit both run the code rules: keep one copy of each identical finding
    seen = set()
    unique = []
    for f in found:
        key = (f[0], os.path.normpath(f[1]), f[2], f[4])
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique


def counted(findings: List[tuple]) -> Counter:
    return Counter((f[0], os.path.normpath(f[1])) for f in findings if f[3] in WARN)


def still_buggy_codes(case: Case) -> set:
    """The codes a case's ``still_buggy`` line names (before its ``|``)."""
    head = case.still_buggy.split("|", 1)[0]
    return set(re.findall(r"PF\d{3,4}|validate:[\w-]+", head))


def _runs(cases: List[Case], exe: List[str], tmp: str, jobs: int) -> Dict[int, tuple]:
    """Every case's variants run up front on ``jobs`` threads (each run is a subprocess): index ->
    (fix findings, bug findings or None). The scoring below reads them in the cases' order, so the
    output is the same as a sequential run's."""
    def one(i: int) -> tuple:
        case, base = cases[i], Path(tmp) / cases[i].id
        fix_f = run_variant(exe, base / "fix", case.files.get("fix", {}), case.launch)
        bug_f = None if case.kind == "correct" else run_variant(exe, base / "bug", case.files.get("bug", {}),
                                                                case.launch)
        return fix_f, bug_f
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return dict(zip(range(len(cases)), pool.map(one, range(len(cases)))))


def score(cases: List[Case], exe: List[str], verbose: bool, show: bool, jobs: int = 1) -> dict:
    per: Dict[str, dict] = defaultdict(lambda: {"bugs": 0, "found": 0, "twins": 0, "flagged": 0,
                                                "correct": 0, "correct_flagged": 0, "still_buggy": 0})
    rows = []
    with tempfile.TemporaryDirectory(prefix="pf-bugs-") as tmp:
        ran = _runs(cases, exe, tmp, jobs) if jobs > 1 else {}
        for i, case in enumerate(cases):
            base = Path(tmp) / case.id
            fix_f = ran[i][0] if ran else run_variant(exe, base / "fix", case.files.get("fix", {}), case.launch)
            fix_c = counted(fix_f)
            row = {"id": case.id, "family": case.family, "kind": case.kind, "source": case.source,
                   "fix_flagged": sorted({k[0] for k in fix_c})}
            if case.expect:
                row["expect"] = case.expect
            labelled = still_buggy_codes(case)
            flagged = bool(fix_c) and not set(row["fix_flagged"]) <= labelled
            if fix_c and not flagged:
                row["still_buggy"] = row["fix_flagged"]
            stats = per[case.family]
            stats["still_buggy"] += bool(fix_c) and not flagged
            if case.kind == "correct":
                stats["correct"] += 1
                stats["correct_flagged"] += flagged
            else:
                bug_f = ran[i][1] if ran else run_variant(exe, base / "bug", case.files.get("bug", {}), case.launch)
                bug_c = counted(bug_f)
                new = sorted({k[0] for k in bug_c if bug_c[k] > fix_c.get(k, 0)})
                row["found_by"] = new
                stats["bugs"] += 1
                stats["found"] += bool(new)
                stats["twins"] += 1
                stats["flagged"] += flagged
                if show:
                    print(f"== {case.id} bug")
                    for f in bug_f:
                        print("  ", f[3], f[0], f"{f[1]}:{f[2]}", f[4][:160])
            if show:
                print(f"== {case.id} fix")
                for f in fix_f:
                    print("  ", f[3], f[0], f"{f[1]}:{f[2]}", f[4][:160])
            if verbose:
                if case.kind == "correct":
                    mark = "ok " if not flagged else "FP "
                    print(f"{mark} {case.family:12} {case.id:40} correct  flagged={row['fix_flagged']}"
                          + (" (labelled still buggy)" if "still_buggy" in row else ""))
                else:
                    mark = "hit" if row["found_by"] else "MISS"
                    print(f"{mark:4} {case.family:12} {case.id:40} by={row['found_by']} twin={row['fix_flagged']}"
                          + (" (labelled still buggy)" if "still_buggy" in row else ""))
            rows.append(row)
    return {"families": dict(per), "cases": rows}


def table(result: dict) -> str:
    lines = ["| family | bugs | found | recall | twins flagged (warning+) | tricky-correct flagged "
             "| labelled still buggy (not counted) |",
             "|---|---|---|---|---|---|---|"]
    tot: Counter[str] = Counter()
    for fam in FAMILIES:
        s = result["families"].get(fam)
        if not s:
            continue
        tot.update(s)
        lines.append(_row(fam, s))
    lines.append(_row("**all**", tot))
    return "\n".join(lines)


def _row(name: str, s) -> str:
    recall = 100.0 * s["found"] / s["bugs"] if s["bugs"] else 0.0
    checked = s["twins"] + s["correct"]
    flagged = s["flagged"] + s["correct_flagged"]
    fp = 100.0 * flagged / checked if checked else 0.0
    return (f"| {name} | {s['bugs']} | {s['found']} | {recall:.0f}% | "
            f"{s['flagged']}/{s['twins']} twins + {s['correct_flagged']}/{s['correct']} = {fp:.1f}% | "
            f"{s['correct_flagged']}/{s['correct']} | {s.get('still_buggy', 0)} |")


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--case", help="score one case")
    ap.add_argument("--set", dest="which", choices=sorted(SETS), default="in-sample",
                    help="in-sample: cases/ (the rules were written with them in view); "
                         "held-out: heldout/ (written afterwards, from other reports); "
                         "held-out-2: heldout2/ (a second held-out set); held-out-3: heldout3/ (a third); "
                         "held-out-4: heldout4/ (a fourth); held-out-5: heldout5/ (a fifth); "
                         "held-out-6: heldout6/ (a sixth); held-out-7: heldout7/ (a seventh); "
                         "held-out-8: heldout8/ (an eighth); held-out-9: heldout9/ (a ninth); "
                         "held-out-10: heldout10/ (a tenth); held-out-11: heldout11/ (an eleventh); "
                         "held-out-12: heldout12/ (a twelfth); held-out-13: heldout13/ (a thirteenth); "
                         "held-out-14: heldout14/ (a fourteenth); held-out-15: heldout15/ (a fifteenth); "
                         "held-out-16: heldout16/ (a sixteenth); held-out-17: heldout17/ (a seventeenth); "
                         "held-out-18: heldout18/ (an eighteenth); held-out-19: heldout19/ (a nineteenth); "
                         "held-out-20: heldout20/ (a twentieth); held-out-21: heldout21/ (a twenty-first); "
                         "held-out-22: heldout22/ (a twenty-second); held-out-23: heldout23/ (a twenty-third); "
                         "held-out-24: heldout24/ (a twenty-fourth); held-out-25: heldout25/ (a twenty-fifth); "
                         "held-out-26: heldout26/ (a twenty-sixth); held-out-27: heldout27/ (a twenty-seventh); "
                         "held-out-28: heldout28/ (a twenty-eighth); held-out-29: heldout29/ (a twenty-ninth); "
                         "held-out-30: heldout30/ (a thirtieth); held-out-31: heldout31/ (a thirty-first); "
                         "held-out-32: heldout32/ (a thirty-second); "
                         "held-out-33: heldout33/ (a thirty-third); "
                         "held-out-34: heldout34/ (a thirty-fourth); "
                         "held-out-35: heldout35/ (a thirty-fifth); "
                         "held-out-36: heldout36/ (a thirty-sixth); "
                         "held-out-37: heldout37/ (a thirty-seventh); "
                         "held-out-38: heldout38/ (a thirty-eighth); "
                         "held-out-39: heldout39/ (a thirty-ninth); "
                         "held-out-40: heldout40/ (a fortieth); "
                         "held-out-41: heldout41/ (a forty-first); "
                         "held-out-42: heldout42/ (a forty-second); "
                         "held-out-43: heldout43/ (a forty-third); "
                         "held-out-44: heldout44/ (a forty-fourth); "
                         "held-out-45: heldout45/ (a forty-fifth); "
                         "held-out-46: heldout46/ (a forty-sixth); "
                         "held-out-47: heldout47/ (a forty-seventh); "
                         "held-out-48: heldout48/ (a forty-eighth); "
                         "held-out-49: heldout49/ (a forty-ninth); "
                         "all: every set")
    ap.add_argument("--show", action="store_true", help="print every finding of each variant")
    ap.add_argument("--verbose", "-v", action="store_true")
    ap.add_argument("--json", type=Path, help="write the per-case result here")
    ap.add_argument("--jobs", "-j", type=int, default=1,
                    help="run the variants on this many threads (same output as one; default 1)")
    ap.add_argument("--preflight", default=None, help="the preflight command (default: this Python's module)")
    ap.add_argument("--family", action="append", default=[], metavar="FAMILIES",
                    help="score only the cases of these families (comma-separated or repeated, e.g. "
                         "accelerate,deepspeed), under a '## SET: N FAMILIES cases' header: before/after runs "
                         "of the families a change touches, in the time a helper has")
    args = ap.parse_args(argv)
    exe = shlex.split(args.preflight) if args.preflight else [sys.executable, "-m", "preflight"]
    cases = load_cases(args.case, args.which)
    if not cases:
        print("no case selected", file=sys.stderr)
        return 2
    families = [f for arg in args.family for f in arg.split(",") if f]
    if families:
        cases = [c for c in cases if c.family in families]
        print(f"## {args.which}: {len(cases)} {'/'.join(families)} cases", flush=True)
    result = score(cases, exe, args.verbose, args.show, max(1, args.jobs))
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

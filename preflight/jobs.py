"""The job as users launch it: from what ``preflight audit|estimate|check`` is given (a launch
script, a Python script or notebook, ``python -m pkg.module``, a directory, a launch line after
``--``) to the scripts, configs and launch command the plan is built from.

Nothing is executed. A launch script is read by :mod:`preflight.adapters.shell`; the launch
line it runs gives the training script and the configs it names (``--deepspeed ds.json``,
``--deepspeed_config``, ``accelerate launch --config_file`` and that file's
``deepspeed_config_file``, a JSON/YAML file given as the script's first argument as
``HfArgumentParser`` reads it, ``--config``/``--config_file``/``--cfg`` YAML/JSON values).
Each choice is said in a note.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Optional, Sequence

from preflight.diagnostics import FileError
from preflight.job_files import (  # noqa: F401  (moved; re-exported)
    _DIR_SCAN_LIMIT,
    _ENTRY_NAMES,
    CONFIG_SUFFIXES,
    SHELL_SUFFIXES,
    JobInputs,
    _bases,
    _display,
    _find,
    _find_by_tail,
    _find_module,
    _installed_module,
    _vendored_module,
    is_shell_script,
)
from preflight.job_pick import _line_rank, _pick_in_directory
from preflight.sources import read_text_limited

_CONFIG_FLAGS = ("--deepspeed", "--deepspeed_config", "--deepspeed-config", "--ds_config", "--config",
                 "--config_file", "--config-file", "--cfg", "--config_path", "--args_file", "-c", "--base")
# flags that take several config files in a row, merged left to right (latent-diffusion's ``--base``)
_LIST_FLAGS = ("--base",)
# a script's own option naming an arguments/config file (Firefly ``--train_args_file x.json``)
_CONFIG_FLAG_WORDS = re.compile(r"^--?(?![\w-]*data)[\w-]*(config|args|cfg|recipe)[\w-]*$", re.I)
# ``config=FILE``, ``cfg.path=FILE``; ``trainer.deepspeed=FILE`` (a Hydra override of the TrainingArguments'
# deepspeed key: Dune-Z/LLM-as-Latent-Variable-Model @ 772899f scripts/gemma-2b-it.sh:48-52)
_KEY_CONFIG = re.compile(r"\+{0,2}(?:[\w.]*(?:config|cfg)[\w.]*|(?:[\w]+\.)*deepspeed(?:_config)?)", re.I)






















def _configs_named(info, bases: Sequence[Path], root: Path, out: JobInputs) -> None:
    """Configs the launch line names: the launcher's and the script's."""
    names: list[tuple[str, str]] = [(c, "the launcher") for c in info.config_files]
    args = list(info.script_args)
    for k, tok in enumerate(args):
        after_flag = k > 0 and args[k - 1].startswith("-") and "=" not in args[k - 1]
        if tok.startswith("-") or after_flag or not tok.lower().endswith(CONFIG_SUFFIXES):
            continue
        key, eq, value = tok.partition("=")
        if eq and _KEY_CONFIG.fullmatch(key):
            # ``config=apps/main/configs/debug.yaml``: an OmegaConf ``key=value`` argument naming the
            # file (facebookresearch/lingua README.md:43, apps/main/train.py ``OmegaConf.from_cli``)
            names.append((value, f"{key}= on the launch line (a key=value argument)"))
            continue
        why = ("the script's first argument (HfArgumentParser reads a JSON/YAML file given alone)" if k == 0
               else "a config file argument of the script")
        names.append((tok, why))
    for k, tok in enumerate(args):
        flag, eq, value = tok.partition("=")
        if flag not in _CONFIG_FLAGS and not _CONFIG_FLAG_WORDS.match(flag):
            continue
        if not eq:
            value = args[k + 1] if k + 1 < len(args) else ""
        if value.lower().endswith(CONFIG_SUFFIXES):
            names.append((value, f"{flag} on the launch line"))
        elif value and not value.startswith("-"):
            _deepspeed_by_content(flag, value, bases, names)
        if flag in _LIST_FLAGS and not eq:
            # ``--base a.yaml b.yaml`` (argparse nargs="*", CompVis/latent-diffusion main.py:55-62): each file
            for more in args[k + 2:]:
                if more.startswith("-") or not more.lower().endswith(CONFIG_SUFFIXES):
                    break
                names.append((more, f"{flag} on the launch line"))
    seen = {os.path.abspath(c) for c in out.configs}
    for name, why in names:
        found = _find(name, bases)
        if found is None:
            found = _find(name, _config_modules(out.scripts, [*bases, root]))
            if found is not None:
                why += ", found in the config module the script's initialize_config_module names"
        if found is None:
            if why.startswith(("--config-name ", "-cn ")):  # a name in the Hydra app's config directory
                continue  # (adapters/hydra.py composes it, or says why it cannot)
            tail = _find_by_tail(name, bases) if os.path.isabs(name) else None
            also = (f" as a job config (the project's {_display(tail, root)} has the same path ending: a script that "
                    "loads the path itself reads that file)") if tail is not None else ""
            out.notes.append(f"the launch line names {name} ({why}); not found, not read{also}")
            continue
        key = os.path.abspath(found)
        if key in seen:
            continue
        seen.add(key)
        out.configs.append(found)
        out.notes.append(f"read {_display(found, root)}: named by {why}")
        if found.suffix.lower() in (".yaml", ".yml"):
            _nested_deepspeed(found, [*bases, found.parent], root, out, seen)


def _deepspeed_by_content(flag: str, value: str, bases: Sequence[Path], names: list[tuple[str, str]]) -> None:
    """``--deepspeed ds_configs/stage2.config``: a DeepSpeed config file of any suffix, read when it
    holds a JSON object (:mod:`preflight.config_sniff`)."""
    from preflight.config_sniff import DEEPSPEED_FILE_FLAGS, sniffed_kind

    found = _find(value, bases) if flag in DEEPSPEED_FILE_FLAGS else None
    if found is not None and sniffed_kind(found) == "json":
        names.append((value, f"{flag} on the launch line (a JSON file, read by its content)"))


_CONFIG_MODULE = re.compile(r"""initialize_config_module\(\s*(?:config_module\s*=\s*)?['"]([\w.]+)['"]""")


def _config_modules(scripts: Sequence[Path], bases: Sequence[Path]) -> list[Path]:
    """The folders of the Python packages a script hands to Hydra's ``initialize_config_module``
    (facebookresearch/sam2 training/train.py:245 ``initialize_config_module("sam2", ...)`` then
    ``compose(config_name=args.config)`` with ``-c configs/sam2.1_training/x.yaml``: the name is
    looked up in the ``sam2`` package, not the working directory), found under the bases."""
    out: list[Path] = []
    for script in scripts:
        try:
            text = read_text_limited(script, errors="replace")[:500_000]
        except OSError:
            continue
        for m in _CONFIG_MODULE.finditer(text):
            rel = m.group(1).replace(".", "/")
            for base in [*bases, script.parent, script.parent.parent]:
                for cand in (base / rel, base / "src" / rel):
                    if cand.is_dir() and cand not in out:
                        out.append(cand)
    return out


def _nested_deepspeed(path: Path, bases: Sequence[Path], root: Path, out: JobInputs, seen: set) -> None:
    """An accelerate config's ``deepspeed_config_file`` (and a YAML's ``deepspeed:``) is read too."""
    try:
        text = read_text_limited(path, errors="replace")[:200_000]
    except OSError:
        return
    for m in re.finditer(r"^\s*(deepspeed_config_file|deepspeed)\s*:\s*['\"]?([^'\"#\s]+\.json)", text, re.M):
        found = _find(m.group(2), bases)
        if found is None:
            out.notes.append(f"{_display(path, root)} names {m.group(2)} ({m.group(1)}); not found, not read")
            continue
        if os.path.abspath(found) in seen:
            continue
        seen.add(os.path.abspath(found))
        out.configs.append(found)
        out.notes.append(f"read {_display(found, root)}: named by {m.group(1)} in {_display(path, root)}")


def _from_launch(info, argv: list[str], bases: Sequence[Path], root: Path, out: JobInputs, where: str) -> bool:
    """Take the script and configs of a parsed launch command; False when its script is not found."""
    if info.script is None:
        return False
    script = _find_module(info.script, bases) if info.module else _find(info.script, bases)
    if script is None and info.module:
        script = _installed_module(info.script, bases)
        if script is not None:
            out.notes.append(f"{where} runs module {info.script}: not under the working directory; found in "
                             f"{_display(script, root)}, the package of an enclosing Python project (one "
                             "installed with `pip install -e .` is importable from anywhere)")
    if script is None and info.module:
        script = _vendored_module(info.script, bases)
        if script is not None:
            out.notes.append(f"{where} runs module {info.script}: found in {_display(script, root)}, the package "
                             "of a Python project in a sub-folder (installed from there with `pip install -e`)")
    if script is None and info.module:
        from preflight.module_hook import hooked_module

        hooked = hooked_module(info.script, bases)
        if hooked is not None:
            script = hooked[0]
            out.notes.append(f"{where} runs module {info.script}: mapped by the import hook (a MetaPathFinder) of "
                             f"{_display(hooked[1], root)} onto {_display(script, root)}, which is audited")
    if script is None and not info.module:
        script = _find_by_tail(info.script, bases)
        if script is not None:
            out.notes.append(f"{where} runs {info.script}, which is not here (a path on the machine that runs it); "
                             f"audited {_display(script, root)}, the file with the same path ending")
    if script is None:
        out.notes.append(f"{where} runs {'module ' if info.module else ''}{info.script}, which was not found")
        return False
    rerun = _rerun_script(script, info.script_args, bases)
    if rerun is not None:
        out.notes.append(f"{where}: {_display(script, root)} re-runs the script of its own arguments in new "
                         f"processes (subprocess with sys.executable and sys.argv[1:]); audited "
                         f"{_display(rerun, root)}, the script it runs, once per process it starts")
        script = rerun
    if script not in out.scripts:
        out.scripts.append(script)
    out.argv = list(argv)
    _configs_named(info, bases, root, out)
    return True


_RERUN_ARGV = re.compile(r"(\w+)\s*=\s*(?:list\()?sys\.argv\)?\s*\[\s*1\s*:\s*\]")
_RERUN_CALL = re.compile(r"subprocess\.(?:Popen|run|call|check_call)\(\s*\[\s*(?:str\()?sys\.executable\)?\s*\]"
                         r"\s*\+\s*(\w+)")


def _rerun_script(launcher: Path, args: Sequence[str], bases: Sequence[Path]) -> Optional[Path]:
    """A Python launcher that runs its own arguments again as a command in new processes, and
    trains nothing itself (NVIDIA/tacotron2 ``multiproc.py``: ``argslist = list(sys.argv)[1:]`` then
    ``subprocess.Popen([str(sys.executable)] + argslist)`` once per visible GPU, launched ``python -m
    multiproc train.py ...``): the job's script is the first of those arguments when it is a
    ``.py`` file found here; None otherwise."""
    if not args or not args[0].endswith(".py") or args[0].startswith("-"):
        return None
    try:
        text = read_text_limited(launcher, errors="replace")[:200_000]
    except OSError:
        return None
    bound = {m.group(1) for m in _RERUN_ARGV.finditer(text)}
    if not any(m.group(1) in bound for m in _RERUN_CALL.finditer(text)) or ".backward(" in text:
        return None
    found = _find(args[0], [*bases, launcher.parent])
    return found if found is not None and found.resolve() != launcher.resolve() else None


_TOOLS = {"axolotl": "axolotl", "axolotl.cli.train": "axolotl", "axolotl.cli.main": "axolotl", "litgpt": "litgpt",
          "litgpt.__main__": "litgpt", "tune": "torchtune", "llamafactory-cli": "llamafactory", "lmf": "llamafactory",
          "fairseq-train": "fairseq", "fairseq_cli.train": "fairseq"}


def _tool(tokens: Sequence[str], info) -> Optional[str]:
    """A training tool run from its own command (its recipe is a config file, no script of the job)."""
    k = 0
    while k < len(tokens) and "=" in tokens[k] and not tokens[k].startswith("-"):
        k += 1
    head = os.path.basename(tokens[k]) if k < len(tokens) else ""
    if head in _TOOLS:
        return _TOOLS[head]
    if info.module and info.script in _TOOLS:
        return _TOOLS[info.script]
    return None


def _from_tool(tool: str, tokens: Sequence[str], bases: Sequence[Path], root: Path, out: JobInputs) -> None:
    from types import SimpleNamespace

    args = list(tokens)
    out.argv = args
    if tool == "fairseq":  # `fairseq-train ARGS`: the library's trainer; its flags are read from the line
        out.notes.append("fairseq-train runs fairseq's own trainer (a library, not read); its flags on the launch "
                         "line are the job (adapters/fairseq_cli.py)")
        return
    before = len(out.configs)
    _configs_named(SimpleNamespace(config_files=[], script_args=[a for a in args if a != tool]), bases, root, out)
    if len(out.configs) == before and tool == "torchtune":
        _torchtune_config(args, bases, root, out)
    if len(out.configs) == before:
        out.errors.append(FileError("<launch line>", f"{tool}: no recipe file (.yaml/.yml/.json) found on the "
                                                     "launch line"))
    else:
        out.notes.append(f"{tool} runs the recipe {', '.join(_display(c, root) for c in out.configs[before:])}; "
                         "no Python script of the job to read")


def _torchtune_config(args: Sequence[str], bases: Sequence[Path], root: Path, out: JobInputs) -> None:
    """``tune run RECIPE --config NAME``: NAME is one of torchtune's own configs
    (``recipes/configs/NAME.yaml`` in a torchtune checkout) when it is not a file."""
    for k, tok in enumerate(args):
        flag, eq, value = tok.partition("=")
        if flag != "--config":
            continue
        if not eq:
            value = args[k + 1] if k + 1 < len(args) else ""
        if not value or value.lower().endswith(CONFIG_SUFFIXES):
            return
        found = _find(f"recipes/configs/{value}.yaml", bases) or _find(f"{value}.yaml", bases)
        if found is not None:
            out.configs.append(found)
            out.notes.append(f"read {_display(found, root)}: torchtune's config {value} (--config on the launch line)")
        return


def _moved_bases(cwd: Optional[str], path: Path, root: Path, bases: list[Path], out: JobInputs,
                 where: str) -> list[Path]:
    """After ``cd DIR`` in the script, the launch line's relative names are looked up in DIR
    first (relative to where the script is started, else to the script's own directory)."""
    from preflight.adapters.shell import SCRIPT_DIR

    if cwd is None:
        return bases
    if cwd == "?":
        out.notes.append(f"{where}: the script changes directory to a place not known statically; names are "
                         "looked up from where it is started")
        return bases
    if cwd == SCRIPT_DIR:
        first = [path.parent.resolve()]
    else:
        first = [d.resolve() for d in ((Path(cwd),) if os.path.isabs(cwd) else (root / cwd, path.parent / cwd))
                 if d.is_dir()]
    if not first:
        out.notes.append(f"{where}: the script runs `cd {cwd}`, which is not here; names are looked up from where "
                         "it is started")
        return bases
    out.notes.append(f"{where}: runs in {_display(first[0], root)} (cd earlier in the script)")
    return [*first, *[b for b in bases if b not in first]]


_MAX_SCRIPT_DEPTH = 3


def _sourcer(path: Path, root: Path, bases: list[Path]):
    """The text of a file a launch script sources (``source scripts/args.sh``), looked up like
    the script's other names; only files under the job's directory are read."""
    top = root.resolve()

    def get(name: str, cwd: Optional[str]) -> Optional[tuple[str, str]]:
        found = _find(name, _moved_bases(cwd, path, root, bases, JobInputs(), ""))
        if found is None:
            return None
        resolved = found.resolve()
        if top not in resolved.parents:
            return None
        try:
            text = read_text_limited(resolved, errors="replace")
        except OSError:
            return None
        return (_display(resolved, root), text) if len(text) <= 2_000_000 else None

    return get


def _read_launch_script(path: Path, args: Sequence[str], root: Path, out: JobInputs,
                        depth: int = 0, env: Optional[dict[str, str]] = None) -> None:
    from preflight.adapters.shell import is_tune_run, read_shell

    display = _display(path, root)
    try:
        text = read_text_limited(path, errors="replace")
    except OSError as exc:
        out.errors.append(FileError(display, f"cannot read: {exc.strerror or exc}"))
        return
    if len(text) > 2_000_000:
        out.errors.append(FileError(display, "launch script larger than 2 MB; not read"))
        return
    bases = _bases(path.parent, root)
    shell = read_shell(text, display, args, env=env, sourced=_sourcer(path, root, bases))
    runnable = [ln for ln in shell.launches
                if ln.info.script is not None or is_tune_run(ln.tokens) or ln.info.launcher == "fairseq"]
    if not runnable:
        from preflight.console_scripts import console_under_srun

        consoles = console_under_srun(shell, bases, lambda m: _find_module(m, bases))
        runnable = [ln for ln, _ in consoles]
        out.notes.extend(note for _, note in consoles[:1])
    if not runnable:
        from preflight.srun_wrapped import srun_wrapped_launches

        wrapped = srun_wrapped_launches(shell, lambda name: _find(name, bases), _sourcer(path, root, bases))
        if wrapped is not None:
            path, text, shell, runnable, outer = wrapped
            out.notes.append(f"{display}:{outer.line}: srun runs {_display(path, root)} in each task; its launch "
                             "line is read under this srun")
            display = _display(path, root)
    if not runnable and depth < _MAX_SCRIPT_DEPTH and _follow_subscripts(shell, path, root, bases, out, depth):
        return
    if not runnable:
        out.errors.append(FileError(display, "no launch line found (torchrun, deepspeed, accelerate launch, "
                                             "srun, python ...)", line=1))
        return
    # a script of several steps (download the data, train the tokenizer, train, evaluate): the
    # line most like the training job is followed first, then the others in source order
    runnable.sort(key=lambda ln: _line_rank(ln.info))
    for ln in runnable:
        line_bases = _moved_bases(ln.cwd, path, root, bases, out, f"{display}:{ln.line}")
        if _from_launch_or_tool(ln, line_bases, root, out, f"{display}:{ln.line}"):
            out.launch_script, out.launch_line = display, ln.line
            out.launch_loop = ln.loop
            out.argv = _with_exported_env(text, shell.variables, ln.info.env, out.argv)
            others = [f"{n}" for n in sorted(x.line for x in runnable if x is not ln)]
            extra = f" (other launch lines at line(s) {', '.join(others)} not followed)" if others else ""
            out.notes.append(f"job from {display}:{ln.line}: {' '.join(ln.tokens)}{extra}")
            out.notes.extend(shell.notes)
            if shell.slurm_env:
                out.notes.append("from #SBATCH: " + ", ".join(f"{k}={v}" for k, v in sorted(shell.slurm_env.items())))
            return
    if runnable[0].info.script is None:
        return  # `tune run` without its config: _from_tool said so
    out.errors.append(FileError(display, f"the launch line at line {runnable[0].line} runs "
                                         f"{runnable[0].info.script}, which was not found", line=runnable[0].line))
    if out.unfound_launch is None:
        out.unfound_launch = (display, runnable[0].line, list(runnable[0].tokens))


def _from_launch_or_tool(ln: Any, bases: Sequence[Path], root: Path, out: JobInputs, where: str) -> bool:
    """A launch script's line: a script under a launcher, or ``tune run RECIPE --config C``
    (torchtune's command: its config is the job); False when neither is found."""
    if ln.info.launcher == "fairseq":
        _from_tool("fairseq", ln.tokens, bases, root, out)
        return True
    if ln.info.script is None:
        before = len(out.configs)
        _from_tool("torchtune", ln.tokens, bases, root, out)
        return len(out.configs) > before
    return _from_launch(ln.info, ln.tokens, bases, root, out, where)


# environment variables a launch script exports that the launched processes' allocator reads,
# and the device list the launchers and torch read (the ``deepspeed`` launcher turns an exported
# ``CUDA_VISIBLE_DEVICES`` into ``--include``, deepspeed ``launcher/runner.py``); passed on as a
# launch-line prefix (``VAR=value torchrun ...``), which the launch reader reads
_EXPORTED_ENV = ("PYTORCH_CUDA_ALLOC_CONF", "CUDA_VISIBLE_DEVICES")


def _with_exported_env(text: str, variables: dict[str, str], on_line: dict[str, str],
                       argv: list[str]) -> list[str]:
    """``argv`` with ``VAR=value`` in front for each of ``_EXPORTED_ENV`` the script exports
    (``export VAR=value``, its value after the whole script) and the line does not set itself."""
    prefix = []
    for name in _EXPORTED_ENV:
        value = variables.get(name)
        if (name not in on_line and value and "$" not in value
                and re.search(rf"^\s*export\s+{name}=", text, re.MULTILINE)):
            prefix.append(f"{name}={value}")
    return prefix + argv if prefix else argv


def _typed_shell_run(launch: Sequence[str], bases: Sequence[Path]) -> Optional[tuple[Path, list[str], dict[str, str]]]:
    """A launch line typed after ``--`` that runs a launch script of the project, with
    variables set before it (princeton-nlp/MeZO README: ``MODEL=facebook/opt-13b TASK=SST2
    MODE=ft LR=1e-7 EPS=1e-3 bash mezo.sh``): (the script, its arguments, the variables), which
    the script's ``${MODEL:-facebook/opt-1.3b}`` defaults then read. The line is read by the
    shell reader as a one-line script (its environment prefixes and script runs); None for
    anything else."""
    import shlex

    from preflight.adapters.shell import read_shell

    shell = read_shell(shlex.join(launch), "the launch line")
    if shell.launches or len(shell.subscripts) != 1:
        return None
    sub = shell.subscripts[0]
    script = _find(sub.path, bases)
    if script is None or not script.is_file() or not is_shell_script(script):
        return None
    return script, list(sub.args), dict(sub.env)


def _follow_subscripts(shell, path: Path, root: Path, bases: list[Path], out: JobInputs, depth: int) -> bool:
    """A launch script without a launch line of its own that runs another script of the
    project (``bash torchrun.sh --nnodes 1 tasks/pretrain.py cfg``: InternVideo2's
    ``scripts/evaluation/...`` run its ``torchrun.sh``, which runs ``torchrun ... $@``): the job
    is that script's launch with these arguments. True when one was followed."""
    display = _display(path, root)
    for sub in shell.subscripts:
        where = f"{display}:{sub.line}"
        trial = JobInputs()
        target = _find(sub.path, _moved_bases(sub.cwd, path, root, bases, trial, where))
        if target is None or target.resolve() == path.resolve() or not is_shell_script(target):
            continue
        _read_launch_script(target, sub.args, root, trial, depth + 1, env=sub.env or None)
        if trial.launch_script is None:
            continue
        out.scripts.extend(s for s in trial.scripts if s not in out.scripts)
        out.configs.extend(c for c in trial.configs if c not in out.configs)
        out.argv = trial.argv
        out.launch_script, out.launch_line = trial.launch_script, trial.launch_line
        out.launch_loop = trial.launch_loop
        out.notes.append(f"{where} runs {_display(target, root)} {' '.join(sub.args)}".rstrip()
                         + ": the job is that script's launch line")
        out.notes.extend(trial.notes)
        out.errors.extend(trial.errors)
        return True
    return False










def resolve_job(paths: Sequence[Path], configs: Sequence[Path], launch: Sequence[str], root: Path) -> JobInputs:
    """What to audit. ``launch`` (after ``--``) is a whole launch command, or the script's
    arguments, or a launch script's positional arguments when the job is a launch script."""
    out = JobInputs(configs=[Path(c) for c in configs], argv=list(launch))
    launch = list(launch)
    bases = _bases(None, root)
    for given in paths:
        p = Path(given)
        if p.is_dir():
            picked = _pick_in_directory(p, root, out)
            if picked is None:
                continue
            p = picked
        if p.is_file() and is_shell_script(p):
            out.argv = []
            _read_launch_script(p, launch, root, out)
            continue
        if not p.exists() and re.fullmatch(r"[A-Za-z_][\w]*(\.[A-Za-z_]\w*)+", str(given)) \
                and not str(given).endswith((".py", ".ipynb", *CONFIG_SUFFIXES)):
            module = _find_module(str(given), bases)
            if module is not None:
                out.scripts.append(module)
                out.notes.append(f"module {given} is {_display(module, root)}")
                if launch and launch[0] != "-m":
                    out.argv = ["python", "-m", str(given), *launch]
                continue
        out.scripts.append(p)
    typed = _typed_shell_run(launch, bases) if not paths and launch else None
    if typed is not None:
        script, args, env = typed
        out.argv = []
        out.notes.append(f"the launch line runs {_display(script, root)}"
                         + (f" with {', '.join(f'{k}={v}' for k, v in env.items())} set" if env else "")
                         + ": the job is that script's launch line")
        _read_launch_script(script, args, root, out, env=env or None)
    elif not paths and launch:
        from preflight.adapters.launchers import parse_launch
        from preflight.console_scripts import console_launch
        from preflight.dora_launch import dora_launch

        console = console_launch(launch, bases, lambda m: _find_module(m, bases))
        if console is not None:  # ``poetry run yolo-train ...``: the module the console script runs
            launch = console[0]
            out.notes.append(console[1])
        dora = dora_launch(launch, bases[0]) if console is None else None
        if dora is not None:  # ``dora run model=htdemucs``: the project's train module in this process
            out.notes.append(dora[1])
            if dora[0] is None:
                out.errors.append(FileError("<launch line>", dora[1]))
                return out
            launch = dora[0]
            out.argv = list(launch)
        info = parse_launch(launch)
        tool = _tool(launch, info)
        if tool is not None:
            _from_tool(tool, launch, bases, root, out)
        elif info.script is not None:
            _from_launch(info, launch, bases, root, out, "the launch line")
        elif info.launcher is None and info.wrapper is None and launch and not launch[0].startswith("-") \
                and "=" not in launch[0]:
            # a command, but nothing to audit: say so rather than pass an empty plan (``dora run`` was
            # such a line); options or overrides alone (``-- trainer.devices=2``) are left as before
            out.errors.append(FileError("<launch line>", f"{launch[0]}: not a launcher "
                                        "preflight reads (python, torchrun, deepspeed, accelerate launch, srun, "
                                        "...) and no script was named; nothing was audited"))
    elif out.scripts and launch and not out.launch_script:
        from preflight.adapters.launchers import parse_launch

        info = parse_launch(launch)
        from preflight.adapters.shell import LAUNCH_HEADS

        head = next((t for t in launch if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", t)), "")
        is_line = os.path.basename(head) in LAUNCH_HEADS or os.path.basename(head).startswith("python")
        if info.script is not None and is_line:
            _configs_named(info, bases, root, out)
        else:
            # the script's own arguments: the job is `python SCRIPT ARGS`
            out.argv = ["python", _display(out.scripts[0], root), *launch]
            _configs_named(parse_launch(out.argv), bases, root, out)
    from preflight.job_code_deepspeed import code_deepspeed

    code_deepspeed(out.scripts, out.configs, out.notes, bases, root, _display, _find)
    return out

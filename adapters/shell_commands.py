"""Finding the command a line of a launch script runs (:func:`adapters.shell.read_shell` reads
the script; this module decides, for one logical line, which of its commands launches training).

Real scripts hold the command in variables and strings (``cmd="torchrun ..."; eval $cmd``,
``srun ... bash -c "$LAUNCHER $CMD"``), chain commands on one line (``clear; srun ...``,
``cd src && torchrun ...``) and run other scripts of the project (``bash torchrun.sh ...``):
measured on 1,983 launch scripts of 45 repositories by ``bench/realworld/launch_scripts.py``.
"""

from __future__ import annotations

import re
from typing import Mapping, Optional, Sequence

from preflight.adapters.shell import _ENV_WORD, _MAX_VALUE, command_tokens, expand, is_launch_tokens
from preflight.adapters.shell_lex import Unquoted, split_value

_KEYWORD_CUTS = ("then", "do", "else")
_WORD = re.compile(r"[A-Za-z]+")


def line_parts(text: str, keep_else: bool = False) -> list[tuple[str, bool]]:
    """The commands of a line, each with whether it runs only on a condition (after ``&&`` or
    ``||``): cut at ``;``, ``&&``, ``||`` and at the words ``then``/``do``/``else`` outside
    quotes (``if [ .. ]; then X=1; fi``, ``cd src && torchrun ...``). A quoted value that holds
    those words stays whole (``keep_else``: ``else`` is a part of its own) (finetrainers ``examples/_legacy/training/train_text_to_video_lora.sh``
    @ 7e4bdb3: ``cmd="accelerate launch ... \\"... The goat then engages ...\\""``)."""
    parts: list[tuple[str, bool]] = []
    start = 0
    guarded = False
    n = len(text)
    scan = Unquoted(text)
    for k in scan:
        ch = text[k]
        if ch == ";" or text.startswith(("&&", "||"), k):
            parts.append((text[start:k], guarded))
            guarded = ch != ";"
            start = k + (1 if ch == ";" else 2)
            scan.seek(start)
        elif ch in "tde" and (k == 0 or text[k - 1] in " \t;"):
            word = _WORD.match(text, k)
            end = word.end() if word else k + 1
            if word and word.group(0) in _KEYWORD_CUTS and (end == n or text[end] in " \t;"):
                parts.append((text[start:k], guarded))
                if keep_else and word.group(0) == "else":
                    parts.append(("else", guarded))  # the launch reader follows if/else branches
                start = end
                scan.seek(end)
    parts.append((text[start:], guarded))
    return [(p.strip(), g) for p, g in parts if p.strip()]


_WHOLE_VAR = re.compile(r"^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))$")
_SHELLS = ("bash", "sh", "zsh")
_MAX_NESTING = 3


def launch_tokens(line: str, vars_: Mapping[str, str], empty: set[str], nesting: int = 0) -> Optional[list[str]]:
    """The tokens of the first command of ``line`` that launches training (as written, not yet
    expanded), looking through the commands a line chains (``clear; srun ...``) and the
    commands held in variables or strings (``eval $cmd``, ``bash -c "$LAUNCHER $CMD"``)."""
    for part, _ in line_parts(line):
        tokens = command_tokens(part)
        if not tokens:
            continue
        tokens = _held_command(tokens, vars_, empty, nesting)
        if tokens and is_launch_tokens(tokens):
            return tokens
    return None


_SHELL_SUFFIXES_RUN = (".sh", ".bash")


def subscript(line: str, vars_: Mapping[str, str], empty: set[str],
               args: Sequence[str]) -> Optional[tuple[list[str], list[str]]]:
    """(environment words, [path, args...]) of the first command of ``line`` that runs a shell
    script file (``bash X.sh ...``, ``sh X.sh``, ``./X.sh``, ``dir/X.sh``), expanded; None
    otherwise."""
    for part, _ in line_parts(line):
        tokens = command_tokens(part)
        if not tokens:
            continue
        k = 0
        while k < len(tokens) and _ENV_WORD.match(tokens[k]):
            k += 1
        rest = tokens[k:]
        if rest and rest[0].rsplit("/", 1)[-1] == "srun":
            # `srun -n4 --ntasks-per-node=1 bash torchrun.sh --nnodes=4 ... tasks/train_it.py cfg`
            # (OpenGVLab/Ask-Anything video_chat2/scripts/videochat_mistral/slurm_run_7b_stage3.sh @
            # 4dd8210): srun runs the project's script on each node; it is followed as without srun
            from preflight.adapters.launchers import _SRUN_BOOL, _options

            j = _options(rest, 1, _SRUN_BOOL, {}, short_attached=True)
            while j < len(rest) and _ENV_WORD.match(rest[j]):
                j += 1
            rest = rest[j:]
        if len(rest) >= 2 and rest[0].rsplit("/", 1)[-1] in _SHELLS and not rest[1].startswith("-"):
            rest = rest[1:]
        elif not rest or "/" not in rest[0]:
            continue
        target = expand(rest[0], dict(vars_), empty)
        if not target.endswith(_SHELL_SUFFIXES_RUN) or "$" in target:
            continue
        out = [target]
        for tok in rest[1:]:
            if tok in ("$@", "${@}", "$*", "${*}"):
                out.extend(str(a) for a in args)
                continue
            value = expand(tok, dict(vars_), empty)
            if value == "" and tok.startswith("$"):
                continue
            out.extend(split_value(value) if value != tok and " " in value.strip() else [value])
        return [expand(w, dict(vars_), empty) for w in tokens[:k]], out
    return None


def _container_prefix(prefix: list[str]) -> bool:
    """``[ENV=...] singularity exec --nv IMG`` before ``bash -c "..."``: a container runtime and
    nothing else (Noza23/myovision-sam ``train.sh``: ``singularity exec --pwd $(pwd) --nv -B
    /myovision:/mnt image bash -c "cd /mnt/myovision-sam && torchrun ..."``)."""
    from preflight.adapters.launch_container import container_end

    k = 0
    while k < len(prefix) and _ENV_WORD.match(prefix[k]):
        k += 1
    return k < len(prefix) and container_end([*prefix, "bash"], k)[0] == len(prefix)


def _held_command(tokens: list[str], vars_: Mapping[str, str], empty: set[str], nesting: int) -> list[str]:
    """A command held in a variable or a string and run from it: ``cmd="torchrun ... $args"``
    then ``eval $cmd`` (FlagEmbedding ``examples/finetune/embedder/decoder_only/base.sh`` @
    e5e1a4e), ``$CMD`` after ``read -r -d '' CMD <<EOF``, ``srun ... bash -c "$LAUNCHER
    --node_rank \\$SLURM_PROCID $CMD"`` (bigscience ``train/tr8-104B-wide/tr8b-104B-pile.slurm``
    @ 4d1b2d8), ``eval torchrun ...``. The tokens of the command it runs (words before ``bash
    -c`` kept: the wrapper), the variable's value as assigned, split as the shell splits it,
    then the words after it; ``tokens`` unchanged when the line is no such command or the
    variable is unknown (``echo $cmd`` only prints it)."""
    if nesting >= _MAX_NESTING:
        return tokens
    for i, tok in enumerate(tokens[:-2]):
        if tok.rsplit("/", 1)[-1] in _SHELLS and tokens[i + 1] == "-c":
            prefix = tokens[:i]
            if prefix and not (is_launch_tokens(prefix) or all(_ENV_WORD.match(t) for t in prefix)
                               or _container_prefix(prefix)):
                return tokens  # `ssh host bash -c ...`: not a wrapper this reader knows
            inner = launch_tokens(expand(tokens[i + 2], dict(vars_), empty), vars_, empty, nesting + 1)
            return [*tokens[:i], *inner] if inner else tokens
    if tokens[:3] == ["ray", "job", "submit"] and "--" in tokens:
        # `ray job submit --address=... -- python train.py ...` (xtuner ``examples/v1/scripts/
        # run_rl_submit.sh``): the entrypoint after `--` runs on the cluster
        inner = tokens[tokens.index("--") + 1:]
        return inner if inner and is_launch_tokens(inner) else tokens
    if tokens[0] == "eval" and len(tokens) > 1:
        # eval joins its words, expands them and runs the result: `eval $cmd`, `eval "python ..."`
        joined = expand(" ".join(tokens[1:]), dict(vars_), empty)
        if len(joined) > _MAX_VALUE:
            return tokens
        held = launch_tokens(joined, vars_, empty, nesting + 1)
        return held if held else tokens
    # `CUDA_VISIBLE_DEVICES=$id $python_path train.py ...` (asteroid-team/asteroid
    # egs/librimix/ConvTasNet/run.sh:97 @ 92c8d83): environment words, then the held command
    k = 0
    while k < len(tokens) - 1 and _ENV_WORD.match(tokens[k]):
        k += 1
    m = _WHOLE_VAR.match(tokens[k])
    value = vars_.get(m.group(1) or m.group(2) or "") if m else None
    if not value:
        return tokens
    held = launch_tokens(value, vars_, empty, nesting + 1)  # `$CMD --extra`: the value's words, then the rest
    return [*tokens[:k], *held, *tokens[k + 1:]] if held else tokens

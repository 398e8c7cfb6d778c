"""The fields a config file's own project declares, for ``preflight validate`` on its own.

An HfArgumentParser / TrlParser file holds the keys of every dataclass the script hands the
parser: TrainingArguments and the project's own (LLaMA-Factory's ``FinetuningArguments`` has
``lora_rank``, open-r1's ``GRPOConfig`` subclass has ``hub_model_revision``). ``preflight audit``
knows the scripts; ``validate`` and ``check`` see only the config, so they read the ``@dataclass``
fields of the Python files of the project the config lives in (the nearest folder above it with
``pyproject.toml``, ``setup.py``, ``setup.cfg`` or ``.git``), with ``ast`` only: nothing is imported
or run. Bounded: at most :data:`MAX_FILES` files of at most 1 MiB each.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Optional

from preflight.analysis.syntax import walk  # ast.walk's nodes in its order, faster
from preflight.config_cache import note, recorded_memo
from preflight.sources import read_text_limited
from preflight.validate_walk import _SKIP_DIRS, MAX_BYTES, MAX_FILES, project_files, project_root  # noqa: F401  (_SKIP_DIRS re-exported)
from preflight.validate_yaml_reader import (  # noqa: F401  (re-exported for callers and tests)
    _YAML_LOADS,
    _reader_beside,
    _reader_under,
    code_without,
    yaml_reader,
)


def declared_fields(config_path: Path) -> frozenset[str]:
    """Field names of the ``@dataclass`` classes of the config's project (empty when it has none).
    A project without a marker (a release archive, a copy without ``.git``) is the nearest folder
    above the config that holds Python files (Firefly's ``train.py`` above ``train_args/sft/*.json``):
    more declared fields can only silence unknown-key reports, never add one."""
    root = project_root(config_path) or _code_folder(config_path)
    return _fields_under(str(root)) if root is not None else frozenset()


def _code_folder(path: Path, depth: int = 6) -> Optional[Path]:
    """The nearest of ``depth`` folders above ``path`` that directly holds a ``.py`` file. The walk
    stops below the filesystem root, the home folder and the temporary folder: none of them is a
    project, and scanning one would let unrelated scripts (another job under ``/tmp``, a virtual
    environment's packages) decide what this config declares."""
    try:
        here = path.resolve().parent
    except OSError:
        return None
    for folder in (here, *here.parents)[:depth]:
        if folder in _not_projects():
            return None
        note(str(folder))  # a script added here later changes the answer
        try:
            if any(name.endswith(".py") for name in os.listdir(folder)):
                return folder
        except OSError:
            continue
    return None


def _not_projects() -> frozenset[Path]:
    import tempfile

    out = {Path(os.sep)}
    for folder in (tempfile.gettempdir(), os.path.expanduser("~")):
        try:
            out.add(Path(folder).resolve())
        except OSError:
            continue
    return frozenset(out)


@recorded_memo
def _fields_under(root: str) -> frozenset[str]:
    from preflight.validate import dataclass_fields

    out: set[str] = set()
    for _, text in project_files(root, (".py",)):
        if "dataclass" not in text:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        out |= dataclass_fields(tree)
    return frozenset(out)


# HfArgumentParser's file readers: a project whose code calls one reads its config files of that
# format into its dataclasses (TrainingArguments and its own), whatever share of keys is its own
_FILE_PARSERS = {"json": "parse_json_file", "yaml": "parse_yaml_file"}


def hf_file_parser(config_path: Path, fmt: str) -> str:
    """``path:line`` of the first call of HfArgumentParser's reader for ``fmt`` (``json`` /
    ``yaml``: ``parser.parse_json_file(...)``) in the Python files of the config's project, the
    evidence that the project reads such files into TrainingArguments; empty when there is none."""
    method = _FILE_PARSERS.get(fmt)
    root = project_root(config_path)
    if method is None or root is None:
        return ""
    return dict(_parsers_under(str(root))).get(method, "")


@recorded_memo
def _parsers_under(root: str) -> tuple[tuple[str, str], ...]:
    found: dict[str, str] = {}
    for path, text in project_files(root, (".py",)):
        wanted = [m for m in _FILE_PARSERS.values() if m in text and m not in found]
        if not wanted:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        lines: dict[str, int] = {}
        for node in walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in wanted:
                lines[node.func.attr] = min(lines.get(node.func.attr, node.lineno), node.lineno)
        for method, line in lines.items():
            found[method] = f"{os.path.relpath(path, root)}:{line}"
    return tuple(sorted(found.items()))


def extra_keys_allowed(config_path: Path) -> str:
    """``path:line`` of an HfArgumentParser file read with ``allow_extra_keys=True``
    (``parser.parse_yaml_file(path, allow_extra_keys=True)``) in the Python files of the config's
    project: keys no dataclass declares are ignored there (transformers' ``HfArgumentParser.parse_dict``
    raises on them only without the flag), so an unknown key is no error of that job; empty when
    there is none. Without a project marker only the config's folder and the one above it are
    looked at (a wider scan would let an unrelated script silence the report)."""
    root = project_root(config_path) or _code_folder(config_path, depth=2)
    return _extra_keys_under(str(root)) if root is not None else ""


_HF_READERS = ("parse_yaml_file", "parse_json_file", "parse_dict")


@recorded_memo
def _extra_keys_under(root: str) -> str:
    for path, text in project_files(root, (".py",)):
        if "allow_extra_keys" not in text:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        for node in walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _HF_READERS
                    and any(k.arg == "allow_extra_keys" and isinstance(k.value, ast.Constant) and k.value.value is True
                            for k in node.keywords)):
                return f"{os.path.relpath(path, root)}:{node.lineno}"
    return ""


# --------------------------------------------------------------------------- pinned library versions

# Dockerfiles pin too (`RUN pip install pytorch-lightning==1.8.6`: flash-attention's training/Dockerfile)
_PIN_NAMES = ("requirements.txt", "environment.yml", "environment.yaml", "pyproject.toml", "setup.py", "setup.cfg",
              "Dockerfile")
_LIBS = r"transformers|trl|accelerate|deepspeed|peft|pytorch[-_]lightning|lightning"
# `lib` followed by its specifiers (`==4.34`, `>=0.18.0,<=0.20.0`), in any pin file
_SPEC = re.compile(r"(?<![\w.\-])(" + _LIBS + r")(?:\[[^\]]*\])?\s*((?:(?:==|<=|>=|~=|!=|<|>)\s*[0-9][0-9A-Za-z.*+\-]*\s*,?\s*)+)",
                   re.I)
# a bare requirement line (`transformers`): mentioned, any release
_BARE = re.compile(r"^\s*(" + _LIBS + r")(?:\[[^\]]*\])?\s*(?:;.*)?$", re.I | re.M)
# conda's own spec (`- transformers=4.44.2=pyhd8ed1ab_0`) pins too, in environment files only
_CONDA_PIN = re.compile(r"^\s*-\s*(" + _LIBS + r")\s*=\s*([0-9][0-9A-Za-z.+\-]*)", re.I | re.M)
_CLAUSE = re.compile(r"(==|<=|<|~=|>=|>|!=)\s*([0-9][0-9A-Za-z.*+\-]*)")


def pinned_version(config_path: Path, library: str) -> Optional[tuple[str, str]]:
    """The newest release the config's project allows for ``library``, with what says so:
    ``(version, "lib==4.34 (requirements.txt)")``. The pin files (``requirements*.txt``,
    ``environment.y(a)ml``, ``pyproject.toml``, ``setup.py``, ``setup.cfg``) are read in the
    config's folder and each folder above it up to the project's root (and the ``pip install`` /
    ``conda install`` lines of its shell scripts: ``install.sh``; conda environment files under
    any ``*env*.yml`` name); the nearest folder that names the library decides (a sub-project's
    ``requirements.txt`` over the root's). When none does, the root's environment folders
    (``docker/``, ``env/``, ``conda/`` ...) are read, in that order. Only an
    upper bound pins: ``==X``, ``<=X`` (the version is X), ``<X`` (the version is written
    ``<X``: every allowed release is older than X), conda's ``=X``. None when the nearest
    mention has no upper bound (``>=4.39``: a fresh install takes the newest release), when
    two files of that folder disagree, or when nothing names the library.

    A project without a root marker (a folder copied out of a repository, no ``.git``) is read
    from the config's folder up to the nearest folder whose pin files name any library preflight
    reads: that folder stands for the root (a Hydra project's ``requirements.txt`` beside
    ``configs/``, ``pytorch-lightning==1.5.7``), and nothing above it is read."""
    if not config_path.is_file():
        return None
    root = project_root(config_path)
    try:
        folder = config_path.resolve().parent
    except OSError:
        return None
    for here in (folder, *folder.parents):
        if root is None and here in _not_projects():
            break  # the filesystem root, home or the temporary folder pins nothing of a project below it
        pins = _pins_under(str(here))
        if _norm(library) in pins:
            return pins[_norm(library)]
        if here == root or (root is None and pins):
            break
    if root is None:
        return None
    # nothing on the way up: the environment a project keeps in a folder of its own at the top
    # (`docker/environment.yml` beside `configs/`: ClimaX), the first such folder that names it
    for name in _ENV_FOLDERS:
        pins = _pins_under(str(root / name))
        if _norm(library) in pins:
            return pins[_norm(library)]
    return None


# top-level folders that hold a project's environment rather than its code
_ENV_FOLDERS = ("docker", "env", "envs", "environment", "environments", "conda", "requirements", ".devcontainer")
# conda environment files under a project's own name (`caduceus_env.yml`, `conda-env.yaml`): read when
# they are one (a top-level `dependencies:` list), as `environment.yml` is
_ENV_FILE = re.compile(r"^(?:.*[-_.])?(?:env|environment|conda)(?:[-_.].*)?\.ya?ml$", re.I)
_CONDA_DEPENDENCIES = re.compile(r"^dependencies\s*:", re.M)


@recorded_memo
def _pins_under(root: str) -> dict[str, Optional[tuple[str, str]]]:
    """For each library a pin file of ``root`` names: its upper bound ``(version, description)``,
    or None when it has none (or the files disagree)."""
    names = set(_PIN_NAMES)
    try:
        listing = os.listdir(root)
    except OSError:
        return {}
    names |= {n for n in listing if n.startswith("requirements") and n.endswith(".txt")}
    conda = {n for n in listing if _ENV_FILE.match(n)}
    names |= conda
    # install scripts pin too (`pip install accelerate==0.33.0` in HALOs' install.sh), on their
    # `pip install` / `conda install` lines only; a bounded number of scripts per folder
    names |= set(sorted(n for n in listing if n.endswith(".sh"))[:_MAX_SCRIPTS])
    found: dict[str, set[Optional[tuple[str, str]]]] = {}
    for name in sorted(names):
        path = os.path.join(root, name)
        try:
            if not os.path.isfile(path) or os.path.getsize(path) > MAX_BYTES:
                continue
            text = read_text_limited(path, MAX_BYTES, errors="replace")
        except OSError:
            continue
        if name.endswith(".sh"):
            for lib, pin in _shell_pins(text, name):
                found.setdefault(lib, set()).add(pin)
            continue
        if name in conda and not name.startswith("environment") and not _CONDA_DEPENDENCIES.search(text):
            continue  # named like an environment file, but not one (an RL `env.yaml` config)
        lines = [line.split("#", 1)[0] for line in text.splitlines()]
        body = "\n".join(lines)
        for m in _SPEC.finditer(body):
            lib = _norm(m.group(1))
            found.setdefault(lib, set()).add(_upper(lib, m.group(2), name))
        if name.startswith("requirements"):
            for m in _BARE.finditer(body):
                found.setdefault(_norm(m.group(1)), set()).add(None)
        if name in conda or name.startswith("environment"):
            for m in _CONDA_PIN.finditer(body):
                lib = _norm(m.group(1))
                found.setdefault(lib, set()).add((m.group(2), f"{lib}=={m.group(2)} ({name})"))
    out: dict[str, Optional[tuple[str, str]]] = {}
    for lib, pins in found.items():
        versions = {p[0] if p else None for p in pins}
        out[lib] = sorted(pins)[0] if len(versions) == 1 and None not in versions else None  # type: ignore[type-var]
    return out


_MAX_SCRIPTS = 64
_INSTALL = re.compile(r"\b(?:pip3?|conda|mamba|micromamba)\s+install\b(.*)")
_LIB_ONLY = re.compile(r"^(" + _LIBS + r")(?:\[[^\]]*\])?$", re.I)


def _shell_pins(text: str, name: str) -> list[tuple[str, Optional[tuple[str, str]]]]:
    """What the ``pip install`` / ``conda install`` lines of a shell script say of each library:
    its upper bound (``accelerate==0.33.0``, conda's ``accelerate=0.33.0``), or None for a bare
    ``pip install deepspeed`` (any release)."""
    out: list[tuple[str, Optional[tuple[str, str]]]] = []
    joined = re.sub(r"\\\n", " ", text)  # continued lines
    for line in joined.splitlines():
        m = _INSTALL.search(line.split("#", 1)[0])
        if m is None:
            continue
        for token in m.group(1).split():
            token = token.strip("'\"")
            if token in (";", "&&", "||", "|"):
                break
            spec = _SPEC.fullmatch(token)
            if spec is not None:
                lib = _norm(spec.group(1))
                out.append((lib, _upper(lib, spec.group(2), name)))
                continue
            conda = re.fullmatch(r"(" + _LIBS + r")=([0-9][0-9A-Za-z.+\-]*)", token, re.I)
            if conda is not None:
                lib = _norm(conda.group(1))
                out.append((lib, (conda.group(2), f"{lib}=={conda.group(2)} ({name})")))
                continue
            bare = _LIB_ONLY.match(token)
            if bare is not None:
                out.append((_norm(bare.group(1)), None))
    return out


def _norm(name: str) -> str:
    return name.lower().replace("_", "-")


def _upper(lib: str, spec: str, name: str) -> Optional[tuple[str, str]]:
    """The upper bound of one requirement's specifiers, or None."""
    bound: Optional[str] = None
    for op, version in _CLAUSE.findall(spec):
        if "*" in version:
            continue
        if op in ("==", "<="):
            bound = version
        elif op == "<":
            bound = "<" + version
    if bound is None:
        return None
    text = " ".join(spec.split()).rstrip(",")
    return (bound, f"{lib}{text} ({name})")


# what a library removed, and in which release: a project that pins an older release still has it.
# (kind, dotted key, value or None for the key itself) -> (library, the release that removed it)
REMOVED_IN = {
    ("sft-config", "max_seq_length", None): ("trl", "0.20"),
    # deprecated in 4.41 ("will be removed in version 4.46"), still a field through 4.50.x, gone in 4.51.0
    # (read in the 4.46.1 / 4.47.0 / 4.48.0 / 4.49.0 / 4.50.0 / 4.51.0 wheels' training_args.py)
    ("training-args", "evaluation_strategy", None): ("transformers", "4.51"),
    ("sft-config", "evaluation_strategy", None): ("transformers", "4.51"),
    # deprecated in 4.46 for `include_for_metrics`, still a field in 4.57.1, gone in 5.0.0 (read in the wheels)
    ("training-args", "include_inputs_for_metrics", None): ("transformers", "5.0"),
    ("sft-config", "include_inputs_for_metrics", None): ("transformers", "5.0"),
    # OptimizerNames.ADAMW_HF (transformers' own AdamW): in 4.49.0, gone in 4.50.0
    ("training-args", "optim", "adamw_hf"): ("transformers", "4.50"),
    ("sft-config", "optim", "adamw_hf"): ("transformers", "4.50"),
    # `accelerate launch --fsdp_backward_prefetch_policy`: deprecated, removed in 1.0.0 (#3098)
    ("accelerate", "fsdp_config.fsdp_backward_prefetch_policy", None): ("accelerate", "1.0.0"),
    # DeepSpeed's MiCS keys: declared by ZeroConfig from 0.9.0 through 0.19.5 (read at those tags);
    # 0.19.8 rejects them (runtime/config.py _REMOVED_ZERO_CONFIG_KEYS). 0.19.6/0.19.7 were not read:
    # only a pin older than 0.19.7 counts, so an unread release keeps the error
    ("deepspeed", "zero_optimization.mics_shard_size", None): ("deepspeed", "0.19.7"),
    ("deepspeed", "zero_optimization.mics_hierarchical_params_gather", None): ("deepspeed", "0.19.7"),
}


def pinned_before_removal(config_path: Path, kind: str, key: str, value: Optional[str] = None) -> str:
    """``lib==X (file)`` (the project's own spelling) when the config's project pins the library
    at releases that all still have ``key`` (or the ``value`` of ``key``); empty otherwise."""
    removed = REMOVED_IN.get((kind, key, value))
    if removed is None:
        return ""
    pin = pinned_version(config_path, removed[0])
    if pin is None:
        return ""
    version = pin[0]
    below = version[1:] if version.startswith("<") else None
    if below is not None:
        ok = not older_than(removed[1], below)  # every allowed release is older than `below` <= removal
    else:
        ok = older_than(version, removed[1])
    return pin[1] if ok else ""


# DeepSpeed sections that became strict pydantic models (unknown keys and wrong types rejected) in a
# release: before it, DeepSpeed read them key by key (``get_scalar_param``), ignoring other keys and
# taking any value as given. fp16/bf16: ``runtime/precision_config.py`` (e440506be, first in 0.17.1).
DEEPSPEED_STRICT_SINCE = {"fp16": "0.17.1", "bf16": "0.17.1", "bfloat16": "0.17.1"}


def pinned_older_than(config_path: Path, library: str, release: str) -> str:
    """``lib==X (file)`` when every release of ``library`` the config's project allows is older
    than ``release``; empty otherwise (no pin, no upper bound, or a pin at or after it)."""
    pin = pinned_version(config_path, library)
    if pin is None:
        return ""
    version = pin[0]
    if version.startswith("<"):
        return pin[1] if not older_than(release, version[1:]) else ""
    return pin[1] if older_than(version, release) else ""




def _flag_line(tree: ast.AST) -> int:
    """The line of a ``--key`` flag built from a loop's key (``for k, v in config.items():
    args.append(f"--{k}")``, ``"--" + k``, ``"--{}".format(k)``, or the same in a comprehension)
    in a module that calls ``yaml.safe_load``/``yaml.load``; 0 when either is missing. Read from the
    syntax tree: text inside strings does not count, and a flag built from a name no loop binds (a
    launch-line parser's ``f"--{key}"``) is no loader."""
    loads = flag = 0
    for node in walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _YAML_LOADS \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "yaml":
            loads = loads or node.lineno
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            keys = _names(node.target)
            line = next((getattr(n, "lineno", 0) for stmt in node.body for n in walk(stmt)
                         if _flag_of(n) in keys), 0)
            flag = min(f for f in (flag, line) if f) if (flag or line) else 0
        elif isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
            keys = {name for gen in node.generators for name in _names(gen.target)}
            line = next((getattr(n, "lineno", 0) for n in walk(node.elt) if _flag_of(n) in keys), 0)
            flag = min(f for f in (flag, line) if f) if (flag or line) else 0
    return flag if loads else 0


def _names(target: ast.AST) -> set[str]:
    return {n.id for n in walk(target) if isinstance(n, ast.Name)}


def _flag_of(node: ast.AST) -> str:
    """The name a ``--<name>`` flag is built from (``f"--{k}"``, ``"--" + k``, ``"--{}".format(k)``), or ""."""
    value: Optional[ast.AST] = None
    if isinstance(node, ast.JoinedStr) and len(node.values) >= 2:
        head = node.values[0]
        if isinstance(head, ast.Constant) and head.value == "--" and isinstance(node.values[1], ast.FormattedValue):
            value = node.values[1].value
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        if isinstance(node.left, ast.Constant) and node.left.value == "--":
            value = node.right
    elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"
          and isinstance(node.func.value, ast.Constant) and node.func.value.value == "--{}" and node.args):
        value = node.args[0]
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "str" and value.args:
        value = value.args[0]  # "--" + str(k)
    return value.id if isinstance(value, ast.Name) else ""


def yaml_to_flags(config_path: Path) -> str:
    """``path:line`` of a Python file of the config's project that loads YAML and writes each key
    as a ``--key`` command-line flag (ms-swift's ``parse_yaml_args``, open-instruct's job
    submitter): such a loader passes ``str(value)`` to argparse, so a YAML 1.1 string float
    (``1e-4``) still arrives as a number. Empty when there is none. The first such file (in
    sorted walk order) is named."""
    root = project_root(config_path)
    return _flags_under(str(root)) if root is not None else ""


@recorded_memo
def _flags_under(root: str) -> str:
    for path, text in project_files(root, (".py",)):
        if ("yaml" not in text or "--" not in text) and "TrlParser" not in text:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        line = _flag_line(tree) or _trl_parser_line(tree)
        if line:
            return f"{os.path.relpath(path, root)}:{line}"
    return ""


def _trl_parser_line(tree: ast.AST) -> int:
    """The line of ``parser.parse_args_and_config()`` in a module that builds a ``TrlParser``: TRL
    reads the ``--config`` YAML with ``yaml.safe_load`` and makes each key the default of its
    argparse action (``set_defaults_with_config``; newer releases pass unmatched keys as
    ``--key value``), and argparse converts a string default with the action's type at the end
    of parsing, so ``learning_rate: 5e-6`` arrives as a float. 0 when either is missing."""
    built = parsed = 0
    for node in walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name == "TrlParser":
            built = built or node.lineno
        elif name == "parse_args_and_config":
            parsed = parsed or node.lineno
    return parsed if built else 0


def pinned_at_most(config_path: Path, libraries: tuple[str, ...], last: str, gone_by: str) -> str:
    """``lib==X (file)`` when the config's project allows only releases that still have a removed
    argument: up to ``last`` (the newest release known to have it), or below the minor release
    ``gone_by`` names (``<2.0`` when 1.9.5 has it and 2.0.0 does not); empty otherwise."""
    for library in libraries:
        pin = pinned_version(config_path, library)
        if pin is None:
            continue
        version = pin[0]
        if version.startswith("<"):
            nums = re.findall(r"\d+", gone_by)[:2]
            ok = len(nums) == 2 and not older_than(f"{nums[0]}.{nums[1]}", version[1:])
        else:
            ok = not older_than(last, version)
        return pin[1] if ok else ""
    return ""


def older_than(version: str, removed_in: str) -> bool:
    """Whether ``version`` is a release before ``removed_in`` (numeric parts only)."""
    def parts(text: str) -> tuple[int, ...]:
        nums = [int(p) for p in re.findall(r"\d+", text.split("+")[0])[:3]]
        return tuple(nums + [0] * (3 - len(nums)))

    return parts(version) < parts(removed_in)

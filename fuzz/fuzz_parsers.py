"""Coverage-guided fuzzing of preflight's parsers with atheris.

Usage (Python 3.11, ``pip install atheris``)::

    python fuzz/fuzz_parsers.py TARGET [libFuzzer options] [CORPUS_DIR ...]
    python fuzz/fuzz_parsers.py python -max_total_time=300 fuzz/corpus/python

TARGET is one of the keys of ``TARGETS`` below. A target passes when the entry point
returns its documented result type (a parsed object or a ``FileError``) for every input;
any exception is a crash, which libFuzzer saves as ``crash-*`` in the working directory.
Crashes found and fixed are kept as regression inputs under ``fuzz/regressions/`` and
replayed by ``tests/test_fuzz_regressions.py``.
"""

from __future__ import annotations

import contextlib
import json
import sys
import tempfile
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def target_python(data: bytes) -> None:
    """Decode like a .py file, parse, run every rule."""
    from preflight.engine import Selection, analyse_parsed
    from preflight.registry import all_rules
    from preflight.sources import FileError, parse_python, read_source

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.py"
        path.write_bytes(data)
        source = read_source(path, "t.py", "python")
        if isinstance(source, FileError):
            return
        parsed = parse_python(source)
        if isinstance(parsed, FileError):
            return
        analyse_parsed(parsed, Selection(codes=tuple(all_rules())))


def _config(kind: str) -> Callable[[bytes], None]:
    def target(data: bytes) -> None:
        from preflight.loaders import LoadedConfig, load_config_text
        from preflight.sources import FileError

        result = load_config_text(_text(data), kind, f"c.{kind}")
        assert isinstance(result, (LoadedConfig, FileError)), result

    return target


def target_notebook(data: bytes) -> None:
    from preflight.sources import FileError, notebook_to_python, read_source

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "n.ipynb"
        path.write_bytes(data)
        source = read_source(path, "n.ipynb", "notebook")
        if isinstance(source, FileError):
            return
        notebook_to_python(source)


def target_launch(data: bytes) -> None:
    import shlex

    from preflight.adapters.launchers import parse_launch

    try:
        tokens = shlex.split(_text(data))
    except ValueError:
        tokens = _text(data).split()
    parse_launch(tokens)


def target_plan(data: bytes) -> None:
    from preflight.plan import TrainingPlan, load_plan
    from preflight.sources import FileError

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "plan.json"
        path.write_bytes(data)
        result = load_plan(path, "plan.json")
        assert isinstance(result, (TrainingPlan, FileError)), result


def target_sbatch(data: bytes) -> None:
    from preflight.gate.slurm import parse_sbatch

    parse_sbatch(_text(data), "job.sbatch")


def target_k8s(data: bytes) -> None:
    from preflight.gate.k8s import parse_manifest

    parse_manifest(_text(data), "job.yaml")


def target_cluster(data: bytes) -> None:
    from preflight.gate.cluster import ClusterError, load_cluster

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cluster.yaml"
        path.write_bytes(data)
        with contextlib.suppress(ClusterError):
            load_cluster(path, "cluster.yaml")


def target_hfconfig(data: bytes) -> None:
    """A Hub config.json: read as data, counted, never executed."""
    from preflight.estimate.arch import ArchitectureError, from_hf_config
    from preflight.estimate.params import count_params

    try:
        config = json.loads(_text(data))
    except ValueError:
        return
    if not isinstance(config, dict):
        return
    with contextlib.suppress(ArchitectureError):
        count_params(from_hf_config(config, name="fuzz/model"))


TARGETS: dict[str, Callable[[bytes], None]] = {
    "python": target_python,
    "json": _config("json"),
    "yaml": _config("yaml"),
    "toml": _config("toml"),
    "notebook": target_notebook,
    "launch": target_launch,
    "plan": target_plan,
    "sbatch": target_sbatch,
    "k8s": target_k8s,
    "cluster": target_cluster,
    "hfconfig": target_hfconfig,
}


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in TARGETS:
        sys.stderr.write(f"usage: {sys.argv[0]} {{{','.join(TARGETS)}}} [libFuzzer options]\n")
        raise SystemExit(2)
    import atheris

    target = TARGETS[sys.argv[1]]
    with atheris.instrument_imports():
        import preflight.adapters.launchers

        import preflight.engine
        import preflight.loaders
        import preflight.plan
        import preflight.sources  # noqa: F401
        from preflight.registry import all_rules

        all_rules()
    atheris.Setup([sys.argv[0], *sys.argv[2:]], target)
    atheris.Fuzz()


if __name__ == "__main__":
    json.dumps({})  # keep json imported before instrumentation (used by the loaders)
    main()

"""The install contract: one import name, two console scripts, no torch, no network."""

from __future__ import annotations

import importlib.metadata as md
import re
import sys
import textwrap
from pathlib import Path

from conftest import LEAKY, REPO, run_subprocess, write

FRAMEWORKS = ("torch", "transformers", "lightning", "pytorch_lightning", "accelerate", "deepspeed",
              "peft", "trl", "bitsandbytes")


def _base_requirements(dist: str) -> list[str]:
    out = []
    for req in md.requires(dist) or []:
        name, _, marker = req.partition(";")
        if "extra ==" in marker:
            continue
        out.append(re.split(r"[\s<>=!~\[]", name.strip(), maxsplit=1)[0].lower().replace("_", "-"))
    return out


def test_console_scripts_share_one_entry_point():
    eps = {ep.name: ep.value for ep in md.distribution("preflight-audit").entry_points
           if ep.group == "console_scripts"}
    assert eps == {"preflight": "preflight.cli:entry", "preflight-audit": "preflight.cli:entry"}


def test_only_import_name_is_preflight():
    top_level = md.distribution("preflight-audit").read_text("top_level.txt") or ""
    assert top_level.split() == ["preflight"]
    if hasattr(md, "packages_distributions"):  # Python 3.10+
        tops = {name for name, dists in md.packages_distributions().items() if "preflight-audit" in dists}
        assert tops == {"preflight"}
    import preflight.adapters
    import preflight.architectures
    import preflight.hardware

    assert Path(preflight.adapters.__file__).parent == REPO / "adapters"
    assert Path(preflight.hardware.__file__).parent == REPO / "hardware"
    assert Path(preflight.architectures.__file__).parent == REPO / "architectures"


def test_python_dash_m_and_version(tmp_path):
    proc = run_subprocess("-m", "preflight", "--version", cwd=tmp_path)
    assert proc.returncode == 0
    from preflight import __version__

    assert proc.stdout.strip() == f"preflight {__version__}"


def test_base_install_does_not_pull_torch():
    """Walk the installed dependency tree of the base requirements: no framework in it."""
    seen: set[str] = set()
    todo = _base_requirements("preflight-audit")
    assert set(todo) >= {"libcst", "pyyaml", "omegaconf", "huggingface-hub", "jsonschema"}
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            todo.extend(_base_requirements(name))
        except md.PackageNotFoundError:
            continue  # e.g. tomli on 3.11+: marker excluded it
    assert not seen & {"torch", "transformers", "lightning", "pytorch-lightning", "accelerate", "deepspeed"}


POISON = """
import os, sys
open(os.environ["PREFLIGHT_CANARY"], "a").write(__name__ + "\\n")
raise ImportError("preflight must not import " + __name__)
"""

SOCKET_GUARD = """
import os, socket
def _deny(*args, **kwargs):
    open(os.environ["PREFLIGHT_CANARY"], "a").write("network\\n")
    raise OSError("network access attempted")
socket.socket.connect = _deny
socket.socket.connect_ex = _deny
socket.create_connection = _deny
socket.getaddrinfo = _deny
"""


def test_no_command_imports_a_framework_or_touches_the_network(tmp_path):
    poison = tmp_path / "poison"
    for name in FRAMEWORKS:
        write(poison / name / "__init__.py", POISON)
    write(poison / "sitecustomize.py", SOCKET_GUARD)
    proj = tmp_path / "proj"
    write(proj / "train.py", LEAKY)
    write(proj / "ds.json", '{"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 3}}')
    write(proj / "job.sbatch", "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gres=gpu:a100:2\n"
                               "srun torchrun --nproc_per_node 2 train.py --deepspeed ds.json\n")
    canary = tmp_path / "canary.txt"
    script = textwrap.dedent(f"""
        import sys
        from preflight.cli import main
        runs = [
            ["check", "train.py", "--no-cache"],
            ["check", ".", "--format", "json"],
            ["check", ".", "--format", "sarif"],
            ["check", ".", "--diff"],
            ["audit", "train.py", "--config", "ds.json", "--no-cache"],
            ["audit", "train.py", "--config", "ds.json", "--emit-plan", "yaml"],
            ["rules"],
            ["explain", "PF101"],
            ["explain", "PF705"],
            ["estimate", "--model", "llama-2-7b", "--seq-len", "2048", "--batch-size", "1",
             "--gpu", "a100-80gb"],
            ["estimate", "train.py", "--config", "ds.json", "--params", "7B", "--seq-len", "512",
             "--gpu", "l4", "--format", "json"],
            ["gpus", "--instances"],
            ["fit", "Llama-3-8B", "--gpu", "h100"],
            ["fit", "Mixtral-8x7B", "--mode", "qlora", "--gpu", "l4"],
            ["validate", "ds.json"],
            ["gate", "job.sbatch", "--format", "json"],
        ]
        for args in runs:
            code = main(args)
            assert code in (0, 1, 3), (args, code)
        bad = [m for m in {FRAMEWORKS!r} if m in sys.modules]
        assert not bad, bad
        print("ok")
    """)
    proc = run_subprocess("-c", script, cwd=proj,
                          env={"PYTHONPATH": str(poison), "PREFLIGHT_CANARY": str(canary)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().endswith("ok")
    assert not canary.exists(), canary.read_text()


def test_sitecustomize_guard_really_works(tmp_path):
    """The network guard above would notice an attempt (so the test above can fail)."""
    poison = tmp_path / "poison"
    write(poison / "sitecustomize.py", SOCKET_GUARD)
    canary = tmp_path / "canary.txt"
    proc = run_subprocess("-c", "import socket\ntry:\n socket.create_connection(('127.0.0.1', 9))\nexcept OSError:\n pass",
                          cwd=tmp_path, env={"PYTHONPATH": str(poison), "PREFLIGHT_CANARY": str(canary)})
    assert proc.returncode == 0
    assert canary.read_text() == "network\n"
    write(poison / "torch" / "__init__.py", POISON)
    proc = run_subprocess("-c", "import torch", cwd=tmp_path,
                          env={"PYTHONPATH": str(poison), "PREFLIGHT_CANARY": str(canary)})
    assert proc.returncode != 0 and "torch" in canary.read_text()


def test_check_does_not_import_heavy_libraries(tmp_path):
    """Startup matters: linting one file imports neither LibCST, YAML, jsonschema nor the Hub client."""
    write(tmp_path / "train.py", LEAKY)
    script = textwrap.dedent("""
        import sys
        from preflight.cli import main
        main(["check", "train.py", "--no-cache"])
        heavy = [m for m in ("libcst", "yaml", "jsonschema", "huggingface_hub", "omegaconf") if m in sys.modules]
        print("heavy:", heavy)
    """)
    proc = run_subprocess("-c", script, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "heavy: []"


def test_supported_pythons_declared():
    meta = md.metadata("preflight-audit")
    assert meta["Requires-Python"] == ">=3.9"
    classifiers = meta.get_all("Classifier") or []
    for minor in range(9, 14):
        assert f"Programming Language :: Python :: 3.{minor}" in classifiers
    assert sys.version_info >= (3, 9)

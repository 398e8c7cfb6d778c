"""Write the Slurm lua plugins with this installation's settings filled in."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Optional

PLUGINS = ("job_submit.lua", "cli_filter.lua")


def preflight_command() -> str:
    """The command that runs this preflight: this interpreter with ``-I -m preflight``
    (it does not depend on PATH, which slurmctld's environment may not have). ``-I``
    (isolated mode, Python 3.4+) keeps the current directory, PYTHONPATH and the user's
    site-packages off ``sys.path``: the gate runs beside files the submitter wrote, and
    an ``argparse.py`` or a ``*.dist-info`` there must never be imported."""
    return f"{shlex.quote(sys.executable)} -I -m preflight"


def render(name: str, *, cluster: Optional[Path] = None, command: Optional[str] = None,
           timeout: int = 30, fail_open: Optional[bool] = None, contact: Optional[str] = None) -> str:
    """The plugin ``name`` with the settings filled in. The failure policy and the contact
    come from the cluster file (``policy.on_failure``, ``contact``) unless given: the
    plugin must decide without the gate when the gate fails, so it holds a copy of them."""
    if cluster is not None and (fail_open is None or contact is None):
        from preflight.gate.cluster import load_cluster

        loaded = load_cluster(cluster)  # ClusterError: the caller reports it
        fail_open = loaded.policy.on_failure == "admit" if fail_open is None else fail_open
        contact = loaded.contact if contact is None else contact
    template = (Path(__file__).resolve().parent / "lua" / name).read_text(encoding="utf-8")
    values = {
        "@PREFLIGHT@": _lua_string(command or preflight_command()),
        "@CLUSTER@": _lua_string(str(Path(cluster).resolve()) if cluster else ""),
        "@TIMEOUT@": str(int(timeout)),
        "@FAIL_OPEN@": "true" if fail_open else "false",
        "@CONTACT@": _lua_string(contact or ""),
    }
    for key, value in values.items():
        template = template.replace(key, value)
    return template


def _lua_string(text: str) -> str:
    """The body of a double-quoted Lua string."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")


def write_lua(directory: Path, *, cluster: Optional[Path] = None, command: Optional[str] = None,
              timeout: int = 30, fail_open: Optional[bool] = None, contact: Optional[str] = None) -> list[Path]:
    texts = {name: render(name, cluster=cluster, command=command, timeout=timeout, fail_open=fail_open,
                          contact=contact) for name in PLUGINS}
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    for name in PLUGINS:
        path = directory / name
        path.write_text(texts[name], encoding="utf-8")
        out.append(path)
    return out

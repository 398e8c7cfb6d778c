"""Write the Slurm lua plugins with this installation's settings filled in."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Optional

PLUGINS = ("job_submit.lua", "cli_filter.lua")


def preflight_command() -> str:
    """The command that runs this preflight: this interpreter with ``-m preflight``
    (it does not depend on PATH, which slurmctld's environment may not have)."""
    return f"{shlex.quote(sys.executable)} -m preflight"


def render(name: str, *, cluster: Optional[Path] = None, command: Optional[str] = None,
           timeout: int = 30, fail_open: bool = False) -> str:
    template = (Path(__file__).resolve().parent / "lua" / name).read_text(encoding="utf-8")
    values = {
        "@PREFLIGHT@": _lua_string(command or preflight_command()),
        "@CLUSTER@": _lua_string(str(Path(cluster).resolve()) if cluster else ""),
        "@TIMEOUT@": str(int(timeout)),
        "@FAIL_OPEN@": "true" if fail_open else "false",
    }
    for key, value in values.items():
        template = template.replace(key, value)
    return template


def _lua_string(text: str) -> str:
    """The body of a double-quoted Lua string."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def write_lua(directory: Path, *, cluster: Optional[Path] = None, command: Optional[str] = None,
              timeout: int = 30, fail_open: bool = False) -> list[Path]:
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    for name in PLUGINS:
        path = directory / name
        path.write_text(render(name, cluster=cluster, command=command, timeout=timeout, fail_open=fail_open),
                        encoding="utf-8")
        out.append(path)
    return out

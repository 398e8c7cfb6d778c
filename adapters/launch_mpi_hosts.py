"""Whether an ``mpiexec``/``mpirun`` line runs on one machine: no host list, hostfile, rankfile or
per-node count on the line, and not started from a scheduler's batch script (whose allocation
MPI would spread the ranks over). openai/consistency_models @ e32b69e ``scripts/launch.sh:5``
``mpiexec -n 8 python edm_train.py ...``: eight ranks on the machine it is typed on.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional

# mpiexec/mpirun options naming hosts (Open MPI, MPICH/Hydra, Intel MPI), in the launch reader's
# spelling (a leading ``--`` becomes ``__``)
_HOST_FLAGS = ("-host", "__host", "-H", "-hosts", "__hosts", "-hostfile", "__hostfile", "-machinefile",
               "__machinefile", "-machine", "-f", "-rf", "__rankfile", "__default_hostfile", "-default-hostfile",
               "-npernode", "__npernode", "-ppn", "__ppn", "-N", "__map_by", "-map-by", "-perhost", "-rr",
               "-nodes", "__nodes", "-configfile", "-launcher", "-bootstrap")
_SCHEDULER = re.compile(r"^\s*#(SBATCH|PBS|BSUB|\$)\s|\$\{?(SLURM|PBS|LSB|OMPI_MCA_orte)_", re.M)


def one_machine(project: Any, info: Any) -> Optional[str]:
    """A reason when the MPI launch is on one machine, else None."""
    options = getattr(info, "wrapper_options", {}) or {}
    if any(flag in options for flag in _HOST_FLAGS):
        return None
    if any(k.startswith(("SLURM", "PBS", "LSB", "OMPI_MCA")) for k in (getattr(info, "env", {}) or {})):
        return None
    if _SCHEDULER.search(" ".join(getattr(project, "argv", []) or [])):
        return None
    at = getattr(project, "launch_at", None)
    if at is not None:
        from preflight.sources import read_text_limited

        path = Path(str(project.root)) / at[0]
        try:
            text = read_text_limited(path, 1_000_000, errors="replace")
        except (OSError, ValueError):
            return None
        if _SCHEDULER.search(text):
            return None
    return "mpiexec with no host list, hostfile or per-node count, not from a scheduler's batch script: " \
           "every rank on the machine it is started on"


__all__ = ["one_machine"]

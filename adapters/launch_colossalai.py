"""``colossalai run``: ColossalAI's launcher (colossalai/cli/launcher/__init__.py and run.py,
hpcaitech/ColossalAI at 4f9953b). It builds one ``torchrun --nproc_per_node=N --nnodes=M
... user_script user_args`` per host and runs it there, so every process sees torchrun's
RANK / LOCAL_RANK / WORLD_SIZE.

- ``--nproc_per_node N``: processes per node; without it the launcher stops ("--nproc_per_node did
  not receive any value").
- nodes: the hosts of ``--host h1,h2`` (comma-separated), or of ``--hostfile`` (one per line, then
  ``--include`` / ``--exclude`` / ``--num_nodes``: known only when the job runs); neither: the local
  node alone (``--nnodes=1``).
- ``-m module``: run a module; otherwise the first positional argument is the script.
"""

from __future__ import annotations

from typing import Any

from preflight.adapters.launchers import LaunchInfo, _int, _options, _set_script

from preflight.plan import Source, TrainingPlan


def parse_colossalai_run(info: LaunchInfo, tokens: list[str], i: int) -> None:
    """Fill ``info`` from ``colossalai run`` options starting at ``tokens[i]``."""
    info.launcher = "colossalai"
    opts = info.options
    i = _options(tokens, i, set(), opts)
    if opts.get("-m"):
        info.script, info.module, info.script_args = opts["-m"], True, list(tokens[i:])
    else:
        _set_script(info, tokens, i)
    nproc = opts.get("__nproc_per_node")
    info.procs_per_node = _int(nproc)
    if nproc is None:
        info.notes.append("colossalai run without --nproc_per_node stops before starting anything "
                          "(colossalai/cli/launcher/run.py)")
    hosts = next((opts[k] for k in ("-H", "-host", "__host") if k in opts), None)
    if hosts is not None and "$" not in hosts:
        info.nodes = len([h for h in hosts.split(",") if h.strip()])
    elif hosts is None and "__hostfile" not in opts:
        info.nodes = 1
    elif "__hostfile" in opts:
        info.notes.append(f"colossalai run --hostfile {opts['__hostfile']}: the node count is the hostfile's "
                          "hosts (after --include/--exclude/--num_nodes), known when the job runs")
    if info.nodes is not None and info.procs_per_node is not None:
        info.total_procs = info.nodes * info.procs_per_node


def colossalai_facts(adapter: Any, plan: TrainingPlan, info: LaunchInfo, line: str) -> None:
    """The process counts ``colossalai run`` gives (read by ``parse_colossalai_run``)."""
    def src(kind: str, flag: str, detail: str) -> Source:
        return Source(kind, None, None, flag, f"{detail} (launch line: {line})")

    opts = info.options
    host_flag = next((k.replace("__", "--", 1) for k in ("-H", "-host", "__host") if k in opts), None)
    if info.procs_per_node is not None:
        adapter.add_checked(plan, "dist.devices_per_node", info.procs_per_node,
                            src("cli", "--nproc_per_node", f"--nproc_per_node {info.procs_per_node}"))
    if info.nodes is not None:
        if host_flag is not None:
            adapter.add_checked(plan, "dist.nodes", info.nodes,
                                src("cli", host_flag, f"{host_flag} names {info.nodes} host(s)"))
        else:
            adapter.add_checked(plan, "dist.nodes", 1,
                                src("default", "--host", "colossalai run without --host/--hostfile runs on the "
                                                         "local node alone (colossalai/cli/launcher/run.py)"))
    if info.total_procs is not None:
        adapter.add_checked(plan, "dist.world_size", info.total_procs,
                            src("derived", "--nproc_per_node", f"{info.nodes} node(s) x --nproc_per_node "
                                f"{info.procs_per_node} = {info.total_procs} processes"))
        if info.total_procs > 1:
            adapter.note(plan, f"colossalai run starts {info.total_procs} processes through torchrun; how they "
                               "share the model (a Booster plugin, DDP, ...) is up to the script")

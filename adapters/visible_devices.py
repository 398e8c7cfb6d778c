"""``CUDA_VISIBLE_DEVICES=...`` set on the launch line, as the number of processes where the launcher
counts the visible devices (read by the launchers adapter, :mod:`preflight.adapters.launchers`):

* ``deepspeed`` with none of ``--include``/``--exclude``/``--num_gpus``/``--num_nodes`` and no
  ``--hostfile``: the runner turns the variable into ``--include=localhost:<ids>`` when it finds no
  hostfile (deepspeed/launcher/runner.py ``main``: "respect CUDA_VISIBLE_DEVICES for a single node and no
  explicit resource filters"), so one process per listed device on this machine
  (BeyonderXX/InstructUIE scripts/train_flan-t5.sh:16 @ the benchmark's commit,
  ``CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 deepspeed --master_port $port src/run_uie.py ...``). Whether
  ``/job/hostfile`` exists where the job runs is not seen statically: ``low``, as for ``--num_gpus``
  without ``--num_nodes``.
* plain ``python`` with exactly one visible device and a script that starts no processes itself: one
  process on one device (michael-wzhu/PromptCBLUE src/ft_chatglm_lora/train.sh:12,
  ``CUDA_VISIBLE_DEVICES=1 python src/ft_chatglm_lora/main.py ...``; an HF Trainer then has ``n_gpu`` 1 and
  wraps nothing in DataParallel).

A value that names its devices through a variable (``$gpu``) is not known, and nothing is said."""

from __future__ import annotations

from typing import Any, Optional

from preflight.plan import Source

_STARTS_PROCESSES = ("spawn(", "start_processes", "Process(", "submitit", "notebook_launcher", "ray.init",
                     "launch(")


def _ids(value: Optional[str]) -> Optional[list[str]]:
    if value is None or "$" in value or "`" in value:
        return None
    ids = [x.strip() for x in value.strip("'\"").split(",") if x.strip()]
    if not ids or not all(x.isdigit() or x.startswith(("GPU-", "MIG-")) for x in ids):
        return None
    return ids


def visible_device_facts(adapter: Any, project: Any, plan: Any, info: Any, line: str) -> None:
    """The facts above, through ``adapter._put`` (the launchers adapter)."""
    value = info.env.get("CUDA_VISIBLE_DEVICES")
    ids = _ids(value)
    if ids is None or info.wrapper is not None:
        return
    n = len(ids)
    if info.launcher == "deepspeed":
        opts = info.options
        if opts.get("__include") or opts.get("__exclude") or opts.get("__hostfile") \
                or "__num_gpus" in opts or "__num_accelerators" in opts or "__num_nodes" in opts:
            return  # the runner ignores the variable when one of these is given
        detail = (f"CUDA_VISIBLE_DEVICES={value} and no --include/--exclude/--num_gpus/--num_nodes: the deepspeed "
                  f"runner sets --include=localhost:{value} when it finds no hostfile, one process per device "
                  f"({n}; assumed: no /job/hostfile where the job runs)")
        adapter._put(plan, "dist.devices_per_node", n,
                     Source("derived", None, None, "CUDA_VISIBLE_DEVICES", f"{detail} (launch line: {line})"), "low")
        adapter._put(plan, "dist.world_size", n,
                     Source("derived", None, None, "CUDA_VISIBLE_DEVICES", f"{detail} (launch line: {line})"), "low")
    elif info.launcher == "python" and n == 1:
        texts = [s.source.text for s in project.scripts]
        if any(word in t for t in texts for word in _STARTS_PROCESSES):
            return
        detail = (f"CUDA_VISIBLE_DEVICES={value} python: one process and one visible device; the script starts no "
                  f"others (launch line: {line})")
        for field in ("dist.world_size", "dist.devices_per_node", "dist.nodes"):
            adapter._put(plan, field, 1, Source("derived", None, None, "CUDA_VISIBLE_DEVICES", detail), "medium")

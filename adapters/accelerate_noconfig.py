"""``accelerate launch`` with neither ``--num_processes`` nor ``--config_file``: what accelerate does when
no config file is found, as facts at ``low`` confidence (read by the launchers adapter,
:mod:`preflight.adapters.launchers`).

accelerate/commands/launch.py ``_validate_launch_command`` (1.x): when ``--config_file`` is not given and
the default config file (``~/.cache/huggingface/accelerate/default_config.yaml``, written by
``accelerate config``) does not exist, ``--num_processes`` becomes ``max(torch.cuda.device_count(), 1)``
(the devices the process sees, so ``CUDA_VISIBLE_DEVICES`` counts), ``--num_machines`` becomes 1, and
``--multi_gpu`` is switched on when more than one process and device remain. Whether the user's machine
holds a default config file is not seen statically: each fact says it assumes none, at ``low``.

* yisol/IDM-VTON ``train_xl.sh:1`` at the benchmark's commit, ``CUDA_VISIBLE_DEVICES=0,1,2,3 accelerate
  launch train_xl.py ...``: 4 processes on one machine;
* ylacombe/finetune-hf-vits ``README.md``, ``accelerate launch run_vits_finetuning.py ./config.json``: one
  machine (the process count is the machine's GPU count, not known statically: left unknown).

Nothing is said when the line gives ``--num_processes``, ``--num_machines``, ``--config_file``,
``--gpu_ids``, ``--cpu`` or ``--tpu``, when a wrapper (srun, mpirun) starts the launcher, or when the
visible devices are named through a variable."""

from __future__ import annotations

from typing import Any

from preflight.plan import Source

_GIVEN = ("__num_processes", "__num_machines", "__config_file", "__gpu_ids", "__cpu", "__tpu")
_ASSUMED = ("accelerate launch without --num_processes or --config_file, assumed: no default accelerate config "
            "file on the machine (accelerate config writes one)")


def accelerate_defaults(adapter: Any, plan: Any, info: Any, line: str) -> None:
    """The facts above, through ``adapter._put`` (the launchers adapter)."""
    from preflight.adapters.visible_devices import _ids

    opts = info.options
    if info.wrapper is not None or any(flag in opts for flag in _GIVEN):
        return
    adapter._put(plan, "dist.nodes", 1,
                 Source("default", None, None, "--num_machines",
                        f"{_ASSUMED}: --num_machines becomes 1 (accelerate/commands/launch.py) (launch line: {line})"),
                 "low")
    value = info.env.get("CUDA_VISIBLE_DEVICES")
    if value is None:
        return
    ids = _ids(value)
    if ids is None:
        return
    n = len(ids)
    detail = (f"{_ASSUMED}: --num_processes becomes the visible device count, CUDA_VISIBLE_DEVICES={value}: {n} "
              f"on 1 machine{' (--multi_gpu switched on)' if n > 1 else ''} (launch line: {line})")
    for field in ("dist.world_size", "dist.devices_per_node"):
        adapter._put(plan, field, n, Source("derived", None, None, "CUDA_VISIBLE_DEVICES", detail), "low")

"""PF330 examples: executable documentation. A bad example marks each line it must be reported on with a
trailing ``# warning: PF330`` comment; the meta-test asserts exactly those findings. Good examples stay silent."""

from __future__ import annotations

import textwrap

_SWEEP = textwrap.dedent("""
    import hydra
    import submitit
    from omegaconf import DictConfig, OmegaConf

    from train_resnet import train


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg: DictConfig):
        executor = submitit.AutoExecutor(folder=cfg.slurm.log_dir)
        executor.update_parameters({marker}
            nodes=1,
            gpus_per_node=cfg.slurm.gpus_per_node,
            cpus_per_task=10,
            slurm_partition=cfg.slurm.partition,{extra}
        )
        jobs = []
        for lr in cfg.sweep.lrs:
            run_cfg = OmegaConf.to_container(cfg, resolve=True)
            run_cfg["optim"]["lr"] = lr
            jobs.append(executor.submit(train, run_cfg))
    """)

PF330_BAD = [
    # held-out-46 case h46-hy-submitit-job-submitted-without-a-time-limit (submitit issue "default timeout_min
    # is set to 5"): GPUs, CPUs and partition set, no timeout_min
    _SWEEP.format(marker="  # warning: PF330", extra=""),
    # SlurmExecutor without `time`, jobs submitted with map_array
    textwrap.dedent("""
    import submitit

    from trainer import fit

    executor = submitit.SlurmExecutor(folder="logs", max_num_timeout=3)
    executor.update_parameters(partition="gpu", gpus_per_node=4, cpus_per_task=8)  # warning: PF330
    jobs = executor.map_array(fit, [0.1, 0.01])
    """),
    # no update_parameters at all: reported at the executor
    textwrap.dedent("""
    import submitit


    def launch(train_fn):
        ex = submitit.AutoExecutor(folder="logs")  # warning: PF330
        return ex.submit(train_fn).job_id
    """),
]

PF330_GOOD = [
    # the fix: timeout_min from the config
    _SWEEP.format(marker="", extra="\n        timeout_min=cfg.slurm.timeout_min,"),
    # slurm_time / time keywords
    _SWEEP.format(marker="", extra='\n        slurm_time="3-00:00:00",'),
    # tricky-correct: the limit comes in through **params (a dict preflight does not follow)
    textwrap.dedent("""
    import submitit

    from trainer import fit

    params = load_params()
    executor = submitit.AutoExecutor(folder="logs")
    executor.update_parameters(**params)
    executor.submit(fit)
    """),
    # tricky-correct: the executor is handed to a helper that sets the limit
    textwrap.dedent("""
    import submitit

    from trainer import fit
    from cluster import configure

    executor = submitit.AutoExecutor(folder="logs")
    configure(executor)
    executor.submit(fit)
    """),
    # tricky-correct: a factory returns the executor; the caller submits
    textwrap.dedent("""
    import submitit


    def make_executor(folder):
        executor = submitit.AutoExecutor(folder=folder)
        executor.update_parameters(gpus_per_node=1)
        return executor
    """),
    # the debug cluster runs the job in-process: no SLURM limit
    textwrap.dedent("""
    import submitit

    from trainer import fit

    executor = submitit.AutoExecutor(folder="logs", cluster="debug")
    executor.submit(fit)
    """),
    # tricky-correct: a short utility job (submitit's own job-array example of additions)
    textwrap.dedent("""
    import submitit

    executor = submitit.AutoExecutor(folder="logs")
    executor.update_parameters(slurm_array_parallelism=2)
    jobs = executor.map_array(add, [1, 2], [10, 20])
    """),
]

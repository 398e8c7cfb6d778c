"""PF616 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import hydra
    from omegaconf import DictConfig


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg: DictConfig) -> None:
        print(cfg.seed, cfg.lr)


    if __name__ == "__main__":
        main()
""")

BAD_EXAMPLES = [
    # hydra issue 1254: one run per GPU started together from a batch script, second-resolution folder
    _TRAIN + """\
# --- conf/config.yaml
hydra:
  run:
    dir: outputs/${now:%Y-%m-%d}/${now:%H-%M-%S}  # warning: PF616
seed: 0
lr: 3e-4
# --- launch.sh
#!/bin/bash
#SBATCH --gres=gpu:4
for seed in 0 1 2 3; do
  CUDA_VISIBLE_DEVICES=$seed python train.py seed=$seed &
done
wait
""",
    # the folder in the selected `hydra` option; its other interpolations are the same in every run
    _TRAIN + """\
# --- conf/config.yaml
defaults:
  - _self_
  - hydra: default
task_name: train
paths:
  log_dir: logs
seed: 0
lr: 3e-4
# --- conf/hydra/default.yaml
run:
  dir: ${paths.log_dir}/${task_name}/runs/${now:%Y-%m-%d}_${now:%H-%M-%S}  # warning: PF616
# --- scripts/sweep.sh
#!/bin/bash
python train.py lr=1e-4 &
python train.py lr=3e-4 &
python train.py lr=1e-3 &
wait
""",
    # hydra issue 2925: the tasks of a SLURM array start together, each in a folder named to the second
    _TRAIN + """\
# --- conf/config.yaml
seed: 0
lr: 3e-4
hydra:
  run:
    dir: outputs/${now:%Y-%m-%d}/${now:%H-%M-%S}  # warning: PF616
# --- launch.sh
#!/bin/bash
#SBATCH --array=0-7
#SBATCH --gres=gpu:1
srun python train.py seed=${SLURM_ARRAY_TASK_ID}
""",
    # lightning-hydra-template issue 511: the folder sits under paths.log_dir, which reaches the
    # environment only through ${oc.env:PROJECT_ROOT}, the same place for every run of the loop
    _TRAIN + """\
# --- conf/config.yaml
defaults:
  - _self_
  - paths: default
  - hydra: default
task_name: train
seed: 12345
lr: 3e-4
# --- conf/paths/default.yaml
root_dir: ${oc.env:PROJECT_ROOT}
log_dir: ${paths.root_dir}/logs/
output_dir: ${hydra:runtime.output_dir}
# --- conf/hydra/default.yaml
run:
  dir: ${paths.log_dir}/${task_name}/runs/${now:%Y-%m-%d}_${now:%H-%M-%S}  # warning: PF616
# --- launch.sh
#!/bin/bash
for seed in 1 2 3 4 5; do
  python train.py seed=$seed trainer.devices=1 &
done
wait
""",
    # Hydra's job name is the same in every run of the array
    _TRAIN + """\
# --- conf/config.yaml
hydra:
  run:
    dir: outputs/${hydra:job.name}/${now:%Y-%m-%d_%H-%M-%S}  # warning: PF616
seed: 0
lr: 3e-4
# --- launch.sh
#!/bin/bash
#SBATCH --array=0-3
srun python train.py seed=${SLURM_ARRAY_TASK_ID}
""",
]

GOOD_EXAMPLES = [
    # the fix: the overridden seed is part of the folder
    _TRAIN + """\
# --- conf/config.yaml
hydra:
  run:
    dir: outputs/${now:%Y-%m-%d}/${now:%H-%M-%S}_seed${seed}
seed: 0
lr: 3e-4
# --- launch.sh
#!/bin/bash
for seed in 0 1 2 3; do
  CUDA_VISIBLE_DEVICES=$seed python train.py seed=$seed &
done
wait
""",
    # tricky: Hydra's override_dirname, reached through a key of the config
    _TRAIN + """\
# --- conf/config.yaml
run_name: ${hydra:job.override_dirname}
hydra:
  run:
    dir: outputs/${now:%Y-%m-%d_%H-%M-%S}/${run_name}
seed: 0
lr: 3e-4
# --- launch.sh
#!/bin/bash
for lr in 1e-4 3e-4 1e-3; do
  python train.py lr=$lr &
done
wait
""",
    # tricky: the loop waits between starts
    _TRAIN + """\
# --- conf/config.yaml
hydra:
  run:
    dir: outputs/${now:%Y-%m-%d}/${now:%H-%M-%S}
seed: 0
lr: 3e-4
# --- launch.sh
#!/bin/bash
for seed in 0 1 2 3; do
  python train.py seed=$seed &
  sleep 5
done
wait
""",
    # tricky: runs started one after the other (no background job)
    _TRAIN + """\
# --- conf/config.yaml
hydra:
  run:
    dir: outputs/${now:%Y-%m-%d}/${now:%H-%M-%S}
seed: 0
lr: 3e-4
# --- launch.sh
#!/bin/bash
for seed in 0 1 2 3; do
  python train.py seed=$seed
done
""",
    # tricky: microseconds in the timestamp
    _TRAIN + """\
# --- conf/config.yaml
hydra:
  run:
    dir: outputs/${now:%Y-%m-%d_%H-%M-%S.%f}
seed: 0
lr: 3e-4
# --- launch.sh
#!/bin/bash
for seed in 0 1 2 3; do
  python train.py seed=$seed &
done
wait
""",
    # the fix of hydra issue 2925: the array task id is part of the folder
    _TRAIN + """\
# --- conf/config.yaml
seed: 0
lr: 3e-4
hydra:
  run:
    dir: outputs/${now:%Y-%m-%d}/${now:%H-%M-%S}_${oc.env:SLURM_ARRAY_JOB_ID,local}_${oc.env:SLURM_ARRAY_TASK_ID,0}
# --- launch.sh
#!/bin/bash
#SBATCH --array=0-7
srun python train.py seed=${SLURM_ARRAY_TASK_ID}
""",
    # tricky: the folder holds the seed each task overrides
    _TRAIN + """\
# --- conf/config.yaml
seed: 0
lr: 3e-4
hydra:
  run:
    dir: outputs/${now:%Y-%m-%d_%H-%M-%S}_seed${seed}
# --- launch.sh
#!/bin/bash
#SBATCH --array=0-7
python train.py seed=$SLURM_ARRAY_TASK_ID
""",
    # tricky: `%1` lets one task run at a time
    _TRAIN + """\
# --- conf/config.yaml
seed: 0
lr: 3e-4
hydra:
  run:
    dir: outputs/${now:%Y-%m-%d}/${now:%H-%M-%S}
# --- launch.sh
#!/bin/bash
#SBATCH --array=0-7%1
srun python train.py seed=${SLURM_ARRAY_TASK_ID}
""",
    # the fix of template issue 511: the seed the loop sets is in the folder
    _TRAIN + """\
# --- conf/config.yaml
defaults:
  - _self_
  - paths: default
  - hydra: default
task_name: train
seed: 12345
lr: 3e-4
# --- conf/paths/default.yaml
root_dir: ${oc.env:PROJECT_ROOT}
log_dir: ${paths.root_dir}/logs/
# --- conf/hydra/default.yaml
run:
  dir: ${paths.log_dir}/${task_name}/runs/${now:%Y-%m-%d}_${now:%H-%M-%S}_seed${seed}
# --- launch.sh
#!/bin/bash
for seed in 1 2 3 4 5; do
  python train.py seed=$seed trainer.devices=1 &
done
wait
""",
    # tricky: the path reaches an environment variable that is per run (the array task's id)
    _TRAIN + """\
# --- conf/config.yaml
run_id: ${oc.env:SLURM_ARRAY_TASK_ID,0}
hydra:
  run:
    dir: outputs/${now:%Y-%m-%d_%H-%M-%S}/${run_id}
seed: 0
# --- launch.sh
#!/bin/bash
#SBATCH --array=0-3
srun python train.py seed=${SLURM_ARRAY_TASK_ID}
""",
    # tricky: an environment variable whose name says nothing fixed (set per run by a wrapper)
    _TRAIN + """\
# --- conf/config.yaml
hydra:
  run:
    dir: ${oc.env:OUT_BASE}/${now:%Y-%m-%d_%H-%M-%S}
seed: 0
# --- launch.sh
#!/bin/bash
for seed in 1 2 3; do
  OUT_BASE=runs/s$seed python train.py seed=$seed &
done
wait
""",
]

"""PF174 examples (small projects): bad ones must fire at the pinned line, good ones stay silent."""

_APP = """\
# --- src/train.py
import hydra
from omegaconf import DictConfig

from src.fit import fit


@hydra.main(version_base=None, config_path="../conf", config_name="main")
def main(cfg: DictConfig) -> None:
    fit(cfg)


if __name__ == "__main__":
    main()
"""

_CFG = """\
# --- conf/main.yaml
defaults:
  - _self_

data_root: ${oc.env:DATA_ROOT}/shapes
epochs: 100

hydra:
  run:
    dir: ${oc.env:EXP_ROOT}/runs/${now:%Y-%m-%d_%H-%M-%S}  # error: PF174
  sweep:
    dir: ${oc.env:EXP_ROOT}/sweeps/${now:%Y-%m-%d}
"""

_SH = """\
# --- launch.sh
#!/bin/bash
export DATA_ROOT=/scratch/$USER/shapes
python src/train.py epochs=200
"""

BAD = [
    # DiffCSP issue 3: the run dir reads a variable the launch script (which prepares the data root) never sets
    _APP + _CFG + _SH,
]

GOOD = [
    # the launch script exports it too
    _APP + _CFG.replace("  # error: PF174", "") + _SH.replace(
        "export DATA_ROOT=/scratch/$USER/shapes\n", "export DATA_ROOT=/scratch/$USER/shapes\nexport EXP_ROOT=$PWD/exp\n"),
    # a default
    _APP + _CFG.replace("${oc.env:EXP_ROOT}/runs", "${oc.env:EXP_ROOT,outputs}/runs").replace("  # error: PF174", "")
    + _SH,
    # the script sources the project's environment file
    _APP + _CFG.replace("  # error: PF174", "") + _SH.replace("#!/bin/bash\n", "#!/bin/bash\nsource env.sh\n"),
    # tricky: the script exports nothing the configs read: the environment comes from the caller
    _APP + _CFG.replace("  # error: PF174", "") + _SH.replace("export DATA_ROOT=/scratch/$USER/shapes\n",
                                                                "export OMP_NUM_THREADS=4\n"),
    # tricky: set on the command line itself
    _APP + _CFG.replace("  # error: PF174", "") + _SH.replace("python src/train.py",
                                                                "EXP_ROOT=/scratch/exp python src/train.py"),
    # tricky: the run dir reads a variable every login shell has
    _APP + _CFG.replace("${oc.env:EXP_ROOT}/runs", "${oc.env:HOME}/runs").replace("  # error: PF174", "") + _SH,
]

# det127: a second entry file of a lightning-hydra-template project (issue 418). The template's train.py exports
# PROJECT_ROOT with pyrootutils before Hydra starts; the new entry composes the same run dir without it.
_TEMPLATE = """\
# --- src/train.py
import hydra
import pyrootutils
from omegaconf import DictConfig

pyrootutils.setup_root(__file__, indicator=".project-root", project_root_env_var=True, pythonpath=True)

from src.tasks import train_task  # noqa: E402


@hydra.main(version_base="1.3", config_path="../configs", config_name="train.yaml")
def main(cfg: DictConfig) -> None:
    train_task(cfg)


if __name__ == "__main__":
    main()
# --- src/tasks.py
from omegaconf import DictConfig


def train_task(cfg: DictConfig) -> None:
    print(cfg.task_name, cfg.paths.data_dir)
# --- src/my_main.py
import hydra
from omegaconf import DictConfig

from src.tasks import train_task


@hydra.main(version_base="1.3", config_path="../configs", config_name="train.yaml")
def func(cfg: DictConfig) -> None:
    train_task(cfg)


if __name__ == "__main__":
    func()
# --- configs/train.yaml
defaults:
  - _self_
  - paths: default

task_name: train

hydra:
  run:
    dir: ${paths.log_dir}/${task_name}/runs/${now:%Y-%m-%d}_${now:%H-%M-%S}
# --- configs/paths/default.yaml
root_dir: ${oc.env:PROJECT_ROOT}  # error: PF174
data_dir: ${paths.root_dir}/data/
log_dir: ${paths.root_dir}/logs/
# --- launch
python src/my_main.py
"""

# the other entry sets the variable with os.environ, and the run dir reads it directly
_ENVIRON = """\
# --- prepare_and_train.py
import os

import hydra
from omegaconf import DictConfig

os.environ["EXP_DIR"] = os.path.join(os.path.dirname(os.path.abspath(__file__)), "experiments")


@hydra.main(version_base=None, config_path="conf", config_name="main")
def main(cfg: DictConfig) -> None:
    print(cfg.lr)


if __name__ == "__main__":
    main()
# --- sweep_lr.py
import hydra
from omegaconf import DictConfig


@hydra.main(version_base=None, config_path="conf", config_name="main")
def main(cfg: DictConfig) -> None:
    print(cfg.lr)


if __name__ == "__main__":
    main()
# --- conf/main.yaml
lr: 0.001
hydra:
  run:
    dir: ${oc.env:EXP_DIR}/runs/${now:%H-%M-%S}  # error: PF174
# --- launch
python sweep_lr.py lr=0.01
"""


def _quiet(example: str) -> str:
    return example.replace("  # error: PF174", "")


BAD += [_TEMPLATE, _ENVIRON]

GOOD += [
    # the new entry sets the root as the template's train.py does (the maintainer's fix)
    _quiet(_TEMPLATE).replace("import hydra\nfrom omegaconf import DictConfig\n\nfrom src.tasks",
                              "import hydra\nimport pyrootutils\nfrom omegaconf import DictConfig\n\npyrootutils."
                              "setup_root(__file__, indicator=\".project-root\", project_root_env_var=True)\n\n"
                              "from src.tasks"),
    # a default for the interpolation
    _quiet(_TEMPLATE).replace("${oc.env:PROJECT_ROOT}", "${oc.env:PROJECT_ROOT,.}"),
    # the launch line sets it
    _quiet(_TEMPLATE).replace("python src/my_main.py\n", "PROJECT_ROOT=/work/proj python src/my_main.py\n"),
    # tricky: no entry file sets it: the environment is the caller's to prepare, nothing says it is forgotten
    _quiet(_TEMPLATE).replace("pyrootutils.setup_root(__file__, indicator=\".project-root\", "
                              "project_root_env_var=True, pythonpath=True)\n", ""),
    # tricky: the other entry tells rootutils not to export the variable
    _quiet(_TEMPLATE).replace("project_root_env_var=True", "project_root_env_var=False"),
    # tricky: the new entry imports the other entry file, whose top-level setup_root runs first
    _quiet(_TEMPLATE).replace("from src.tasks import train_task\n\n\n@hydra.main(version_base=\"1.3\", "
                              "config_path=\"../configs\", config_name=\"train.yaml\")\ndef func",
                              "from src.train import train_task\n\n\n@hydra.main(version_base=\"1.3\", "
                              "config_path=\"../configs\", config_name=\"train.yaml\")\ndef func"),
    # tricky: a helper module the new entry imports sets the root (rootutils)
    _quiet(_TEMPLATE).replace("# --- src/tasks.py\nfrom omegaconf import DictConfig\n",
                              "# --- src/tasks.py\nimport rootutils\nfrom omegaconf import DictConfig\n\n"
                              "rootutils.setup_root(__file__, indicator=\".project-root\")\n"),
    # tricky: the os.environ entry's variable, with the same entry launched
    _quiet(_ENVIRON).replace("python sweep_lr.py lr=0.01\n", "python prepare_and_train.py lr=0.01\n"),
]

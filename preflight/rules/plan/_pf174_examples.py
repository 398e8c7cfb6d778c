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

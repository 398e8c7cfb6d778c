"""PF575 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_FILES = textwrap.dedent("""
    # --- evaluate.py
    import hydra
    from omegaconf import DictConfig


    @hydra.main(version_base="1.3", config_path="configs", config_name="{primary}")
    def main(cfg: DictConfig) -> None:
        model = hydra.utils.instantiate(cfg.model)
        print(model, cfg.get("ckpt_path"))


    if __name__ == "__main__":
        main()
    # --- configs/paths/default.yaml
    root_dir: .
    log_dir: ${{paths.root_dir}}/logs
    # --- configs/model/net.yaml
    _target_: models.Net
    width: 128
    # --- configs/hydra/default.yaml
    run:
      dir: ${{paths.log_dir}}/${{task_name}}/runs/${{now:%Y-%m-%d_%H-%M-%S}}
    sweep:
      dir: ${{paths.log_dir}}/${{task_name}}/multiruns/${{now:%Y-%m-%d_%H-%M-%S}}
      subdir: ${{hydra.job.num}}
""")

BAD_EXAMPLES = [
    # conditional-flow-matching issue 130: the eval config never selects the group the run folder reads
    _FILES.format(primary="eval") + """\
# --- configs/eval.yaml
defaults:
  - _self_
  - model: net
  - hydra: default  # error: PF575

task_name: eval
ckpt_path: ???
# --- launch
python evaluate.py ckpt_path=/ckpts/last.ckpt
""",
    # the folder set in the primary config itself, for a sweep: the sweep folder reads a key nothing defines
    _FILES.format(primary="sweep") + """\
# --- configs/sweep.yaml
defaults:
  - model: net
  - _self_

task_name: sweep
hydra:
  sweep:
    dir: ${output_root}/multiruns  # error: PF575
# --- launch
python evaluate.py -m model.width=64,128
""",
]

GOOD_EXAMPLES = [
    # the fix: the group selected in this primary config too
    _FILES.format(primary="eval") + """\
# --- configs/eval.yaml
defaults:
  - _self_
  - model: net
  - paths: default
  - hydra: default

task_name: eval
ckpt_path: ???
# --- launch
python evaluate.py ckpt_path=/ckpts/last.ckpt
""",
    # tricky-correct: the key comes from a launch override, and only the run folder counts for a single run
    _FILES.format(primary="eval") + """\
# --- configs/eval.yaml
defaults:
  - _self_
  - model: net
  - hydra: default

task_name: eval
hydra:
  sweep:
    dir: ${output_root}/multiruns
# --- launch
python evaluate.py +paths.log_dir=/scratch/logs
""",
    # tricky-correct: the launch line sets the run folder itself
    _FILES.format(primary="eval") + """\
# --- configs/eval.yaml
defaults:
  - _self_
  - model: net
  - hydra: default

task_name: eval
# --- launch
python evaluate.py hydra.run.dir=/scratch/eval_run
""",
]

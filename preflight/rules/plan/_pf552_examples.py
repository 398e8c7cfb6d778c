"""PF552 examples: small projects (``# --- <path>`` sections); bad ones must fire on the
pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF552_BAD = [
    # hydra issue 1302: the run dir named by the job id, outside any sweep
    textwrap.dedent("""
    # --- train.py
    import hydra


    @hydra.main(version_base="1.1", config_path="conf", config_name="config")
    def main(cfg):
        print(cfg.lr)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    hydra:
      run:
        dir: ${hydra.runtime.cwd}/out/${hydra.job.id}  # error: PF552
    lr: 0.001
"""),
    # the sweep folder itself named by the job number: resolved before any job exists
    textwrap.dedent("""
    # --- train.py
    import hydra


    @hydra.main(version_base=None, config_path="conf", config_name="config")
    def main(cfg):
        print(cfg.lr)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    hydra:
      sweep:
        dir: multirun/${hydra:job.num}  # error: PF552
        subdir: ${hydra.job.override_dirname}
    lr: 0.001
    # --- launch
    python train.py -m lr=0.1,0.01
"""),
]

PF552_GOOD = [
    # the fix: a timestamped run dir; the job number in the per-job subdir
    textwrap.dedent("""
    # --- train.py
    import hydra


    @hydra.main(version_base="1.1", config_path="conf", config_name="config")
    def main(cfg):
        print(cfg.lr)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    hydra:
      run:
        dir: ${hydra.runtime.cwd}/out/${now:%Y-%m-%d_%H-%M-%S}
      sweep:
        dir: ${hydra.runtime.cwd}/multirun
        subdir: ${hydra.job.num}
    lr: 0.001
"""),
    # tricky: the run dir names the job id, but the job is only ever launched as a multirun
    textwrap.dedent("""
    # --- train.py
    import hydra


    @hydra.main(version_base=None, config_path="conf", config_name="config")
    def main(cfg):
        print(cfg.lr)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    hydra:
      run:
        dir: out/${hydra.job.id}
      sweep:
        dir: multirun
        subdir: ${hydra.job.id}
    lr: 0.001
    # --- launch
    python train.py --multirun lr=0.1,0.01
"""),
    # tricky: hydra.job.name exists in every run
    textwrap.dedent("""
    # --- train.py
    import hydra


    @hydra.main(version_base=None, config_path="conf", config_name="config")
    def main(cfg):
        print(cfg.lr)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    hydra:
      run:
        dir: outputs/${hydra.job.name}/${now:%H-%M-%S}
    lr: 0.001
"""),
]

PF552_GOOD.append(
    # tricky (a real shape): the config gives hydra.job.id a value of its own, so the run dir resolves
    textwrap.dedent("""
    # --- train.py
    import hydra


    @hydra.main(version_base=None, config_path="config", config_name="train")
    def main(cfg):
        print(cfg.experiment_name)


    if __name__ == "__main__":
        main()
    # --- config/train.yaml
    experiment_name: dino
    hydra:
      job:
        id: ${now:%Y.%m.%d}-${now:%H-%M}
      run:
        dir: logs/${experiment_name}/${hydra.job.id}
"""))

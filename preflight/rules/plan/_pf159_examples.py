"""PF159 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- pipeline.py
    import hydra
    from omegaconf import DictConfig


    @hydra.main(version_base="1.2", config_path="configs", config_name="pipeline")
    def main(cfg: DictConfig) -> None:
        print(cfg.dataset.image, cfg.segmentation.method, cfg.paths.output_dir)


    if __name__ == "__main__":
        main()
    # --- configs/pipeline.yaml
    defaults:
      - paths: default
      - hydra: default
      - segmentation: cellpose
      - _self_

    dataset:
      image: ${{paths.data_dir}}/tile.tiff
    # --- configs/hydra/default.yaml
    run:
      dir: ${{paths.log_dir}}/runs/${{now:%Y-%m-%d}}_${{now:%H-%M-%S}}
    sweep:
      dir: ${{paths.log_dir}}/multiruns/${{now:%Y-%m-%d}}_${{now:%H-%M-%S}}
      subdir: ${{hydra.job.num}}
    # --- configs/segmentation/cellpose.yaml
    method: cellpose
    # --- configs/segmentation/watershed.yaml
    method: watershed
    # --- configs/paths/default.yaml
    root_dir: ${{oc.env:PROJECT_ROOT,.}}
    data_dir: ${{paths.root_dir}}/data
    log_dir: {log_dir}
    output_dir: ${{hydra:runtime.output_dir}}
""")

BAD_EXAMPLES = [
    # held-out-43, napari-sparrow issue 56 (configs/paths/default.yaml:3): log_dir from the runtime output dir, and
    # the sweep folder built from log_dir, run with -m
    _APP.format(log_dir="${hydra:runtime.output_dir}/../logs  # error: PF159") + """\
# --- launch
python pipeline.py segmentation=watershed -m
""",
    # through one more key: log_dir from run_root, run_root from the resolver
    _APP.format(log_dir="${paths.run_root}/logs\nrun_root: ${hydra:runtime.cwd}  # error: PF159") + """\
# --- launch
python pipeline.py --multirun segmentation=watershed,cellpose
""",
]

GOOD_EXAMPLES = [
    # the fix: log_dir from a static root; output_dir (read by the job only) keeps the resolver
    _APP.format(log_dir="${paths.root_dir}/logs") + """\
# --- launch
python pipeline.py segmentation=watershed -m
""",
    # tricky-correct: the same runtime log_dir in a single run (napari-sparrow issue 56: "the single run works";
    # the sweep folder is not resolved)
    _APP.format(log_dir="${hydra:runtime.output_dir}/../logs") + """\
# --- launch
python pipeline.py segmentation=watershed
""",
    # tricky-correct: a multirun whose launch line gives the sweep folder itself
    _APP.format(log_dir="${hydra:runtime.output_dir}/../logs") + """\
# --- launch
python pipeline.py -m segmentation=watershed,cellpose hydra.sweep.dir=multirun/seg
""",
]

"""Jobs that lack config files their Hydra defaults list names: composed without them
(adapters/hydra_partial.py), read by PF186, PF507 and PF595 only where the missing files cannot
set the value a rule reports."""

from __future__ import annotations

import shlex
import textwrap
from pathlib import Path

from preflight.plan_rules import build_files, check_plan_rule

_APP = textwrap.dedent("""
    import hydra
    from hydra.utils import instantiate


    @hydra.main(version_base=None, config_path="configs", config_name="train")
    def main(cfg):
        callbacks = [instantiate(cb) for cb in cfg.callback.values()]
        print(cfg.logger.video.num_videos, cfg.paths.output_dir, len(callbacks))


    if __name__ == "__main__":
        main()
""")

_BASE = "last_ckpt:\n  _target_: pytorch_lightning.callbacks.ModelCheckpoint\n  every_n_epochs: 1\n"


def _findings(tmp_path: Path, code: str, files: dict[str, str], launch: str = "") -> list[tuple[str, int]]:
    plan, project = build_files(files, shlex.split(launch), tmp_path / "a" / "job", strict=False)
    return [(f.path, f.span.line) for f in check_plan_rule(code, plan, project) if f.code == code]


def _train(defaults: list[str], body: str) -> str:
    return "defaults:\n" + "".join(f"  - {d}\n" for d in defaults) + "  - _self_\n\n" + body


_VIDEOS = "logger:\n  video:\n    num_videos: ${callback.render.nvids_to_save}\n"


def test_interpolation_reported_when_other_groups_are_missing(tmp_path: Path) -> None:
    # atnikos/sinc issue 6 as a partial job: data/, model/ are not in it; callback/base.yaml is, and lacks `render`
    files = {"train.py": _APP, "configs/callback/base.yaml": _BASE,
             "configs/train.yaml": _train(["data: babel-amass", "model: sinc", "callback: base"], _VIDEOS)}
    assert _findings(tmp_path, "PF186", files) == [("configs/train.yaml", 9)]
    # the corrected twin selects the option that defines `render`
    files["configs/callback/render.yaml"] = "defaults:\n  - base\n  - _self_\n\nrender:\n  nvids_to_save: 5\n"
    files["configs/train.yaml"] = _train(["data: babel-amass", "model: sinc", "callback: render"], _VIDEOS)
    assert _findings(tmp_path / "fix", "PF186", files) == []


def test_interpolation_silent_when_a_missing_file_may_define_it(tmp_path: Path) -> None:
    # the selected callback option itself is missing: it may define `render`
    files = {"train.py": _APP, "configs/callback/base.yaml": _BASE,
             "configs/train.yaml": _train(["data: babel-amass", "callback: render"], _VIDEOS)}
    assert _findings(tmp_path, "PF186", files) == []
    # an experiment option the job lacks may be `# @package _global_` and define anything
    files["configs/train.yaml"] = _train(["data: babel-amass", "callback: base", "experiment: sinc"], _VIDEOS)
    assert _findings(tmp_path / "exp", "PF186", files) == []
    files["configs/train.yaml"] = _train(["data: babel-amass", "callback: base"], _VIDEOS)
    assert _findings(tmp_path / "cli", "PF186", files, "python train.py experiment=sinc") == []


_MANDATORY = _train(["model: llama", "trainer: finetune"],
                    "task_name: ???\npaths:\n  output_dir: saves/${task_name}\n\nhydra:\n  run:\n    dir: ${paths.output_dir}\n")


def test_mandatory_value_reported_in_a_partial_job(tmp_path: Path) -> None:
    # locuslab/open-unlearning issue 61 / motional/nuplan-devkit issue 270: `???` in the run folder, not given
    files = {"train.py": _APP, "configs/train.yaml": _MANDATORY}
    assert _findings(tmp_path, "PF507", files, "python train.py trainer.lr=1e-5") == [("configs/train.yaml", 6)]
    assert _findings(tmp_path / "fix", "PF507", files, "python train.py task_name=tofu") == []


def test_mandatory_value_silent_when_a_missing_file_may_give_it(tmp_path: Path) -> None:
    files = {"train.py": _APP, "configs/train.yaml": _MANDATORY}
    # an experiment option the job lacks may set task_name
    assert _findings(tmp_path, "PF507", files, "python train.py experiment=tofu/default") == []
    # a `???` under the group of a missing option: that option may fill it
    files["configs/train.yaml"] = _train(["model: llama"], "model:\n  name: ???\n")
    assert _findings(tmp_path / "grp", "PF507", files) == []


_NOW_APP = textwrap.dedent("""
    import hydra
    import pytorch_lightning as pl


    @hydra.main(config_path="conf", config_name="config")
    def main(cfg):
        trainer = pl.Trainer(**cfg.trainer)
        trainer.fit(pl.LightningModule())


    if __name__ == "__main__":
        main()
""")


def test_now_run_dir_under_old_lightning_ddp_in_a_partial_job(tmp_path: Path) -> None:
    # Lightning-Universe/lightning-transformers issue 71: the dataset option is not in the job
    conf = ("defaults:\n  - dataset: nlp/emotion\n  - trainer: default\n\n"
            "hydra:\n  run:\n    dir: outputs/${now:%Y-%m-%d}/${now:%H-%M-%S}\n")
    files = {"train.py": _NOW_APP, "conf/config.yaml": conf, "requirements.txt": "pytorch-lightning==1.1.4\n",
             "conf/trainer/default.yaml": "gpus: 1\naccelerator: null\nmax_epochs: 3\n"}
    launch = "python train.py dataset=nlp/emotion trainer.gpus=4 trainer.accelerator=ddp"
    assert _findings(tmp_path, "PF595", files, launch) == [("conf/config.yaml", 7)]
    files["conf/config.yaml"] = conf.replace("${now:%Y-%m-%d}/${now:%H-%M-%S}", "run1")
    assert _findings(tmp_path / "fix", "PF595", files, launch) == []
    # the trainer option is what the job lacks: the Trainer's settings are unknown
    files["conf/config.yaml"] = conf
    del files["conf/trainer/default.yaml"]
    assert _findings(tmp_path / "t", "PF595", files, "python train.py trainer.gpus=4 trainer.accelerator=ddp") == []


def test_partial_job_still_reports_the_composition_error(tmp_path: Path) -> None:
    files = {"train.py": _APP, "configs/callback/base.yaml": _BASE,
             "configs/train.yaml": _train(["data: babel-amass", "callback: base"], _VIDEOS)}
    _plan, project = build_files(files, [], tmp_path / "a" / "job", strict=False)
    assert any("data/babel-amass" in e.message for e in project.errors)

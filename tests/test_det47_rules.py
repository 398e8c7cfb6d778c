"""Behaviours of PF257, PF258, PF526 (Hydra's own keys) and PF592 (compute_metrics) as a user sees them:
the launch script audited the way it is run, and the sweep grammar checked against hydra-core's own
override parser (issue 18, branch det47; programs written here)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from preflight.rules.plan.pf257_hydra_sweep_without_multirun import sweep_value


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def findings(cli, tmp_path: Path, *argv: str) -> list[tuple[str, str, int, str]]:
    result = cli(*argv, "--format", "json", "--no-cache", "--exit-zero", cwd=tmp_path)
    return [(f["code"], Path(f["path"]).name, f["line"], f["message"]) for f in json.loads(result.out)["findings"]]


APP = """\
    import hydra
    import torch


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg):
        model = torch.nn.Linear(8, 2)
        opt = torch.optim.AdamW(model.parameters(), lr=cfg.optim.lr, weight_decay=cfg.optim.weight_decay)
        print(opt, cfg.trainer.max_epochs)


    if __name__ == "__main__":
        main()
    """
CONFIG = """\
    optim:
      lr: 0.1
      weight_decay: 0.0
    trainer:
      max_epochs: 10
    """


def project(tmp_path: Path, launch: str) -> None:
    write(tmp_path, "train.py", APP)
    write(tmp_path, "conf/config.yaml", CONFIG)
    write(tmp_path, "sweep.sh", f"#!/bin/bash\n# learning-rate sweep\n{launch}\n")


def audit(cli, tmp_path: Path, code: str) -> list[tuple[str, str, int, str]]:
    return [f for f in findings(cli, tmp_path, "audit", "sweep.sh", "--select", code) if f[0] == code]


def test_a_comma_sweep_without_multirun_is_reported_on_the_launch_line(cli, tmp_path):
    project(tmp_path, "python train.py optim.lr=1e-3,3e-4,1e-4 trainer.max_epochs=100")
    found = audit(cli, tmp_path, "PF257")
    assert [(f[1], f[2]) for f in found] == [("sweep.sh", 3)]
    assert "--multirun" in found[0][3] and "optim.lr=1e-3,3e-4,1e-4" in found[0][3]


def test_the_same_sweep_under_multirun_is_silent(cli, tmp_path):
    project(tmp_path, "python train.py -m optim.lr=1e-3,3e-4,1e-4 trainer.max_epochs=100")
    assert audit(cli, tmp_path, "PF257") == []


def test_an_appended_misspelling_of_an_existing_key_is_reported(cli, tmp_path):
    project(tmp_path, "python train.py optim.lr=3e-4 +optim.weight_decy=0.1")
    found = audit(cli, tmp_path, "PF258")
    assert [(f[1], f[2]) for f in found] == [("sweep.sh", 3)]
    assert "weight_decay" in found[0][3]


def test_an_appended_new_key_is_silent(cli, tmp_path):
    project(tmp_path, "python train.py +optim.momentum=0.9 +trainer.max_steps=1000")
    assert audit(cli, tmp_path, "PF258") == []


def test_a_misspelled_key_of_hydras_own_config_is_an_error_naming_the_key_meant(cli, tmp_path):
    project(tmp_path, "python train.py --multirun hydra.ouput_subdir=null optim.lr=1e-4,3e-4")
    found = audit(cli, tmp_path, "PF526")
    assert [(f[1], f[2]) for f in found] == [("sweep.sh", 3)]
    assert "`output_subdir` was probably meant" in found[0][3]
    project(tmp_path, "python train.py --multirun hydra.output_subdir=null optim.lr=1e-4,3e-4")
    assert audit(cli, tmp_path, "PF526") == []


METRICS = """\
    import numpy as np
    from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

    model = AutoModelForSequenceClassification.from_pretrained("roberta-base", num_labels=3, {extra})


    def compute_metrics(eval_pred):
        logits, labels = eval_pred
        return {{"accuracy": float((np.argmax(logits, axis=-1) == labels).mean())}}


    trainer = Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=train, eval_dataset=val,
                      compute_metrics=compute_metrics)
    """


def test_compute_metrics_argmax_of_a_tuple_is_reported_only_when_the_model_returns_one(cli, tmp_path):
    write(tmp_path, "train.py", METRICS.format(extra="output_hidden_states=True"))
    found = [f for f in findings(cli, tmp_path, "check", ".", "--select", "PF592") if f[0] == "PF592"]
    assert [(f[1], f[2]) for f in found] == [("train.py", 9)]
    write(tmp_path, "train.py", METRICS.format(extra="problem_type='single_label_classification'"))
    assert [f for f in findings(cli, tmp_path, "check", ".", "--select", "PF592") if f[0] == "PF592"] == []


VALUES = ["1e-3,3e-4", "resnet18,resnet50", "choice(1,2)", "range(0,10,2)", "[1,2]", "'a,b'", "a\\,b",
          "${oc.env:DATA,/data}", "{a:1,b:2}", "[1,2],[3,4]", "0.1", "str(1)", "glob(*)", "\"x,y\""]


@pytest.mark.parametrize("value", VALUES)
def test_sweep_grammar_agrees_with_hydra_core(value):
    parser = pytest.importorskip("hydra.core.override_parser.overrides_parser")
    hydra_says = parser.OverridesParser.create().parse_override(f"key={value}").is_sweep_override()
    assert (sweep_value(value) is not None) == hydra_says


EXPERIMENT = """\
    # @package _global_
    defaults:
      - {entry}
    seed: 0
    """


def test_a_group_selected_again_without_override_is_reported_in_the_config_that_does_it(cli, tmp_path):
    write(tmp_path, "train.py", APP)
    write(tmp_path, "conf/config.yaml", "defaults:\n  - data: all\n  - _self_\n" + textwrap.dedent(CONFIG))
    write(tmp_path, "conf/data/all.yaml", "name: all\n")
    write(tmp_path, "conf/data/small.yaml", "name: small\n")
    write(tmp_path, "conf/experiment/ci.yaml", EXPERIMENT.format(entry="/data: small"))
    write(tmp_path, "ci.sh", "#!/bin/bash\npython train.py +experiment=ci\n")
    found = [f for f in findings(cli, tmp_path, "audit", "ci.sh", "--select", "PF216") if f[0] == "PF216"]
    assert [(f[1], f[2]) for f in found] == [("ci.yaml", 3)]
    assert "override /data: small" in found[0][3]
    write(tmp_path, "conf/experiment/ci.yaml", EXPERIMENT.format(entry="override /data: small"))
    assert [f for f in findings(cli, tmp_path, "audit", "ci.sh", "--select", "PF216") if f[0] == "PF216"] == []


def test_primary_placeholders_replacing_the_option_the_launch_selects_are_reported(cli, tmp_path):
    write(tmp_path, "train.py", APP)
    write(tmp_path, "conf/config.yaml", "defaults:\n  - optim: adam\n" + textwrap.dedent(CONFIG))
    write(tmp_path, "conf/optim/adam.yaml", "lr: 0.1\nweight_decay: 0.0\n")
    write(tmp_path, "conf/optim/sgd.yaml", "lr: 0.5\nweight_decay: 0.0001\n")
    write(tmp_path, "sweep.sh", "#!/bin/bash\npython train.py optim=sgd\n")
    found = audit(cli, tmp_path, "PF259")
    assert [(f[1], f[2]) for f in found] == [("config.yaml", 1)]
    assert "`optim=sgd`" in found[0][3] and "_self_" in found[0][3]
    write(tmp_path, "conf/config.yaml", "defaults:\n  - _self_\n  - optim: adam\n" + textwrap.dedent(CONFIG))
    assert audit(cli, tmp_path, "PF259") == []

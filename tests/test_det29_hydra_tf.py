"""Behaviours closed while reading the hydra and transformers misses of the bug benchmark's sets
(issue 18, branch det29; every set is in-sample for these). The rules' own examples are pinned by the
meta-tests; these run the CLI the way a user does (programs written here)."""

from __future__ import annotations

import json
from pathlib import Path

from cli_check_helpers import check, write


def audit(cli, tmp_path: Path, *args: str) -> dict:
    """``args``: the script, options, then ``--`` and the launch line."""
    cut = args.index("--") if "--" in args else len(args)
    result = cli("audit", *args[:cut], "--format", "json", "--no-cache", "--exit-zero", *args[cut:], cwd=tmp_path)
    return json.loads(result.out)


def found(doc: dict, code: str) -> list[tuple[str, int]]:
    return [(f["path"], f["line"]) for f in doc["findings"] if f["code"] == code]


def errors(doc: dict) -> list[str]:
    return [json.dumps(e) for e in doc.get("errors", [])]


APP = """\
    import hydra
    from omegaconf import DictConfig


    @hydra.main(version_base=None, config_path="conf", config_name="config")
    def main(cfg: DictConfig) -> None:
        print(cfg.opt.lr)


    if __name__ == "__main__":
        main()
    """


def _splatter(tmp_path: Path, entry: str) -> None:
    write(tmp_path, "train.py", APP)
    write(tmp_path, "conf/config.yaml", f"defaults:\n  - {entry}\n  - _self_\n\nseed: 0\n")
    write(tmp_path, "conf/opt/base.yaml", "lr: 0.1\n")


def test_a_missing_option_of_a_local_group_is_a_finding_at_its_defaults_entry(cli, tmp_path):
    _splatter(tmp_path, "opt: small")
    doc = audit(cli, tmp_path, "train.py", "--config", "conf", "--", "python", "train.py")
    assert found(doc, "PF216") == [("conf/config.yaml", 2)]
    assert not any("not composed" in e for e in errors(doc))  # reported once, as the finding


def test_a_configstore_in_the_project_keeps_the_missing_option_an_unread_input(cli, tmp_path):
    # the node is built by a call preflight does not read: the option stays an input not read, not PF216
    _splatter(tmp_path, "opt: small")
    write(tmp_path, "store.py", "from hydra.core.config_store import ConfigStore\n\n"
                                "ConfigStore.instance().store(group='opt', name='small', node=make_node())\n")
    doc = audit(cli, tmp_path, "train.py", "--config", "conf", "--", "python", "train.py")
    assert found(doc, "PF216") == []
    assert any("not composed" in e for e in errors(doc))


def test_a_configstore_entry_read_statically_composes(cli, tmp_path):
    # jobs85: a literal (or dataclass) node of the project's ConfigStore is read, never imported, and composed
    _splatter(tmp_path, "opt: small")
    write(tmp_path, "store.py", "from hydra.core.config_store import ConfigStore\n\n"
                                "ConfigStore.instance().store(group='opt', name='small', node={'lr': 1})\n")
    doc = audit(cli, tmp_path, "train.py", "--config", "conf", "--", "python", "train.py")
    assert found(doc, "PF216") == []
    assert not any("not composed" in e for e in errors(doc))


def test_a_missing_hydra_subgroup_option_is_left_to_the_plugins(cli, tmp_path):
    _splatter(tmp_path, "override hydra/launcher: submitit_slurm")
    doc = audit(cli, tmp_path, "train.py", "--config", "conf", "--", "python", "train.py")
    assert found(doc, "PF216") == []


MANDATORY = """\
    import hydra
    from omegaconf import DictConfig


    @hydra.main(version_base=None, config_path="conf", config_name="config")
    def main(cfg: DictConfig) -> None:
        print(cfg.model)


    if __name__ == "__main__":
        main()
    """


def _mandatory(tmp_path: Path) -> None:
    write(tmp_path, "train.py", MANDATORY)
    write(tmp_path, "conf/config.yaml", "defaults:\n  - model: ???\n  - _self_\n")
    write(tmp_path, "conf/model/a.yaml", "width: 1\n")
    write(tmp_path, "conf/model/b.yaml", "width: 2\n")


def test_an_unselected_mandatory_group_under_a_known_launch_is_a_finding(cli, tmp_path):
    _mandatory(tmp_path)
    write(tmp_path, "launch.sh", "#!/bin/bash\npython train.py seed=1\n")
    doc = audit(cli, tmp_path, "train.py", "--config", "conf", "--", "python", "train.py", "+seed=1")
    assert [p for p, _ in found(doc, "PF216")] == ["train.py"]


def test_an_unselected_mandatory_group_without_a_launch_line_is_the_user_s_choice(cli, tmp_path):
    _mandatory(tmp_path)
    doc = audit(cli, tmp_path, "train.py", "--config", "conf")
    assert found(doc, "PF216") == []


def test_a_selected_mandatory_group_composes(cli, tmp_path):
    _mandatory(tmp_path)
    doc = audit(cli, tmp_path, "train.py", "--config", "conf", "--", "python", "train.py", "model=b")
    assert found(doc, "PF216") == []
    assert not any("not composed" in e for e in errors(doc))


DT_MODEL = """\
    import torch
    from transformers import PreTrainedModel


    class TrainableDT(PreTrainedModel):
        def forward(self, states, TARGET, rewards, timesteps, attention_mask):
            preds = self.predict(states, rewards, timesteps, attention_mask)
            return {"loss": torch.mean((preds - TARGET) ** 2), "logits": preds}
    """

DT_TRAIN = """\
    import numpy as np
    from transformers import Trainer, TrainingArguments

    from dt_model import TrainableDT


    def compute_metrics(eval_pred):
        preds, actions = eval_pred
        return {"action_mse": float(np.mean((preds - actions) ** 2))}


    model = TrainableDT(None)
    training_args = TrainingArguments(output_dir="out", eval_strategy="epoch", remove_unused_columns=False)
    trainer = Trainer(model=model, args=training_args, compute_metrics=compute_metrics)
    trainer.train()
    """


def test_a_model_class_imported_from_a_sibling_module_is_read_for_its_label_names(cli, tmp_path):
    write(tmp_path, "dt_model.py", DT_MODEL.replace("TARGET", "actions"))
    write(tmp_path, "train.py", DT_TRAIN)
    assert check(cli, tmp_path, "PF220") == [("train.py", 13)]


def test_a_sibling_model_whose_forward_takes_labels_is_silent(cli, tmp_path):
    write(tmp_path, "dt_model.py", DT_MODEL.replace("TARGET", "labels"))
    write(tmp_path, "train.py", DT_TRAIN)
    assert check(cli, tmp_path, "PF220") == []


def test_a_model_class_that_is_not_found_is_silent(cli, tmp_path):
    write(tmp_path, "train.py", DT_TRAIN)
    assert check(cli, tmp_path, "PF220") == []

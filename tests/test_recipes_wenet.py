"""WeNet-style training confs (issue 15): a small rewrite of our own with the shape of
FunAudioLLM/CosyVoice @ ace7c47 examples/libritts/cosyvoice2/conf/cosyvoice2.yaml (HyperPyYAML
`!new:` objects and a `train_conf` with optim/optim_conf/accum_grad) and wenet's top-level keys."""

from __future__ import annotations

from plan_helpers import plan_of, winner, write

TRAIN = """\
    import argparse
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", required=True)
    args = parser.parse_args()
    """

CONF = """\
    __set_seed1: !apply:random.seed [1986]
    llm: !new:mypkg.llm.LM
        hidden: 896
        encoder: !ref <encoder>
    train_conf:
        optim: adam
        optim_conf:
            lr: 1e-5
        scheduler: constantlr
        grad_clip: 5
        accum_grad: 2
    """


def test_train_conf_section(cli, tmp_path):
    write(tmp_path, {"train.py": TRAIN, "conf/model.yaml": CONF})
    plan = plan_of(cli, "train.py", "--", "--config", "conf/model.yaml", cwd=tmp_path)
    assert winner(plan, "batch.grad_accum") == 2
    assert winner(plan, "optimizer.name") == "Adam"


def test_top_level_keys_of_wenet(cli, tmp_path):
    conf = "accum_grad: 4\ngrad_clip: 5\noptim: adamw\noptim_conf:\n  lr: 0.001\n"
    write(tmp_path, {"train.py": TRAIN, "conf/model.yaml": conf})
    plan = plan_of(cli, "train.py", "--", "--config", "conf/model.yaml", cwd=tmp_path)
    assert winner(plan, "batch.grad_accum") == 4
    assert winner(plan, "optimizer.name") == "AdamW"


def test_partial_conf_or_unknown_optimizer_name_says_nothing(cli, tmp_path):
    # no accum_grad: not this toolkit's conf; an optimizer name outside adam/adamw/sgd stays unknown
    conf = CONF.replace("        accum_grad: 2\n", "")
    write(tmp_path, {"train.py": TRAIN, "conf/model.yaml": conf})
    plan = plan_of(cli, "train.py", "--", "--config", "conf/model.yaml", cwd=tmp_path)
    assert winner(plan, "optimizer.name") is None and winner(plan, "batch.grad_accum") is None
    write(tmp_path, {"conf/model.yaml": CONF.replace("optim: adam", "optim: noam_fused")})
    plan = plan_of(cli, "train.py", "--", "--config", "conf/model.yaml", cwd=tmp_path)
    assert winner(plan, "optimizer.name") is None
    assert winner(plan, "batch.grad_accum") == 2

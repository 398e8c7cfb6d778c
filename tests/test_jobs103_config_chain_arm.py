"""Issue 15, branch jobs103: a local bound in each arm of an ``if/elif/else`` chain whose tests compare a key of
the job's config, then handed to ``autocast(dtype=..., enabled=...)``: the arm the config takes decides the
precision (adapters/config_object_chain_arm.py). Fixtures of our own copying real shapes, with twins that must
stay unknown.
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

# facebookresearch/jepa @ 51c59d5 app/vjepa/train.py:76-86,453 (the same in facebookresearch/vjepa2
# app/vjepa/train.py:69-79,453): ``which_dtype = cfgs_meta.get('dtype')``, an if/elif/else chain binding
# ``dtype`` and ``mixed_precision``, then ``torch.cuda.amp.autocast(dtype=dtype, enabled=mixed_precision)``.
_TRAIN = """\
    import argparse
    import torch
    import yaml

    parser = argparse.ArgumentParser()
    parser.add_argument("--fname", type=str, default="cfg.yaml")


    def main(args):
        cfgs_meta = args.get("meta")
        which_dtype = cfgs_meta.get("dtype")
        if which_dtype.lower() == "bfloat16":
            dtype = torch.bfloat16
            mixed_precision = True
        elif which_dtype.lower() == "float16":
            dtype = torch.float16
            mixed_precision = True
        else:
            dtype = torch.float32
            mixed_precision = False
        model = torch.nn.Linear(4, 4).cuda()
        opt = torch.optim.AdamW(model.parameters())
        for x in range(10):
            with torch.cuda.amp.autocast(dtype=dtype, enabled=mixed_precision):
                loss = model(torch.randn(2, 4).cuda()).sum()
            loss.backward()
            opt.step()
            opt.zero_grad()


    if __name__ == "__main__":
        cli = parser.parse_args()
        with open(cli.fname, "r") as y_file:
            params = yaml.load(y_file, Loader=yaml.FullLoader)
        main(params)
"""


def _plan(cli, tmp_path, dtype: str, train: str = _TRAIN) -> dict:
    write(tmp_path, {"train.py": train, "cfg.yaml": f"meta:\n  seed: 0\n  dtype: {dtype}\n"})
    return plan_of(cli, "train.py", "--", "--fname", "cfg.yaml", cwd=tmp_path)


def test_bf16_arm_of_a_config_keyed_chain_runs_bf16_autocast(cli, tmp_path):
    got = fact(_plan(cli, tmp_path, "bfloat16"), "precision.mode")
    assert got is not None and got.value == "amp_bf16", got
    assert (got.source.path, got.source.line, got.source.key) == ("cfg.yaml", 3, "params.meta.dtype"), got.source


def test_fp16_arm_runs_fp16_autocast(cli, tmp_path):
    got = fact(_plan(cli, tmp_path, "float16"), "precision.mode")
    assert got is not None and got.value == "amp_fp16", got


def test_twin_float32_arm_gives_no_autocast_fact(cli, tmp_path):
    # the ``else`` arm: ``enabled=False``, so no mixed precision is claimed
    got = fact(_plan(cli, tmp_path, "float32"), "precision.mode")
    assert got is None or not got.value.startswith("amp"), got


def test_twin_name_also_bound_outside_the_chain_stays_unknown(cli, tmp_path):
    # a later rebinding of the switch (``mixed_precision = use_amp`` from elsewhere): the chain's arm is no fact
    train = _TRAIN.replace("        model = torch.nn.Linear(4, 4).cuda()\n",
                           "        mixed_precision = cfgs_meta.get('amp_flag_not_in_yaml')\n"
                           "        model = torch.nn.Linear(4, 4).cuda()\n")
    assert train != _TRAIN
    got = fact(_plan(cli, tmp_path, "bfloat16", train), "precision.mode")
    assert got is None or got.value != "amp_bf16", got


def test_twin_chain_without_else_stays_unknown(cli, tmp_path):
    # no ``else``: a value the chain does not list leaves the names as they were before it
    train = _TRAIN.replace("        else:\n            dtype = torch.float32\n            mixed_precision = False\n",
                           "")
    assert train != _TRAIN
    got = fact(_plan(cli, tmp_path, "bfloat16", train), "precision.mode")
    assert got is None or got.value != "amp_bf16", got

"""A DeepSpeed JSON the script loads itself (``with open(args.ds_file) as fh: ds_config =
json.load(fh)``) and hands to ``deepspeed.initialize(config=ds_config)``: ChatGLM-Finetuning's
train.py, held-out-20's ZeRO-3 rows (est40). Before, the plan had no ZeRO stage for that job and
``preflight estimate`` charged DDP: a 141.6 GiB false out-of-memory on A40s for a job that ran."""

from __future__ import annotations

import json
import textwrap

from plan_helpers import winner

TRAIN = textwrap.dedent("""\
    import argparse
    import json
    import deepspeed
    import torch
    from transformers import AutoModel


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--per_device_train_batch_size", type=int, default=16)
        parser.add_argument("--gradient_accumulation_steps", type=int, default=1)
        parser.add_argument("--learning_rate", type=float, default=1e-3)
        parser.add_argument("--ds_file", type=str, default="ds_zero2.json")
        args = parser.parse_args()
        with open(args.ds_file, "r", encoding="utf-8") as fh:
            ds_config = json.load(fh)
        ds_config['train_micro_batch_size_per_gpu'] = args.per_device_train_batch_size
        ds_config['train_batch_size'] = args.per_device_train_batch_size * torch.distributed.get_world_size() \\
            * args.gradient_accumulation_steps
        ds_config['gradient_accumulation_steps'] = args.gradient_accumulation_steps
        ds_config["optimizer"]["params"]["lr"] = args.learning_rate
        model = AutoModel.from_pretrained("THUDM/chatglm-6b")
        model, optimizer, _, lr_scheduler = deepspeed.initialize(model=model, args=args, config=ds_config)


    if __name__ == "__main__":
        main()
    """)

ZERO3_OFFLOAD = {
    "train_batch_size": 32, "train_micro_batch_size_per_gpu": 4,
    "zero_optimization": {"stage": 3, "offload_param": {"device": "cpu"}, "offload_optimizer": {"device": "cpu"}},
    "fp16": {"enabled": True, "loss_scale": 0},
    "optimizer": {"type": "AdamW", "params": {"lr": "auto", "betas": "auto", "eps": "auto"}},
}


def _job(tmp_path, train=TRAIN, launch="--ds_file ds_zero3_offload.json"):
    (tmp_path / "train.py").write_text(train, encoding="utf-8")
    (tmp_path / "ds_zero3_offload.json").write_text(json.dumps(ZERO3_OFFLOAD, indent=2), encoding="utf-8")
    (tmp_path / "run.sh").write_text(
        "deepspeed --include localhost:0,1,2,3 train.py --per_device_train_batch_size 1 "
        f"--gradient_accumulation_steps 4 --learning_rate 1e-4 {launch}\n", encoding="utf-8")


def test_the_json_the_script_loads_is_the_deepspeed_config(cli, tmp_path):
    _job(tmp_path)
    res = cli("audit", "run.sh", "--emit-plan", "json", cwd=tmp_path)
    assert res.code == 0, res.err
    plan = json.loads(res.out)
    assert winner(plan, "dist.sharding") == "zero3"
    assert winner(plan, "dist.offload_params") == "cpu"
    assert winner(plan, "dist.offload_optimizer") == "cpu"
    assert winner(plan, "precision.mode") == "fp16"
    # the script sets the micro batch from its option (1) over the file's 4: no conflict
    assert winner(plan, "batch.micro") == 1
    assert not [f for f in plan["fields"].get("batch.micro", []) if f["value"] == 4]
    assert winner(plan, "model.load_placement") == "gpu"


def test_the_estimate_is_zero3_with_offload_not_ddp(cli, tmp_path):
    _job(tmp_path)
    res = cli("estimate", "run.sh", "--params", "6.17B", "--seq-len", "1560", "--gpu", "a40", "--format", "json",
              cwd=tmp_path)
    assert res.code == 0, res.err
    doc = json.loads(res.out)
    # ZeRO-3 with parameter offload on a model built outside zero.Init: the whole fp16 model at load
    # (2 bytes x 6.17B) is more than any phase of the step allocates; DDP would hold weights,
    # gradients and Adam states on each GPU. (The step's reserved peak may pass it by the reduce
    # stream's cached blocks, est72's ``stream_cache``.)
    load = sum(doc["phases"]["load"].values())
    assert all(sum(v for t, v in terms.items() if t != "stream_cache") < load
               for phase, terms in doc["phases"].items() if phase != "load")
    assert abs(doc["phases"]["load"]["weights"] - 6.17e9 * 2) < 0.02 * 6.17e9 * 2
    assert doc["verdict"] == "fits"


def test_json_load_of_open_in_one_call(cli, tmp_path):
    train = TRAIN.replace('''        with open(args.ds_file, "r", encoding="utf-8") as fh:
            ds_config = json.load(fh)''', '''        ds_config = json.load(open(args.ds_file))''')
    _job(tmp_path, train=train)
    plan = json.loads(cli("audit", "run.sh", "--emit-plan", "json", cwd=tmp_path).out)
    assert winner(plan, "dist.sharding") == "zero3"


def test_twins_path_not_known_or_not_a_deepspeed_file(cli, tmp_path):
    # the launch line does not name the file and the declared default does not exist: nothing read
    _job(tmp_path, launch="")
    plan = json.loads(cli("audit", "run.sh", "--emit-plan", "json", cwd=tmp_path).out)
    assert winner(plan, "dist.sharding") != "zero3"
    # a JSON that is not a DeepSpeed config
    (tmp_path / "other.json").write_text(json.dumps({"lr": 1e-4}), encoding="utf-8")
    _job(tmp_path, launch="--ds_file other.json")
    plan = json.loads(cli("audit", "run.sh", "--emit-plan", "json", cwd=tmp_path).out)
    assert winner(plan, "dist.sharding") != "zero3"

"""A YAML dict wrapped by a project class that makes it its attribute dict, and the FSDP arm the
config's values take (adapters/config_object_roots.py ``_dict_as_attributes``,
adapters/config_object_arms.py). Fixture of our own, rewriting the shape of
facebookresearch/coconut run.py:40-58,180-190,279-286 (``config_dict = yaml.safe_load(f)``,
``configs = Config(config_dict)``, ``if configs.only_eval: DDP(...) else: FSDP(model,
auto_wrap_policy=...)``, ``DataLoader(batch_size=configs.batch_size_training, sampler=
DistributedSampler(...))``) and utils.py:8-11 (``self.__dict__ = dictionary``), with twins."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

RUN = """\
    import argparse
    import torch
    import yaml
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data.distributed import DistributedSampler
    from utils import Config

    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("config_file")
        args = parser.parse_args()
        with open(args.config_file) as f:
            config_dict = yaml.safe_load(f)
        configs = Config(config_dict)
        model = torch.nn.Linear(4, 4)
        if configs.only_eval:
            parallel_model = DDP(model)
        else:
            parallel_model = FSDP(model, device_id=0)
        loader = torch.utils.data.DataLoader(range(100), batch_size=configs.batch_size_training,
                                             sampler=DistributedSampler(range(100)))
        optimizer = torch.optim.AdamW(parallel_model.parameters(), lr=configs.lr)
        for batch in loader:
            loss = parallel_model(batch).sum()
            loss.backward()
            optimizer.step()

    if __name__ == "__main__":
        main()
"""
UTILS = """\
    class Config:
        # to access a dict with object.key
        def __init__(self, dictionary):
            self.__dict__ = dictionary
"""
YAML = """\
    only_eval: False
    batch_size_training: 32
    lr: 0.0001
"""


def test_dict_made_the_attribute_dict_is_read(cli, tmp_path):
    write(tmp_path, {"run.py": RUN, "utils.py": UTILS, "args/cot.yaml": YAML})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "4", "run.py", "args/cot.yaml", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert (micro.value, micro.source.path, micro.source.line) == (32, "args/cot.yaml", 2)
    sharding = fact(plan, "dist.sharding")
    assert (sharding.value, sharding.source.path) == ("fsdp_full", "args/cot.yaml")


def test_the_other_arm_gives_ddp(cli, tmp_path):
    write(tmp_path, {"run.py": RUN, "utils.py": UTILS, "args/cot.yaml": YAML.replace("only_eval: False",
                                                                                    "only_eval: True")})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "4", "run.py", "args/cot.yaml", cwd=tmp_path)
    assert fact(plan, "dist.sharding").value == "ddp"


def test_a_class_that_computes_attributes_is_not_a_dict_wrapper(cli, tmp_path):
    utils = UTILS.replace("self.__dict__ = dictionary",
                          "self.__dict__ = dictionary\n            self.batch_size_training = 1")
    write(tmp_path, {"run.py": RUN, "utils.py": utils, "args/cot.yaml": YAML})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "4", "run.py", "args/cot.yaml", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 32

"""``python train.py`` of a TrainingArguments subclass that copies ``_setup_devices`` (a process group
only for a ``local_rank`` other than -1) and a Trainer subclass with the hyperparameter-search method's
``from ray import tune`` (issue 15, set 32: voidism/DiffCSE ``train.py:200-247``, ``diffcse/trainers.py:206``;
the first reading took the indented ray import for a Ray driver and left world size and nodes open).
Twins: a real Ray driver; ``--local_rank`` given by a launcher."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

TRAIN = """\
    from dataclasses import dataclass
    import torch
    from transformers import AutoModelForCausalLM, HfArgumentParser, TrainingArguments
    from mytrainers import CLTrainer


    @dataclass
    class OurTrainingArguments(TrainingArguments):
        @property
        def _setup_devices(self):
            if self.no_cuda:
                device = torch.device("cpu")
            elif self.local_rank == -1:
                device = torch.device("cuda:0")
            else:
                torch.distributed.init_process_group(backend="nccl")
                device = torch.device("cuda", self.local_rank)
            return device


    parser = HfArgumentParser((OurTrainingArguments,))
    (training_args,) = parser.parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    CLTrainer(model=model, args=training_args).train()
"""

TRAINERS = """\
    from transformers import Trainer


    class CLTrainer(Trainer):
        def _tune_save_checkpoint(self):
            from ray import tune
            return tune
"""


def test_one_process_despite_a_ray_import_in_a_method(cli, tmp_path):
    write(tmp_path, {"train.py": TRAIN, "mytrainers.py": TRAINERS})
    plan = plan_of(cli, "train.py", "--", "--output_dir", "o", cwd=tmp_path)
    world = fact(plan, "dist.world_size")
    assert (world.value, world.confidence) == (1, "medium")
    assert "--local_rank is given" in world.source.detail
    assert fact(plan, "dist.nodes").value == 1


def test_twin_a_ray_driver_is_not_one_process(cli, tmp_path):
    driver = TRAINERS.replace("    from transformers import Trainer\n", "    import ray\n    from transformers import Trainer\n")
    write(tmp_path, {"train.py": TRAIN, "mytrainers.py": driver})
    plan = plan_of(cli, "train.py", "--", "--output_dir", "o", cwd=tmp_path)
    world = fact(plan, "dist.world_size")
    assert world is None or world.value != 1


def test_twin_local_rank_on_the_line_is_not_one_process(cli, tmp_path):
    write(tmp_path, {"train.py": TRAIN, "mytrainers.py": TRAINERS})
    plan = plan_of(cli, "train.py", "--", "--output_dir", "o", "--local_rank", "0", cwd=tmp_path)
    world = fact(plan, "dist.world_size")
    assert world is None or world.value != 1

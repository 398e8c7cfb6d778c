"""draccus ChoiceRegistry configs picked on the command line (issue 15): a small rewrite of our own
with the shape of TRI-ML/prismatic-vlms @ 874c5bb scripts/pretrain.py (@draccus.wrap() over a
PretrainConfig whose `model` is ModelConfig.get_choice_class(ModelRegistry.X.model_id)) and
prismatic/conf/models.py (variants by inheritance, registered by model_id)."""

from __future__ import annotations

from plan_helpers import fact, plan_of, winner, write

MODELS = """\
    from dataclasses import dataclass
    from enum import Enum, unique
    from draccus import ChoiceRegistry

    @dataclass
    class ModelConfig(ChoiceRegistry):
        model_id: str
        llm_max_length: int
        align_global_batch_size: int
        align_per_device_batch_size: int
        align_train_strategy: str
        finetune_global_batch_size: int
        finetune_per_device_batch_size: int
        finetune_train_strategy: str
        enable_gradient_checkpointing: bool = True
        enable_mixed_precision_training: bool = True

    @dataclass
    class Base7B(ModelConfig):
        model_id: str = "base+7b"
        llm_max_length: int = 2048
        align_global_batch_size: int = 256
        align_per_device_batch_size: int = 16
        align_train_strategy: str = "fsdp-shard-grad-op"
        finetune_global_batch_size: int = 128
        finetune_per_device_batch_size: int = 16
        finetune_train_strategy: str = "fsdp-full-shard"

    @dataclass
    class OneStage7B(Base7B):
        model_id: str = "one-stage+7b"
        finetune_per_device_batch_size: int = 8

    @dataclass
    class Default7B(OneStage7B):
        model_id: str = "default+7b"
        llm_max_length: int = 4096

    @unique
    class ModelRegistry(Enum):
        BASE_7B = Base7B
        ONE_STAGE_7B = OneStage7B
        DEFAULT_7B = Default7B

        @property
        def model_id(self) -> str:
            return self.value.model_id

    for variant in ModelRegistry:
        ModelConfig.register_subclass(variant.model_id, variant.value)
    """

PRETRAIN = """\
    from dataclasses import dataclass, field
    import draccus
    from proj.conf import ModelConfig, ModelRegistry

    @dataclass
    class PretrainConfig:
        model: ModelConfig = field(default_factory=ModelConfig.get_choice_class(ModelRegistry.DEFAULT_7B.model_id))
        stage: str = "finetune"

    @draccus.wrap()
    def pretrain(cfg: PretrainConfig) -> None:
        print(cfg)

    if __name__ == "__main__":
        pretrain()
    """


def project(tmp_path, pretrain=PRETRAIN):
    write(tmp_path, {"proj/__init__.py": "", "proj/conf/__init__.py": "from .models import ModelConfig, ModelRegistry\n",
                     "proj/conf/models.py": MODELS, "scripts/pretrain.py": pretrain})


def test_choice_on_the_command_line_with_inherited_values(cli, tmp_path):
    project(tmp_path)
    plan = plan_of(cli, "--", "torchrun", "--standalone", "--nnodes", "1", "--nproc-per-node", "8",
                   "scripts/pretrain.py", "--model.type", "one-stage+7b", "--model.llm_max_length", "1024",
                   cwd=tmp_path)
    assert winner(plan, "batch.micro") == 8  # OneStage7B's own value
    assert winner(plan, "batch.global") == 128  # inherited from Base7B
    assert winner(plan, "batch.grad_accum") == 2  # 128 // 8 // 8 processes
    assert winner(plan, "data.seq_len") == 1024  # --model.llm_max_length replaces it
    assert winner(plan, "dist.sharding") == "fsdp_full"  # HYBRID_SHARD inside one node
    assert winner(plan, "memory.gradient_checkpointing") is True
    assert winner(plan, "precision.mode") == "amp_bf16"
    assert fact(plan, "batch.micro").source.path.endswith("proj/conf/models.py")


def test_default_choice_and_the_align_stage(cli, tmp_path):
    project(tmp_path, PRETRAIN.replace('stage: str = "finetune"', 'stage: str = "align"'))
    plan = plan_of(cli, "--", "torchrun", "--standalone", "--nnodes", "1", "--nproc-per-node", "8",
                   "scripts/pretrain.py", cwd=tmp_path)
    assert winner(plan, "data.seq_len") == 4096  # Default7B, the field's default choice
    assert winner(plan, "batch.micro") == 16 and winner(plan, "batch.global") == 256  # align_* keys
    assert winner(plan, "dist.sharding") == "fsdp_grad_op"
    plan = plan_of(cli, "--", "torchrun", "--nnodes", "2", "--nproc-per-node", "8", "scripts/pretrain.py",
                   "--stage", "finetune", cwd=tmp_path)
    assert winner(plan, "dist.sharding") == "fsdp_hybrid"  # HYBRID_SHARD over two nodes
    plan = plan_of(cli, "--", "torchrun", "--nproc-per-node", "8", "scripts/pretrain.py", "--stage", "finetune",
                   cwd=tmp_path)
    assert winner(plan, "dist.sharding") == "fsdp_full"  # torchrun's default: one node


def test_unknown_choice_or_no_draccus_entry_says_nothing(cli, tmp_path):
    project(tmp_path)
    plan = plan_of(cli, "--", "torchrun", "--standalone", "--nnodes", "1", "--nproc-per-node", "8",
                   "scripts/pretrain.py", "--model.type", "no-such+7b", cwd=tmp_path)
    assert winner(plan, "batch.micro") is None and winner(plan, "dist.sharding") != "fsdp_full"
    project(tmp_path, PRETRAIN.replace("    @draccus.wrap()\n", ""))
    plan = plan_of(cli, "--", "torchrun", "--standalone", "--nnodes", "1", "--nproc-per-node", "8",
                   "scripts/pretrain.py", cwd=tmp_path)
    assert winner(plan, "data.seq_len") is None

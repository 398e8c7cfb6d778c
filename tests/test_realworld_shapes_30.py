"""Shapes of the thirtieth held-out set's real jobs (issue 15), reproduced in minimal fixtures of
our own, each citing the repository, path and commit it copies the shape of."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, winner, write

# dandelionsllm/pandallm trainer_base_ds_mul.py:156-173,290 @ 4a47ecd4a033a8df86a88b7e71132cbfdc7f0823 and
# conf/llama/zh/llama_7b_zh_instruct_v1_0_ds.yaml: a hand-written DeepSpeed loop whose config is a section
# of the Hydra config, with ${} interpolations of top-level keys (and a top-level `fp16: True` that is the
# project's own key, not TrainingArguments')
PANDA_SCRIPT = """\
    import hydra
    import deepspeed
    import torch
    from omegaconf import DictConfig, OmegaConf


    def train(cfg, model):
        ds_config = cfg.ds_cfg
        ds_config.scheduler.params.warmup_num_steps = 10
        ds_config = OmegaConf.to_container(ds_config, resolve=True)
        model, optimizer, _, scheduler = deepspeed.initialize(model=model,
                                                              model_parameters=model.parameters(),
                                                              config=ds_config)
        return model


    @hydra.main(config_path="conf", config_name="config", version_base="1.2")
    def main(cfg: DictConfig):
        model = torch.nn.Linear(2, 2)
        train(cfg, model)


    if __name__ == "__main__":
        main()
"""

PANDA_YAML = """\
    per_gpu_train_batch_size: 4
    learning_rate: 1e-5
    gradient_accumulation_steps: 128
    num_train_epochs: 1
    output_dir: experiments/x
    fp16: True
    fp16_opt_level: O1

    ds_cfg:
      train_micro_batch_size_per_gpu: ${per_gpu_train_batch_size}
      gradient_accumulation_steps: ${gradient_accumulation_steps}
      optimizer:
        type: AdamW
        params:
          lr: ${learning_rate}
      scheduler:
        type: WarmupDecayLR
        params:
          total_num_steps:
          warmup_num_steps:
      bf16:
        enabled: ${fp16}
      zero_optimization:
        stage: 1
        contiguous_gradients: True
        overlap_comm: True
        reduce_bucket_size: 5e8
        allgather_bucket_size: 5e8
      steps_per_print: 1024
"""


def test_hydra_section_handed_to_deepspeed_initialize_is_the_deepspeed_config(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": PANDA_SCRIPT, "conf/config.yaml": PANDA_YAML})
    plan = plan_of(cli, "--", "deepspeed", "--include", "localhost:0,1,2,3", "train.py", cwd=tmp_path)
    assert winner(plan, "precision.mode") == "bf16"
    precision = fact(plan, "precision.mode")
    assert precision.source.path == "conf/config.yaml" and precision.source.line == 22
    assert winner(plan, "dist.sharding") == "zero1"
    assert winner(plan, "batch.micro") == 4
    assert winner(plan, "batch.grad_accum") == 128
    assert winner(plan, "optimizer.name") == "AdamW"
    assert winner(plan, "dist.reduce_bucket_size") == 500_000_000
    assert winner(plan, "dist.allgather_bucket_size") == 500_000_000
    assert winner(plan, "dist.overlap_comm") is True
    assert winner(plan, "dist.contiguous_gradients") is True
    assert winner(plan, "dist.offload_optimizer") == "none"
    # the project's own top-level `fp16: True` is not a TrainingArguments setting
    assert not any(f["value"] == "amp_fp16" for f in plan["fields"].get("precision.mode", []))


def test_hydra_section_not_handed_to_deepspeed_stays_silent(cli, tmp_path: Path) -> None:
    # the same config, but the script builds its engine from a JSON file: the section is not the config
    script = PANDA_SCRIPT.replace("config=ds_config)", 'config="ds.json")')
    write(tmp_path, {"train.py": script, "conf/config.yaml": PANDA_YAML.replace("stage: 1", "stage: 3")})
    plan = plan_of(cli, "--", "deepspeed", "--include", "localhost:0,1,2,3", "train.py", cwd=tmp_path)
    assert winner(plan, "dist.sharding") != "zero3"
    assert winner(plan, "dist.reduce_bucket_size") is None


def test_hydra_section_with_unresolvable_precision_is_not_fp32(cli, tmp_path: Path) -> None:
    # bf16.enabled from an environment variable: present but unknown, so not DeepSpeed's fp32 default
    yaml = PANDA_YAML.replace("enabled: ${fp16}", "enabled: ${oc.env:USE_BF16}")
    write(tmp_path, {"train.py": PANDA_SCRIPT, "conf/config.yaml": yaml})
    plan = plan_of(cli, "--", "deepspeed", "--include", "localhost:0,1,2,3", "train.py", cwd=tmp_path)
    facts = plan["fields"].get("precision.mode", [])
    assert not any(f["adapter"] == "deepspeed" or f["value"] == "amp_fp16" for f in facts)
    assert winner(plan, "dist.sharding") == "zero1"


# AGI-Edgerunners/LLM-Adapters finetune.py:29-43,196 @ 816657208af4db747803f87ba40a4c71383fed7a:
# `prepare_model_for_int8_training(model, use_gradient_checkpointing=use_gradient_checkpointing)` with the
# fire parameter's default False: the library's keyword default (True) does not apply
ADAPTERS = """\
    import fire
    import transformers
    from peft import LoraConfig, get_peft_model, prepare_model_for_int8_training
    from transformers import AutoModelForCausalLM


    def train(base_model: str = "", micro_batch_size: int = 4, use_gradient_checkpointing: bool = False):
        model = AutoModelForCausalLM.from_pretrained(base_model, load_in_8bit=False)
        model = prepare_model_for_int8_training(model, use_gradient_checkpointing=use_gradient_checkpointing)
        model = get_peft_model(model, LoraConfig(r=8))
        trainer = transformers.Trainer(
            model=model,
            args=transformers.TrainingArguments(per_device_train_batch_size=micro_batch_size, output_dir="out"),
        )
        trainer.train()


    if __name__ == "__main__":
        fire.Fire(train)
"""


def test_kbit_prepare_given_the_parameter_default_false_is_no_checkpointing(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune.py": ADAPTERS})
    plan = plan_of(cli, "--", "python", "finetune.py", "--base_model", "yahma/llama-7b-hf", cwd=tmp_path)
    assert winner(plan, "memory.gradient_checkpointing") is not True
    assert not any(f["value"] is True and f["confidence"] == "high"
                   for f in plan["fields"].get("memory.gradient_checkpointing", []))


def test_kbit_prepare_given_the_parameter_on_the_line_is_checkpointing(cli, tmp_path: Path) -> None:
    # the twin: the launch line turns the parameter on, so checkpointing is on
    write(tmp_path, {"finetune.py": ADAPTERS})
    plan = plan_of(cli, "--", "python", "finetune.py", "--base_model", "yahma/llama-7b-hf",
                   "--use_gradient_checkpointing", "True", cwd=tmp_path)
    assert winner(plan, "memory.gradient_checkpointing") is True


def test_kbit_prepare_without_the_keyword_is_checkpointing(cli, tmp_path: Path) -> None:
    # the library default applies when the keyword is not passed
    write(tmp_path, {"finetune.py": ADAPTERS.replace(
        "prepare_model_for_int8_training(model, use_gradient_checkpointing=use_gradient_checkpointing)",
        "prepare_model_for_int8_training(model)")})
    plan = plan_of(cli, "--", "python", "finetune.py", "--base_model", "yahma/llama-7b-hf", cwd=tmp_path)
    assert winner(plan, "memory.gradient_checkpointing") is True


# michael-wzhu/PromptCBLUE src/ft_chatglm_lora/main.py:129-132 @ b0753a61a7c1f4e1ae171109f8a59037ff0a5543: a load
# without a dtype chained with `.half().cuda()`: 16-bit weights, not transformers 4.x's fp32 default
CHATGLM = """\
    import torch
    from transformers import AutoModel, Seq2SeqTrainer, Seq2SeqTrainingArguments

    model = AutoModel.from_pretrained("THUDM/chatglm-6b", trust_remote_code=True).half().cuda()
    helper = torch.nn.Linear(2, 2).half()
    args = Seq2SeqTrainingArguments(output_dir="out", per_device_train_batch_size=8)
    trainer = Seq2SeqTrainer(model=model, args=args)
    trainer.train()
"""


def test_load_chained_with_half_is_16_bit_weights(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main.py": CHATGLM, "requirements.txt": "transformers==4.28.1\n"})
    plan = plan_of(cli, "--", "python", "main.py", cwd=tmp_path)
    assert winner(plan, "precision.weights_bits") == 16
    assert fact(plan, "precision.weights_bits").source.line == 4


def test_load_chained_with_cuda_only_keeps_the_fp32_default(cli, tmp_path: Path) -> None:
    # the twin: no cast on the loaded model (the helper's `.half()` is another module's)
    write(tmp_path, {"main.py": CHATGLM.replace(".half().cuda()", ".cuda()"), "requirements.txt": "transformers==4.28.1\n"})
    plan = plan_of(cli, "--", "python", "main.py", cwd=tmp_path)
    assert winner(plan, "precision.weights_bits") == 32

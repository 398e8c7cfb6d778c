"""PF542 examples (small projects): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # DeepSpeed issue 2022: a ZeRO-3 engine samples on two GPUs
    textwrap.dedent("""
    # --- main.py
    import deepspeed
    from transformers import T5ForConditionalGeneration

    model = T5ForConditionalGeneration.from_pretrained("t5-large")
    engine, optimizer, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                                   config="ds_config.json")
    gen = engine.generate(input_ids, max_length=128, do_sample=True)  # error: PF542
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 2, "zero_optimization": {"stage": 3}}
    # --- launch
    deepspeed --num_gpus 2 main.py
"""),
    # DeepSpeedExamples PR 636's shape: the engine's module, sampling options splatted from a dict
    # that does not hold synced_gpus
    textwrap.dedent("""
    # --- rlhf.py
    import deepspeed
    import torch


    def rollout(model, prompts):
        actor, _, _, _ = deepspeed.initialize(model=model, config="ds_z3.json")
        kwargs = dict(do_sample=True, top_k=15, top_p=0.8)
        with torch.no_grad():
            return actor.module.generate(prompts, max_length=512, **kwargs)  # error: PF542
    # --- ds_z3.json
    {"train_batch_size": 32, "zero_optimization": {"stage": 3}}
    # --- launch
    torchrun --nproc_per_node 8 rlhf.py
"""),
]

GOOD_EXAMPLES = [
    # the fix
    textwrap.dedent("""
    # --- main.py
    import deepspeed

    engine, optimizer, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                                   config="ds_config.json")
    gen = engine.generate(input_ids, max_length=128, do_sample=True, synced_gpus=True)
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 2, "zero_optimization": {"stage": 3}}
    # --- launch
    deepspeed --num_gpus 2 main.py
"""),
    # ZeRO-2: parameters are whole on every rank; and one process under ZeRO-3
    textwrap.dedent("""
    # --- main.py
    import deepspeed

    engine, optimizer, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                                   config="ds_config.json")
    gen = engine.generate(input_ids, max_length=128, do_sample=True)
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 2, "zero_optimization": {"stage": 2}}
    # --- launch
    deepspeed --num_gpus 2 main.py
"""),
    textwrap.dedent("""
    # --- main.py
    import deepspeed

    engine, optimizer, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                                   config="ds_config.json")
    gen = engine.generate(input_ids, max_length=128, do_sample=True)
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 2, "zero_optimization": {"stage": 3}}
    # --- launch
    deepspeed --num_gpus 1 main.py
"""),
    # HfDeepSpeedConfig registers the config: generate turns synced_gpus on by itself; and a
    # splatted dict that holds it
    textwrap.dedent("""
    # --- main.py
    import deepspeed
    from transformers.integrations import HfDeepSpeedConfig

    dschf = HfDeepSpeedConfig("ds_config.json")
    engine, optimizer, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                                   config="ds_config.json")
    gen = engine.generate(input_ids, max_length=128, do_sample=True)
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 2, "zero_optimization": {"stage": 3}}
    # --- launch
    deepspeed --num_gpus 2 main.py
"""),
    # a generate on another model in another function: `model` there is not the engine
    textwrap.dedent("""
    # --- main.py
    import deepspeed


    def evaluate(model, input_ids):
        return model.generate(input_ids, do_sample=False, max_length=100)


    def train(model):
        model, *_ = deepspeed.initialize(model=model, config="ds_config.json")
        return model
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 2, "zero_optimization": {"stage": 3}}
    # --- launch
    deepspeed --num_gpus 2 main.py
"""),
    textwrap.dedent("""
    # --- main.py
    import deepspeed


    def sample(model, prompts, z3):
        engine, _, _, _ = deepspeed.initialize(model=model, config="ds_config.json")
        kwargs = dict(do_sample=True, synced_gpus=z3)
        return engine.module.generate(prompts, **kwargs)
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 2, "zero_optimization": {"stage": 3}}
    # --- launch
    deepspeed --num_gpus 2 main.py
"""),
]

# an on-policy distillation loop: the engine is handed to a rollout helper in a project module, which
# generates from `engine.module` with the tokenizer's encoding splatted
BAD_EXAMPLES.append(textwrap.dedent("""
    # --- opsd/rollout.py
    import torch


    @torch.no_grad()
    def rollout(engine, tokenizer, prompts):
        model = engine.module
        enc = tokenizer(prompts, return_tensors="pt", padding=True).to(engine.device)
        out = model.generate(**enc, max_new_tokens=512, do_sample=True)  # error: PF542
        return enc["input_ids"], out
    # --- train.py
    import deepspeed

    from opsd.rollout import rollout


    def main(student, tokenizer, stream):
        engine, _, _, _ = deepspeed.initialize(model=student, model_parameters=student.parameters(),
                                               config="ds_config.json")
        for step in range(2000):
            prompt_ids, completions = rollout(engine, tokenizer, stream.next_batch(8))
            loss = engine(completions).loss
            engine.backward(loss)
            engine.step()


    if __name__ == "__main__":
        main()
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 8, "zero_optimization": {"stage": 3}}
    # --- launch
    deepspeed --num_gpus 8 train.py
"""))

GOOD_EXAMPLES += [
    # the fix of the helper: synced_gpus=True
    BAD_EXAMPLES[-1].replace("do_sample=True)  # error: PF542", "do_sample=True, synced_gpus=True)"),
    # tricky-correct: the helper generates from a separate reference model the caller passes, not the engine
    BAD_EXAMPLES[-1].replace("  # error: PF542", "").replace("rollout(engine, tokenizer, stream",
                                                           "rollout(reference, tokenizer, stream"),
]

# transformers issue 36638: a module-level script; each rank generates for its own prompts from the
# engine's module, with the tokenizer's encoding splatted (model inputs only, no synced_gpus)
_MODULE_LEVEL = textwrap.dedent("""
    # --- train.py
    import deepspeed
    import torch
    import torch.distributed as dist

    deepspeed.init_distributed()
    engine, optimizer, loader, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                                        training_data=dataset, config="ds_config.json")
    mine = prompts[dist.get_rank()::dist.get_world_size()]
    for i in range(0, len(mine), 8):
        inputs = tokenizer(mine[i:i + 8], return_tensors="pt", padding=True).to(engine.device)
        with torch.no_grad():
            out = engine.module.generate(**inputs, max_new_tokens=128, do_sample=True{extra}
    # --- ds_config.json
    {{"train_micro_batch_size_per_gpu": 4, "zero_optimization": {{"stage": 3}}}}
    # --- launch
    deepspeed --num_gpus 4 train.py
""")
BAD_EXAMPLES.append(_MODULE_LEVEL.format(extra=")  # error: PF542"))
GOOD_EXAMPLES += [
    # the fix
    _MODULE_LEVEL.format(extra=", synced_gpus=True)"),
    # tricky-correct: the module-level splat is a dict that may carry synced_gpus
    _MODULE_LEVEL.format(extra=")").replace(
        "    with torch.no_grad():", "    inputs = {**inputs, **gen_kwargs}\n    with torch.no_grad():"),
]

# transformers PR 22242: before 4.28 `generate()` did not read the ZeRO-3 state HfDeepSpeedConfig
# registers, so the registration alone leaves synced_gpus off
_HF_CONFIG = textwrap.dedent("""
    # --- requirements.txt
    transformers=={version}
    deepspeed==0.8.2
    # --- main.py
    import deepspeed
    from transformers.integrations import HfDeepSpeedConfig

    dschf = HfDeepSpeedConfig("ds_config.json")
    engine, optimizer, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                                   config="ds_config.json")
    gen = engine.module.generate(input_ids, max_new_tokens=128, num_beams=4){mark}
    # --- ds_config.json
    {{"train_micro_batch_size_per_gpu": 2, "zero_optimization": {{"stage": 3}}}}
    # --- launch
    deepspeed --num_gpus 2 main.py
""")
BAD_EXAMPLES.append(_HF_CONFIG.format(version="4.27.4", mark="  # error: PF542"))
GOOD_EXAMPLES.append(_HF_CONFIG.format(version="4.28.0", mark=""))

# transformers issue 22231: an RLHF rollout under `accelerate launch` with a DeepSpeed ZeRO-3 config; transformers
# pinned before 4.28 does not turn synced_gpus on from Accelerate's DeepSpeed state
_ACCELERATE = textwrap.dedent("""
    # --- requirements.txt
    transformers=={version}
    accelerate==0.17.1
    # --- train_rollout.py
    import torch
    from accelerate import Accelerator
    from transformers import AutoModelForCausalLM

    accelerator = Accelerator()
    policy = AutoModelForCausalLM.from_pretrained("EleutherAI/pythia-1.4b")
    optimizer = torch.optim.AdamW(policy.parameters(), lr=1e-6)
    policy, optimizer, loader = accelerator.prepare(policy, optimizer, loader)
    for batch in loader:
        with torch.no_grad():
            responses = accelerator.unwrap_model(policy).generate(input_ids=batch["input_ids"], do_sample=True{extra}){mark}
    # --- accelerate_ds_zero3.yaml
    distributed_type: DEEPSPEED
    deepspeed_config:
      zero3_init_flag: true
      zero_stage: {stage}
    num_machines: 1
    num_processes: 8
    # --- launch
    accelerate launch --config_file accelerate_ds_zero3.yaml train_rollout.py
""")
BAD_EXAMPLES.append(_ACCELERATE.format(version="4.27.1", extra="", stage=3, mark="  # error: PF542"))
GOOD_EXAMPLES += [
    # the fix: synced_gpus=True
    _ACCELERATE.format(version="4.27.1", extra=", synced_gpus=True", stage=3, mark=""),
    # tricky-correct: transformers 4.28 reads Accelerate's registered ZeRO-3 state and syncs by itself
    _ACCELERATE.format(version="4.28.0", extra="", stage=3, mark=""),
    # tricky-correct: ZeRO stage 2 does not shard parameters, ranks never wait on each other in generate
    _ACCELERATE.format(version="4.27.1", extra="", stage=2, mark=""),
]

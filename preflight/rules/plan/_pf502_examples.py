"""PF502 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF502_BAD = [
    textwrap.dedent("""
    # --- train.py
    import deepspeed
    engine, optimizer, _, _ = deepspeed.initialize(model=model, config="ds_config.json")
    # --- ds_config.json
    {
      "train_batch_size": 32,
      "train_micro_batch_size_per_gpu": 4,
      "gradient_accumulation_steps": 2,
      "zero_optimization": {"stage": 2}
    }
    # --- launch
    torchrun --nnodes 1 --nproc_per_node 8 train.py
    # --- expect
    ds_config.json:2: error: PF502
"""),
    # deepspeed --num_gpus 4 without --num_nodes: the world size is a multiple of 4, and
    # 40 is not a multiple of 4 x 2 x 4 = 32 for any node count
    textwrap.dedent("""
    # --- train.py
    import deepspeed
    engine, optimizer, _, _ = deepspeed.initialize(model=model, config="ds_config.json")
    # --- ds_config.json
    {"train_batch_size": 40, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2,
     "zero_optimization": {"stage": 2}}
    # --- launch
    deepspeed --num_gpus 4 train.py --deepspeed_config ds_config.json
    # --- expect
    ds_config.json:1: error: PF502
"""),
    # bigcode-project/starcoder issue 77: one GPU, no hostfile: 64 != 4 x 8 x 1 (warning:
    # it would hold on two nodes of a hostfile)
    textwrap.dedent("""
    # --- train.py
    import deepspeed
    engine, optimizer, _, _ = deepspeed.initialize(model=model, config="ds_config.json")
    # --- ds_config.json
    {"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 8,
     "zero_optimization": {"stage": 3}}
    # --- launch
    deepspeed --num_gpus 1 train.py --deepspeed_config ds_config.json
    # --- expect
    ds_config.json:1: warning: PF502
"""),
    # no launch command: 30 is not a multiple of 4 x 2 for any world size
    """
# --- ds_config.json
{"train_batch_size": 30, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2,
 "zero_optimization": {"stage": 1}}
# --- expect
ds_config.json:1: error: PF502
""",
    # held-out-14 (trlx GPT-J reward model): the HF Trainer runs with a DeepSpeed config that fixes
    # train_batch_size 32 while its TrainingArguments give 1 x 1 x 4 processes
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(output_dir="rm", per_device_train_batch_size=1, gradient_accumulation_steps=1,
                             fp16=True, deepspeed="ds_config.json")
    Trainer(model=model, args=args, train_dataset=train_set).train()
    # --- ds_config.json
    {"train_batch_size": 32, "fp16": {"enabled": true}, "zero_optimization": {"stage": 2}}
    # --- launch
    torchrun --nproc_per_node 4 train.py
    # --- expect
    ds_config.json:1: error: PF502
"""),
]

PF502_GOOD = [
    textwrap.dedent("""
    # --- train.py
    import deepspeed
    engine, optimizer, _, _ = deepspeed.initialize(model=model, config="ds_config.json")
    # --- ds_config.json
    {
      "train_batch_size": 64,
      "train_micro_batch_size_per_gpu": 4,
      "gradient_accumulation_steps": 2,
      "zero_optimization": {"stage": 2}
    }
    # --- launch
    torchrun --nnodes 1 --nproc_per_node 8 train.py
"""),
    # deepspeed --num_gpus 4: 32 = 4 x 2 x 4 on one node
    textwrap.dedent("""
    # --- train.py
    import deepspeed
    engine, optimizer, _, _ = deepspeed.initialize(model=model, config="ds_config.json")
    # --- ds_config.json
    {"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2,
     "zero_optimization": {"stage": 2}}
    # --- launch
    deepspeed --num_gpus 4 train.py --deepspeed_config ds_config.json
"""),
    # a hostfile names the nodes: 64 = 4 x 2 x 4 x 2 holds on two of them
    textwrap.dedent("""
    # --- train.py
    import deepspeed
    engine, optimizer, _, _ = deepspeed.initialize(model=model, config="ds_config.json")
    # --- ds_config.json
    {"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2,
     "zero_optimization": {"stage": 2}}
    # --- launch
    deepspeed --hostfile hosts.txt --num_gpus 4 train.py --deepspeed_config ds_config.json
"""),
    # pipeline parallelism: 8 processes in 2 stages are 4 data-parallel ranks, 32 = 4 x 2 x 4
    textwrap.dedent("""
    # --- train.py
    import deepspeed
    from deepspeed.pipe import PipelineModule

    net = PipelineModule(layers=layers, num_stages=2)
    engine, _, _, _ = deepspeed.initialize(model=net, config="ds_config.json")
    # --- ds_config.json
    {"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2,
     "zero_optimization": {"stage": 1}}
    # --- launch
    torchrun --nproc_per_node 8 train.py
"""),
    # two of three given, the third derived; "auto" filled by the HF Trainer
    """
# --- ds_a.json
{"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 2}}
# --- ds_b.json
{"train_batch_size": "auto", "train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto",
 "zero_optimization": {"stage": 3}}
""",
    # the HF Trainer with the same product: 32 = 4 (per device) x 2 (accumulation) x 4 processes
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(output_dir="rm", per_device_train_batch_size=4, gradient_accumulation_steps=2,
                             fp16=True, deepspeed="ds_config.json")
    Trainer(model=model, args=args, train_dataset=train_set).train()
    # --- ds_config.json
    {"train_batch_size": 32, "fp16": {"enabled": true}, "zero_optimization": {"stage": 2}}
    # --- launch
    torchrun --nproc_per_node 4 train.py
"""),
]

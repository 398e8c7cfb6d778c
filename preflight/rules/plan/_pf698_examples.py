"""PF698 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command, ``# --- expect`` pins a finding on a line that cannot hold a comment); bad ones must fire at
the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# OpenRLHF issue 157's shape: reward scoring launched with --pretrain at the --ckpt_path folder of training
_INFER = dedent("""
    # --- batch_inference.py
    import argparse

    import deepspeed
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    p = argparse.ArgumentParser()
    p.add_argument("--pretrain", required=True)
    p.add_argument("--local_rank", type=int, default=-1)
    args = p.parse_args()
    deepspeed.init_distributed()
    tokenizer = AutoTokenizer.from_pretrained(args.pretrain)
    model = AutoModelForSequenceClassification.from_pretrained(args.pretrain, num_labels=1)
    engine = deepspeed.init_inference(model, dtype=torch.bfloat16){extra}
    # --- run.sh
    #!/bin/bash
    deepspeed --num_gpus 8 batch_inference.py \\
      --pretrain {path} \\
      --micro_batch_size 16
    # --- launch
    deepspeed --num_gpus 8 batch_inference.py --pretrain {path} --micro_batch_size 16
    """)

PF698_BAD = [
    _INFER.format(path="./ckpt/checkpoints_rm/global_step2000", extra="") + "# --- expect\nrun.sh:3: error: PF698\n",
    # a literal path in the code, the Trainer's checkpoint-N/global_stepN folder
    dedent("""
    # --- eval.py
    import torch
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("out/checkpoint-500/global_step500")  # error: PF698
    model.eval()
    # --- launch
    python eval.py
    """),
]

PF698_GOOD = [
    # the fix: the model saved to --save_path
    _INFER.format(path="./ckpt/rm", extra=""),
    # tricky: the Trainer's checkpoint folder (it holds the model files beside global_stepN)
    _INFER.format(path="./out/checkpoint-2000", extra=""),
    # tricky: the project converts the shards with DeepSpeed's helper first
    _INFER.format(path="./ckpt/checkpoints_rm/global_step2000",
                  extra="\nfrom deepspeed.utils.zero_to_fp32 import get_fp32_state_dict_from_zero_checkpoint"),
    # tricky: the step folder goes to DeepSpeed's own loader, the model comes from the hub
    dedent("""
    # --- train.py
    import argparse

    import deepspeed
    from transformers import AutoModelForCausalLM

    p = argparse.ArgumentParser()
    p.add_argument("--model", default="gpt2")
    p.add_argument("--resume_tag", default=None)
    p.add_argument("--local_rank", type=int, default=-1)
    args = p.parse_args()
    model = AutoModelForCausalLM.from_pretrained(args.model)
    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
    engine.load_checkpoint("ckpt", tag=args.resume_tag)
    # --- launch
    deepspeed train.py --model gpt2-medium --resume_tag global_step3000
    """),
    # tricky: a framework that exports a Hugging Face model under its step folder
    dedent("""
    # --- merge.py
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("checkpoints/global_step_100/actor/huggingface")
    model.save_pretrained("merged")
    # --- launch
    python merge.py
    """),
]

"""PF166 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # DeepSpeed issue 2923: a BLOOM fine-tuned in plain PyTorch, load_state_dict, then int8 kernel injection
    textwrap.dedent("""
    import deepspeed
    import torch


    def serve(model, path):
        ckpt = torch.load(path, map_location="cpu")
        model.load_state_dict(ckpt["model"])
        engine = deepspeed.init_inference(model, mp_size=1, dtype=torch.int8,  # warning: PF166
                                          replace_with_kernel_inject=True)
        return engine
"""),
    # DeepSpeed issue 2956: GPT-J from the hub through a pipeline, the settings in a literal config
    textwrap.dedent("""
    import deepspeed
    import torch
    from transformers import pipeline

    generator = pipeline("text-generation", model="EleutherAI/gpt-j-6B", device=0)
    generator.model = deepspeed.init_inference(  # warning: PF166
        generator.model,
        config={"tensor_parallel": {"tp_size": 1}, "dtype": torch.int8, "replace_with_kernel_inject": True},
    )
"""),
    # checkpoint=None is no checkpoint; the dtype as a string
    textwrap.dedent("""
    from deepspeed import init_inference

    engine = init_inference(model, dtype="int8", checkpoint=None, replace_with_kernel_inject=True)  # warning: PF166
"""),
]

GOOD_EXAMPLES = [
    # the fix: half precision with the injected kernels
    textwrap.dedent("""
    import deepspeed
    import torch

    engine = deepspeed.init_inference(model, mp_size=1, dtype=torch.half, replace_with_kernel_inject=True)
"""),
    # tricky-correct: the BLOOM int8 scripts load a DeepSpeed int8 checkpoint through checkpoint=
    textwrap.dedent("""
    import deepspeed
    import torch

    model = deepspeed.init_inference(
        model,
        mp_size=world_size,
        base_dir=repo_root,
        dtype=torch.int8,
        checkpoint=checkpoints_json,
        replace_with_kernel_inject=True,
    )
"""),
    # tricky-correct: DeepSpeedExamples MoQ, a quantization-aware-trained state dict with its quantization_setting
    textwrap.dedent("""
    import deepspeed
    import torch

    model.load_state_dict(torch.load("output/qnli/pytorch_model.bin"))
    deepspeed.init_inference(model, mp_size=1, dtype=torch.int8, replace_method="auto", quantization_setting=8,
                             replace_with_kernel_inject=True)
"""),
    # tricky-correct: int8 requested without kernel injection (AutoTP keeps the HF modules)
    textwrap.dedent("""
    import deepspeed
    import torch

    engine = deepspeed.init_inference(model, tensor_parallel={"tp_size": 2}, dtype=torch.int8,
                                      replace_with_kernel_inject=False)
"""),
    # the dtype from a variable or hidden settings: preflight cannot tell
    textwrap.dedent("""
    import deepspeed
    import torch

    dtype = getattr(torch, args.dtype)
    engine = deepspeed.init_inference(model, dtype=dtype, replace_with_kernel_inject=True)
    other = deepspeed.init_inference(model, **ds_kwargs)
"""),
    # another library's init_inference
    textwrap.dedent("""
    import torch
    from myserving import init_inference

    engine = init_inference(model, dtype=torch.int8, replace_with_kernel_inject=True)
"""),
]

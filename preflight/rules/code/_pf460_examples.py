"""PF460 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # DeepSpeed issue 2413: the stage-3 rank file's module entry loaded for inference
    textwrap.dedent("""
    import os

    import torch

    from model import build_model


    def load_for_inference(ckpt_dir, tag):
        model = build_model()
        state = torch.load(os.path.join(ckpt_dir, tag, "zero_pp_rank_0_mp_rank_00_model_states.pt"), map_location="cpu")
        model.load_state_dict(state["module"])  # error: PF460
        model.eval()
        return model
"""),
    # the path in a name (an f-string), the entry in another name, strict=False (random weights, silently)
    textwrap.dedent("""
    import torch


    def restore(model, out_dir, step):
        path = f"{out_dir}/global_step{step}/zero_pp_rank_0_mp_rank_00_model_states.pt"
        ckpt = torch.load(path, map_location="cpu")
        weights = ckpt.get("module")
        missing = model.load_state_dict(weights, strict=False)  # error: PF460
        return missing
"""),
    # inline
    textwrap.dedent("""
    import torch


    def warm_start(model, d):
        model.load_state_dict(torch.load(d + "/zero_pp_rank_0_mp_rank_00_model_states.pt")["module"])  # error: PF460
"""),
]

GOOD_EXAMPLES = [
    # the fix: consolidate the shards
    textwrap.dedent("""
    import torch
    from deepspeed.utils.zero_to_fp32 import get_fp32_state_dict_from_zero_checkpoint


    def load_for_inference(model, ckpt_dir, tag):
        state_dict = get_fp32_state_dict_from_zero_checkpoint(ckpt_dir, tag=tag)
        model.load_state_dict(state_dict)
        return model
"""),
    # ZeRO 0-2 write mp_rank_00_model_states.pt, whose module entry is the whole model
    textwrap.dedent("""
    import os

    import torch


    def load(model, ckpt_dir, tag):
        state = torch.load(os.path.join(ckpt_dir, tag, "mp_rank_00_model_states.pt"), map_location="cpu")
        model.load_state_dict(state["module"])
        return model
"""),
    # what zero_to_fp32.py reads from the rank files: shapes and buffers, not the module's weights
    textwrap.dedent("""
    import glob

    import torch


    def shapes(ckpt_dir):
        files = sorted(glob.glob(f"{ckpt_dir}/zero_pp_rank_*_mp_rank_00_model_states.pt"))
        first = torch.load(files[0], map_location="cpu")
        buffers = {k: v for k, v in first["module"].items() if k in first["buffer_names"]}
        return first["param_shapes"], buffers
"""),
    # the optimizer-state shards of any stage
    textwrap.dedent("""
    import torch


    def optimizer_state(optimizer, d):
        shard = torch.load(d + "/zero_pp_rank_0_mp_rank_00_optim_states.pt")
        optimizer.load_state_dict(shard["optimizer_state_dict"])
"""),
]

"""The model in real jobs (issue 15, branch jobs46): a project model picked by name from a registry table
in a package and handed the parsed options by position (adapters/model_registry_args.py,
adapters/registry_flow.py). Small projects of our own in the shape of Tencent/HunyuanDiT @ 368280e
``hydit/train_deepspeed.py:32,261-285`` (``from hydit.modules.models import HUNYUAN_DIT_MODELS``;
``model = HUNYUAN_DIT_MODELS[args.model](args, input_size=latent_size, log_fn=logger.info)``) and
``hydit/modules/models.py:745-766`` (``def DiT_g_2(args, **kwargs): return HunYuanDiT(args, depth=40,
...)``; ``HUNYUAN_DIT_MODELS = {...}``), with twins that must state nothing: two entries under one name,
a name chosen at run time, a size the count needs that is not known.
"""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, write

TRAIN = """\
    import argparse
    import logging

    import torch

    from proj.config import get_args
    from proj.modules.models import NET_MODELS

    logger = logging.getLogger(__name__)


    def main(args):
        image_size = args.image_size
        if len(image_size) == 1:
            image_size = [image_size[0], image_size[0]]
        latent_size = [image_size[0] // 8, image_size[1] // 8]
        {build}
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)


    if __name__ == "__main__":
        main(get_args())
"""

CONFIG = """\
    import argparse


    def get_args():
        p = argparse.ArgumentParser()
        p.add_argument("--model", default="Net-S")
        p.add_argument("--vocab", type=int, default=100)
        p.add_argument("--learn-sigma", action="store_true")
        p.add_argument("--size-cond", type=int, default=None)
        p.add_argument("--image-size", type=int, nargs="+", default=[256, 256])
        return p.parse_args()
"""

ATTN = """\
    import torch.nn as nn

    try:
        import flash_attn
        from flash_attn.modules.mha import FlashSelfAttention
    except ImportError as e:
        print(f"flash_attn import failed: {e}")


    class Attn(nn.Module):
        def __init__(self, width):
            super().__init__()
            self.qkv = nn.Linear(width, 3 * width)
            self.inner = FlashSelfAttention(attention_dropout=0.0)
"""

MODELS = """\
    import torch
    import torch.nn as nn
    from diffusers.models import ModelMixin

    from .attn import Attn


    class Net(ModelMixin):
        def __init__(self, args, input_size=(32, 32), width=32, depth=2, log_fn=print):
            super().__init__()
            self.log_fn = log_fn
            self.attn = Attn(width)
            out = width * 2 if args.learn_sigma else width
            self.emb = nn.Embedding(args.vocab, width)
            if args.size_cond:
                self.size_emb = nn.Linear(6, width)
            self.blocks = nn.ModuleList([nn.Linear(width, width) for _ in range(depth)])
            log_fn(f"{depth} blocks")
            self.head = nn.Linear(width, out)


    class PosNet(nn.Module):
        def __init__(self, args, input_size=(32, 32), width=32, log_fn=print):
            super().__init__()
            self.emb = nn.Embedding(args.vocab, width)
            self.pos = nn.Parameter(torch.zeros(input_size[0] * input_size[1], width))


    class Patches(nn.Module):
        def __init__(self, size, width):
            super().__init__()
            if isinstance(size, int):
                size = (size, size)
            self.num_patches = (size[0] // 2) * (size[1] // 2)
            self.proj = nn.Linear(width, width)


    class ProbeNet(nn.Module):
        def __init__(self, args, input_size=(32, 32), width=32, log_fn=print):
            super().__init__()
            self.emb = nn.Embedding(args.vocab, width)
            self.patches = Patches(input_size, width)


    def ProbeNet_S(args, **kwargs):
        return ProbeNet(args, width=64, **kwargs)


    def Net_S(args, **kwargs):
        return Net(args, depth=3, width=64, **kwargs)


    def Net_L(args, **kwargs):
        return Net(args, depth=6, width=128, **kwargs)


    def PosNet_S(args, **kwargs):
        return PosNet(args, width=64, **kwargs)


    {table}
"""

TABLE = 'NET_MODELS = {"Net-S": Net_S, "Net-L": Net_L, "Pos-S": PosNet_S, "Probe-S": ProbeNet_S}'
BUILD = "model = NET_MODELS[args.model](args, input_size=latent_size, log_fn=logger.info)"


def _width(vocab: int, width: int, depth: int, out: int) -> int:
    """An embedding, a qkv projection (flash_attn's attention itself holds no parameters), ``depth`` square
    linears with bias, and a head ``width -> out`` with bias."""
    return vocab * width + 3 * width * width + 3 * width + depth * (width * width + width) + width * out + out


def _count(cli, tmp_path: Path, *line: str, build: str = BUILD, table: str = TABLE):
    write(tmp_path, {"proj/train.py": TRAIN.replace("{build}", build),
                     "proj/__init__.py": "", "proj/modules/__init__.py": "", "proj/config.py": CONFIG,
                     "proj/modules/attn.py": ATTN,
                     "proj/modules/models.py": MODELS.replace("{table}", table)})
    return fact(plan_of(cli, "proj/train.py", "--", *line, cwd=tmp_path), "model.num_parameters")


def test_a_registry_entry_handed_the_options_is_counted(cli, tmp_path: Path) -> None:
    got = _count(cli, tmp_path, "--model", "Net-S", "--learn-sigma")
    # vocab 100 from the declared default, learn_sigma from the line (a head twice as wide),
    # size_cond None (no size embedding), depth 3 and width 64 from Net_S
    assert got is not None and got.value == _width(100, 64, 3, 128)
    assert "Net_S()" in got.source.detail and "Net(...)" in got.source.detail and got.confidence == "medium"


def test_a_keyword_not_known_that_the_count_does_not_depend_on_gives_a_low_count(cli, tmp_path: Path) -> None:
    # the latent size is not known statically (``--image-size 256`` is one word); ProbeNet hands it to a
    # patch count only: the count is the same under its default and twice it
    got = _count(cli, tmp_path, "--model", "Probe-S", "--image-size", "256")
    assert got is not None and got.value == 100 * 64 + 64 * 64 + 64
    # the registry reader alone gives it low (counted under the default and twice it); since jobs45/jobs47
    # merged, the imported-model counter (adapters/model_imported.py) also reaches ProbeNet_S and counts it
    # at medium, its documented confidence: an argument it cannot resolve is fine until a size needs it
    assert (got.confidence == "low" and "input_size" in got.source.detail) or (
        got.confidence == "medium" and "ProbeNet_S(...) of the project" in got.source.detail)


def test_the_options_on_the_line_change_the_count(cli, tmp_path: Path) -> None:
    got = _count(cli, tmp_path, "--model", "Net-L", "--vocab", "50")
    assert got is not None and got.value == _width(50, 128, 6, 128)


def test_a_size_set_in_straight_line_code_before_the_call_is_followed(cli, tmp_path: Path) -> None:
    # the keyword is a literal the function computes: image 256 -> latent 32
    build = "size = 256\n        latent = size // 8\n        model = NET_MODELS[args.model](args, input_size=(latent, latent))"
    got = _count(cli, tmp_path, "--model", "Pos-S", build=build)
    assert got is not None and got.value == 100 * 64 + 32 * 32 * 64 and got.confidence == "medium"


def test_a_size_from_the_declared_default_list_is_followed(cli, tmp_path: Path) -> None:
    # ``--image-size`` not on the line: the declared default [256, 256], latent 32 x 32 positions
    got = _count(cli, tmp_path, "--model", "Pos-S")
    assert got is not None and got.value == 100 * 64 + 32 * 32 * 64 and got.confidence == "medium"


def test_a_size_the_count_needs_and_that_is_not_known_states_nothing(cli, tmp_path: Path) -> None:
    # PosNet's positional table is sized by input_size, not known with ``--image-size 256`` (one word, not
    # the list the code indexes): the two probes disagree
    assert _count(cli, tmp_path, "--model", "Pos-S", "--image-size", "256") is None


def test_two_entries_under_one_name_state_nothing(cli, tmp_path: Path) -> None:
    table = 'NET_MODELS = {"Net-S": Net_S, "Net-S": Net_L}'
    assert _count(cli, tmp_path, "--model", "Net-S", table=table) is None


def test_a_name_chosen_at_run_time_states_nothing(cli, tmp_path: Path) -> None:
    build = ("import random\n        name = random.choice(sorted(NET_MODELS))\n"
             "        model = NET_MODELS[name](args, input_size=latent_size, log_fn=logger.info)")
    assert _count(cli, tmp_path, "--model", "Net-S", build=build) is None


def test_a_table_written_to_after_it_is_bound_states_nothing(cli, tmp_path: Path) -> None:
    table = TABLE + '\nNET_MODELS["Net-S"] = Net_L'
    assert _count(cli, tmp_path, "--model", "Net-S", table=table) is None


def test_a_name_not_in_the_table_states_nothing(cli, tmp_path: Path) -> None:
    assert _count(cli, tmp_path, "--model", "Net-XL") is None

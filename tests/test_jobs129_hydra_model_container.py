"""The model in real jobs (issue 15, branch jobs129): a project model class handed a Hydra section copied
into a plain dict, counted (adapters/config_object_flow.py ``dumped``/``_omegaconf_copy`` read by
adapters/config_object_whole.py). Small projects of our own in the shape of
bigohofone/assignment1-basics-solution @ 83782a364cd1 ``cs336_basics/solutions/_train_model.py:37,48``
(``@hydra.main(config_path="../configs", config_name="config")`` then ``model =
TransformerLM(**OmegaConf.to_container(config.model, resolve=True))``, the sizes in
``cs336_basics/configs/model/default.yaml``), with twins that must state nothing.
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

TRAIN = """\
    import hydra
    import torch
    from omegaconf import OmegaConf

    from lm import TinyLM


    @hydra.main(version_base=None, config_path="configs", config_name="config")
    def main(config):
        {before}
        model = TinyLM({build})
        opt = torch.optim.AdamW(model.parameters(), lr=config.training.lr)


    if __name__ == "__main__":
        main()
"""

LM = """\
    import torch
    import torch.nn as nn


    class Linear(nn.Module):
        def __init__(self, d_in, d_out):
            super().__init__()
            self.weight = nn.Parameter(torch.empty(d_out, d_in))


    class Block(nn.Module):
        def __init__(self, d_model, d_ff):
            super().__init__()
            self.qkv = Linear(d_model, 3 * d_model)
            self.out = Linear(d_model, d_model)
            self.up = Linear(d_model, d_ff)
            self.down = Linear(d_ff, d_model)
            self.norm = nn.LayerNorm(d_model)


    class TinyLM(nn.Module):
        def __init__(self, vocab_size, d_model, d_ff, num_layers, context_length=256, **kwargs):
            super().__init__()
            self.emb = nn.Embedding(vocab_size, d_model)
            self.layers = nn.ModuleList([Block(d_model, d_ff) for _ in range(num_layers)])
            self.head = Linear(d_model, vocab_size)
"""

CONFIG = """\
    defaults:
      - model: default
      - _self_
    training:
      lr: 0.001
      batch_size: 64
"""

MODEL = """\
    name: default
    vocab_size: 1000
    context_length: 256
    d_model: 64
    d_ff: {d_ff}
    num_layers: 2
"""

# per block: qkv 64*192 + out 64*64 + up 64*d_ff + down d_ff*64 + LayerNorm 128; embedding and head 1000*64 each
EXPECTED = 2 * 1000 * 64 + 2 * (64 * 192 + 64 * 64 + 2 * 64 * 176 + 128)


def _job(tmp_path, build: str, before: str = "pass", d_ff: str = "176"):
    write(tmp_path, {
        "train.py": TRAIN.format(build=build, before=before),
        "lm.py": LM,
        "configs/config.yaml": CONFIG,
        "configs/model/default.yaml": MODEL.format(d_ff=d_ff),
    })


def test_to_container_resolve_splat_is_counted(cli, tmp_path):
    _job(tmp_path, "**OmegaConf.to_container(config.model, resolve=True)")
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    got = fact(plan, "model.num_parameters")
    assert got is not None and got.value == EXPECTED
    assert got.confidence == "medium"


def test_plain_to_container_and_dict_copies_are_counted(cli, tmp_path):
    for build in ("**OmegaConf.to_container(config.model)", "**dict(config.model)"):
        _job(tmp_path, build)
        got = fact(plan_of(cli, "train.py", cwd=tmp_path), "model.num_parameters")
        assert got is not None and got.value == EXPECTED, build


def test_launch_line_override_reaches_the_count(cli, tmp_path):
    _job(tmp_path, "**OmegaConf.to_container(config.model, resolve=True)")
    plan = plan_of(cli, "train.py", "--", "model.num_layers=3", cwd=tmp_path)
    per_block = 64 * 192 + 64 * 64 + 2 * 64 * 176 + 128
    assert fact(plan, "model.num_parameters").value == EXPECTED + per_block


def test_size_assigned_in_code_stays_unknown(cli, tmp_path):
    """Twin: the vocabulary set from the tokenizer before the build (a real form:
    ``config.model.vocab_size = tokenizer.vocab_size`` then ``TransformerLM(**OmegaConf.to_container(config.model))``)."""
    _job(tmp_path, "**OmegaConf.to_container(config.model, resolve=True)",
         before="config.model.vocab_size = len(open('vocab.txt').read().split())")
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "model.num_parameters")
    assert got is None


def test_size_known_only_at_run_time_stays_unknown(cli, tmp_path):
    """Twin: a size from an environment resolver is not known statically."""
    _job(tmp_path, "**OmegaConf.to_container(config.model, resolve=True)", d_ff="${oc.env:D_FF}")
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "model.num_parameters")
    assert got is None


def test_structured_mode_copy_is_not_followed(cli, tmp_path):
    """Twin: a copy with a keyword not followed (``structured_config_mode``) states nothing."""
    _job(tmp_path, "**OmegaConf.to_container(config.model, structured_config_mode=mode)", before="mode = None")
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "model.num_parameters")
    assert got is None

"""Activation checkpointing behind a backbone's constructor parameter that defaults to False
(adapters/ckpt_param_guard.py): the Swin shape (microsoft/Swin-Transformer @ f82860b
models/swin_transformer.py:387-417, copied by ZhengPeng7/BiRefNet @ 25cb930 models/backbones/swin_v1.py) and
the mmcv ``with_cp`` shape (OpenGVLab/InternImage @ 31c962d internimage.py:365-429) are off while nothing in
the project turns the parameter on; Swin-Transformer's own build.py (``use_checkpoint=config.TRAIN.USE_CHECKPOINT``),
a config dict's ``with_cp=True``, an argparse flag, a YAML key, a positional ``True`` or a True default keep it
as written. Each fixture is our own small rewrite of the real shape."""

from __future__ import annotations

import textwrap
from pathlib import Path

from plan_helpers import fact, plan_of, write
from preflight.adapters.ckpt_param_guard import blank_param_guarded

SWIN = textwrap.dedent("""\
    import torch.nn as nn
    import torch.utils.checkpoint as checkpoint


    class BasicLayer(nn.Module):
        \"\"\"A Swin stage.

        Args:
            use_checkpoint (bool): Whether to use checkpointing to save memory. Default: False.
        \"\"\"

        def __init__(self, dim, depth, downsample=None, use_checkpoint=False):
            super().__init__()
            self.use_checkpoint = use_checkpoint
            self.blocks = nn.ModuleList([nn.Linear(dim, dim) for _ in range(depth)])

        def forward(self, x):
            for blk in self.blocks:
                if self.use_checkpoint:
                    x = checkpoint.checkpoint(blk, x)
                else:
                    x = blk(x)
            return x


    class SwinTransformer(nn.Module):
        def __init__(self, embed_dim=96, depths=(2, 2, 6, 2), use_checkpoint=False):
            super().__init__()
            self.layers = nn.ModuleList([BasicLayer(embed_dim, d, use_checkpoint=use_checkpoint) for d in depths])

        def forward(self, x):
            for layer in self.layers:
                x = layer(x)
            return x
""")

BUILD = textwrap.dedent("""\
    from swin import SwinTransformer


    def swin_l():
        return SwinTransformer(embed_dim=192, depths=(2, 2, 18, 2))
""")

MMCV = textwrap.dedent("""\
    import torch.utils.checkpoint as cp
    from torch import nn


    class Bottleneck(nn.Module):
        def __init__(self, planes, *, with_cp=False):
            super().__init__()
            self.with_cp = with_cp
            self.conv = nn.Conv2d(planes, planes, 3)

        def forward(self, x):
            def _inner_forward(x):
                return self.conv(x)

            if self.with_cp and x.requires_grad:
                out = cp.checkpoint(_inner_forward, x)
            else:
                out = _inner_forward(x)
            return out
""")


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "proj"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_swin_default_off_is_blanked(tmp_path):
    root = _project(tmp_path, {"swin.py": SWIN, "build.py": BUILD})
    out = blank_param_guarded(SWIN, root)
    assert "checkpoint.checkpoint(" not in out
    assert out.count("\n") == SWIN.count("\n")  # same lines
    assert "x = blk(x)" in out  # the else stays


def test_mmcv_with_cp_keyword_only_and_and_guard(tmp_path):
    root = _project(tmp_path, {"resnet.py": MMCV})
    assert "cp.checkpoint(" not in blank_param_guarded(MMCV, root)


def test_no_root_blanks_nothing():
    assert blank_param_guarded(SWIN, None) == SWIN


def _kept(tmp_path: Path, extra: dict[str, str], text: str = SWIN) -> None:
    files = {"swin.py": text, "build.py": BUILD, **extra}
    root = _project(tmp_path, files)
    assert blank_param_guarded(text, root) == text


def test_build_from_config_keeps_it(tmp_path):
    """microsoft/Swin-Transformer models/build.py:51: the flag comes from the config."""
    _kept(tmp_path, {"build2.py": "from swin import SwinTransformer\n"
                                  "def build(config):\n"
                                  "    return SwinTransformer(use_checkpoint=config.TRAIN.USE_CHECKPOINT)\n"})


def test_mm_config_dict_with_cp_true_keeps_it(tmp_path):
    """an mmdet/mmseg config file: ``backbone=dict(type='ResNet', with_cp=True)``."""
    root = _project(tmp_path, {"resnet.py": MMCV,
                               "configs/r50.py": "model = dict(backbone=dict(type='ResNet', with_cp=True))\n"})
    assert blank_param_guarded(MMCV, root) == MMCV


def test_argparse_flag_keeps_it(tmp_path):
    _kept(tmp_path, {"train.py": "import argparse\np = argparse.ArgumentParser()\n"
                                 "p.add_argument('--use-checkpoint', action='store_true')\n"})


def test_yaml_key_keeps_it(tmp_path):
    _kept(tmp_path, {"configs/swin_l.yaml": "TRAIN:\n  USE_CHECKPOINT: true\n"})


def test_positional_true_keeps_it(tmp_path):
    _kept(tmp_path, {"other.py": "from swin import BasicLayer\nlayer = BasicLayer(96, 2, None, True)\n"})


def test_true_default_or_set_attribute_keeps_it(tmp_path):
    _kept(tmp_path, {}, SWIN.replace("embed_dim=96, depths=(2, 2, 6, 2), use_checkpoint=False",
                                     "embed_dim=96, depths=(2, 2, 6, 2), use_checkpoint=True"))
    _kept(tmp_path / "b", {"enable.py": "def enable(model):\n    for m in model.modules():\n"
                                        "        m.use_checkpoint = True\n"})


def test_guard_negated_or_no_self_store_keeps_it(tmp_path):
    negated = SWIN.replace("if self.use_checkpoint:", "if not self.use_checkpoint:")
    root = _project(tmp_path, {"swin.py": negated})
    assert blank_param_guarded(negated, root) == negated
    stored_other = SWIN.replace("self.use_checkpoint = use_checkpoint", "self.use_checkpoint = True")
    root = _project(tmp_path / "b", {"swin.py": stored_other})
    assert blank_param_guarded(stored_other, root) == stored_other


TRAIN = """\
    import torch
    from build import swin_l


    model = swin_l()
    optimizer = torch.optim.AdamW(model.parameters())
    for x in [torch.zeros(2, 96)]:
        loss = model(x).sum()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
"""


def test_plan_swin_backbone_default_is_off(cli, tmp_path):
    write(tmp_path, {"train.py": TRAIN, "build.py": BUILD, "swin.py": SWIN})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    ckpt = fact(plan, "memory.gradient_checkpointing")
    assert ckpt is not None and ckpt.value is False and ckpt.confidence == "medium"


def test_plan_swin_backbone_switched_on_stays_unknown(cli, tmp_path):
    """Twin: the builder passes ``use_checkpoint=True``."""
    write(tmp_path, {"train.py": TRAIN, "build.py": BUILD.replace("depths=(2, 2, 18, 2))",
                                                                  "depths=(2, 2, 18, 2), use_checkpoint=True)"),
                     "swin.py": SWIN})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "memory.gradient_checkpointing") is None


def _walks_of_root(monkeypatch, root: Path) -> list[str]:
    """Record each walk of ``root`` the project scan starts (the scan's own ``os.walk``)."""
    import preflight.adapters.ckpt_param_guard as guard

    walks: list[str] = []
    real = guard.os.walk

    def counting(top, *args, **kwargs):
        if Path(top) == root.resolve():
            walks.append(str(top))
        return real(top, *args, **kwargs)

    monkeypatch.setattr(guard.os, "walk", counting)
    return walks


def test_one_plan_walks_the_project_once_per_parameter(monkeypatch, tmp_path):
    """Two adapters (the local-module reader and the visible-code absences) ask about the same
    parameter; the project is walked once for it in one plan, not once per asker."""
    import preflight.adapters.ckpt_param_guard as guard

    from preflight.audit import build_plan

    write(tmp_path, {"train.py": TRAIN, "build.py": BUILD, "swin.py": SWIN})
    walks = _walks_of_root(monkeypatch, tmp_path)
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
    assert plan.value("memory.gradient_checkpointing") is False
    asked = guard._off_in_project.cache_info().currsize  # the distinct (parameter, class) questions
    assert asked >= 1 and len(walks) == asked


def test_the_next_plan_sees_the_edited_project(tmp_path):
    """The scans one plan remembers are dropped when the next plan starts: a builder switched to
    ``use_checkpoint=True`` between two audits in one process (an editor, the gate) is seen."""
    from preflight.audit import build_plan

    write(tmp_path, {"train.py": TRAIN, "build.py": BUILD, "swin.py": SWIN})
    first, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
    assert first.value("memory.gradient_checkpointing") is False
    (tmp_path / "build.py").write_text(textwrap.dedent(BUILD).replace(
        "depths=(2, 2, 18, 2))", "depths=(2, 2, 18, 2), use_checkpoint=True)"))
    second, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
    assert second.resolve("memory.gradient_checkpointing") is None

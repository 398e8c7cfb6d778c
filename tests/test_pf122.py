"""PF122 requires-grad-set-on-module: `module.requires_grad = False` freezes nothing; the shapes of
real code it must report (ProtoContra-SFDA#18, timm's pvt_v2, a recursive named_children freeze)
and the correct code it must leave alone (parameters, tensors, CLIP projections, other frameworks)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from preflight.diagnostics import Finding
from preflight.engine import Selection, analyse_parsed
from preflight.sources import FileError, SourceText, parse_python


def check(src: str) -> list[Finding]:
    text = textwrap.dedent(src)
    parsed = parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python", raw=text.encode(),
                                     text=text))
    assert not isinstance(parsed, FileError), parsed
    return analyse_parsed(parsed, Selection(codes=("PF122",)))


def lines(src: str) -> list[int]:
    return [f.span.line for f in check(src)]


# -- reported -------------------------------------------------------------------------------------

def test_the_reported_segmentation_head_through_the_cli(cli, tmp_path):
    # CSCYQJ/MICCAI23-ProtoContra-SFDA#18: `self.model.outc.requires_grad = False` did not freeze
    # the last layer; Adam kept updating it.
    (tmp_path / "trainer.py").write_text(textwrap.dedent("""\
        import torch

        from networks.unet import UNet


        class Trainer:
            def __init__(self, opt):
                self.model = UNet(n_channels=1, n_classes=opt["num_classes"])
                self.model.load_state_dict(torch.load(opt["ckpt"]))
                self.model = self.model.to(opt["gpu_id"])
                self.model.outc.requires_grad = False
                self.optimizer = torch.optim.Adam(self.model.parameters(), lr=opt["lr"])
        """))
    res = cli("check", "trainer.py", "--select", "PF122", "--format", "json", "--no-cache")
    assert res.code == 1, res.err
    found = json.loads(res.out)["findings"]
    assert [(f["code"], f["line"], f["severity"]) for f in found] == [("PF122", 11, "warning")]
    msg = found[0]["message"]
    assert "`self.model.outc.requires_grad = ...`" in msg and "`outc` names a submodule" in msg
    assert "`self.model.outc.requires_grad_(False)`" in msg


def test_a_module_class_of_the_file_bound_to_an_attribute():
    # timm pvt_v2 `freeze_patch_emb`: the patch embedding is a module defined in the same file
    src = """
        import torch.nn as nn


        class OverlapPatchEmbed(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.proj = nn.Conv2d(3, dim, 7, 4, 3)


        class PyramidVisionTransformerV2(nn.Module):
            def __init__(self, dim=64):
                super().__init__()
                self.patch_embed = OverlapPatchEmbed(dim)

            def freeze_patch_emb(self):
                self.patch_embed.requires_grad = False
    """
    found = check(src)
    assert [f.span.line for f in found] == [17]
    assert "it is bound to a module" in found[0].message


def test_a_recursive_freeze_over_named_children_reports_both_branches():
    # a freeze helper of a QLoRA experiment: every child "frozen" or "unfrozen" by attribute
    src = """
        import torch.nn as nn


        def freeze(model: nn.Module, training_modules):
            for name, child in model.named_children():
                if name not in training_modules:
                    child.requires_grad = False
                else:
                    child.requires_grad = True
                freeze(child, training_modules)
            return model
    """
    found = check(src)
    assert [f.span.line for f in found] == [8, 10]
    assert all("it iterates `model.named_children()`" in f.message for f in found)


def test_an_embedding_bound_in_init_is_reported():
    src = """
        import torch


        class WordSampler(torch.nn.Module):
            def __init__(self, vocab, dim, vectors):
                super().__init__()
                self.encoder = torch.nn.Embedding(vocab, dim)
                self.encoder.weight.data.copy_(vectors)
                self.encoder.requires_grad = False
    """
    assert lines(src) == [10]


# -- silent ---------------------------------------------------------------------------------------

def test_a_tensor_bound_to_a_submodule_like_name_is_silent():
    # YOLOv6/PP-YOLOE heads: `self.proj = torch.linspace(...)`; and any module-like name bound to a tensor
    src = """
        import torch
        from torch import nn


        class Head(nn.Module):
            def __init__(self, reg_max=16):
                super().__init__()
                self.proj = torch.linspace(0, reg_max, reg_max + 1)
                self.proj.requires_grad = False
                self.head = nn.Parameter(torch.zeros(4))
                self.head.requires_grad = False


        def lock(model):
            model.head.requires_grad = False
    """
    assert lines(src) == []


def test_clip_projections_are_parameters_and_stay_silent():
    # open_clip/CLIP: `visual.proj` and `text_projection` are nn.Parameter, not modules
    src = """
        import open_clip

        model, _, preprocess = open_clip.create_model_and_transforms("ViT-B-32")
        model.text_projection.requires_grad = False
        model.visual.proj.requires_grad = False
    """
    assert lines(src) == []


def test_a_loop_over_parameters_or_a_mixed_group_is_silent():
    src = """
        import torch.nn as nn


        def set_group(members, flag):
            for m in members:
                if isinstance(m, nn.Parameter):
                    m.requires_grad = flag


        def freeze_cnn(model):
            for child in model.cnn.parameters():
                child.requires_grad = False
            for name, child in model.named_parameters():
                child.requires_grad = False
    """
    assert lines(src) == []


def test_a_class_with_its_own_requires_grad_property_is_silent():
    src = """
        import torch.nn as nn


        class Frozenable(nn.Module):
            def __init__(self):
                super().__init__()
                self.encoder = nn.Linear(4, 4)

            @property
            def requires_grad(self):
                return all(p.requires_grad for p in self.parameters())

            @requires_grad.setter
            def requires_grad(self, value):
                self.requires_grad_(value)


        model = Frozenable()
        model.requires_grad = False
    """
    assert lines(src) == []


def test_another_framework_is_silent():
    # Jittor's YOLO port: `self.proj = jt.linspace(...)`, and its own modules
    src = """
        import jittor as jt
        from jittor import nn

        head = nn.Linear(4, 4)
        head.requires_grad = False
    """
    assert lines(src) == []


def test_a_real_freeze_of_the_same_module_excuses_the_attribute():
    src = """
        import torch.nn as nn

        backbone = nn.Sequential(nn.Linear(4, 4))
        backbone.requires_grad_(False)
        backbone.requires_grad = False
    """
    assert lines(src) == []

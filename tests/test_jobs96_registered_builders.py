"""Models built through a registry whose constructor computes before it builds (issue 15, branch jobs96):
shapes of the real-jobs benchmark rebuilt as small projects of our own, each with twins that state nothing."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import plan_of, winner, write


def facts(plan: dict, field: str, adapter: str) -> list:
    return [f for f in plan["fields"].get(field, []) if f["adapter"] == adapter]


# --- timm's create_model over a project constructor with a local and partial layer factories --------
# raoyongming/HorNet @ ac9e21058935f1cf8e27fcca72bbf598fa691d69 main.py:14,24,276-283 (``create_model(args.model,
# pretrained=False, num_classes=args.nb_classes, ...)`` after ``import hornet``), hornet.py:44-49 (``self.dims =
# [dim // 2 ** i for i in range(order)]; self.dims.reverse()``) and :226-238 (``s = 1.0/3.0`` then ``model =
# HorNet(..., gnconv=[partial(gnconv, order=2, s=s), ...], **kwargs); return model``).
GN_MODELS = """\
    from functools import partial
    import torch.nn as nn
    from timm.models.registry import register_model


    class Gn(nn.Module):
        def __init__(self, dim, order=2, s=1.0):
            super().__init__()
            self.dims = [dim // 2 ** i for i in range(order)]
            self.dims.reverse()
            self.proj_in = nn.Linear(dim, self.dims[0])
            self.scale = s


    class Block(nn.Module):
        def __init__(self, dim, gnconv=Gn):
            super().__init__()
            self.gn = gnconv(dim)
            self.fc = nn.Linear(dim, dim)


    class GnNet(nn.Module):
        def __init__(self, dims=(8, 16), block=Block, gnconv=Gn, num_classes=1000):
            super().__init__()
            if not isinstance(gnconv, list):
                gnconv = [gnconv, gnconv]
            self.stages = nn.ModuleList([block(dims[i], gnconv=gnconv[i]) for i in range(2)])
            self.head = nn.Linear(dims[-1], num_classes)


    @register_model
    def gnnet_tiny(pretrained=False, in_22k=False, **kwargs):
        s = 1.0 / 3.0
        model = GnNet(dims=[8, 16], block=Block, gnconv=[partial(Gn, order=2, s=s), partial(Gn, order=3, s=s)],
                      **kwargs)
        {after}
        return model
"""
GN_TRAIN = """\
    import argparse
    import torch
    from timm.models import create_model

    import gnnet

    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="gnnet_tiny")
    parser.add_argument("--nb_classes", type=int, default=10)
    args = parser.parse_args()
    model = create_model(args.model, pretrained=False, num_classes=args.nb_classes)
    opt = torch.optim.AdamW(model.parameters())
"""
# stage 1: Gn(8, order=2) dims [8, 4] reversed -> [4, 8]: proj_in 8->4; fc 8->8
# stage 2: Gn(16, order=3) dims [16, 8, 4] reversed -> [4, 8, 16]: proj_in 16->4; fc 16->16; head 16->10
GNNET = (8 * 4 + 4) + (8 * 8 + 8) + (16 * 4 + 4) + (16 * 16 + 16) + (16 * 10 + 10)


def test_a_registered_constructor_with_a_local_and_partial_factories_is_counted(cli, tmp_path: Path) -> None:
    write(tmp_path, {"gnnet.py": GN_MODELS.format(after="pass"), "train.py": GN_TRAIN})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert [f["value"] for f in facts(plan, "model.num_parameters", "model_by_name")] == [GNNET]
    assert winner(plan, "model.class_name") == "GnNet"


def test_a_constructor_that_changes_the_model_after_building_it_states_no_count(cli, tmp_path: Path) -> None:
    write(tmp_path, {"gnnet.py": GN_MODELS.format(after="model.head = nn.Linear(16, 3)"), "train.py": GN_TRAIN})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert facts(plan, "model.num_parameters", "model_by_name") == []


def test_a_constructor_under_a_decorator_that_is_no_registration_states_no_count(cli, tmp_path: Path) -> None:
    models = GN_MODELS.format(after="pass").replace("@register_model", "@register_model\n    @wrapped_model")
    models = models.replace("from timm.models.registry import register_model",
                            "from timm.models.registry import register_model\n    from mylib import wrapped_model")
    write(tmp_path, {"gnnet.py": models, "train.py": GN_TRAIN})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert facts(plan, "model.num_parameters", "model_by_name") == []

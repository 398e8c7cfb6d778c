"""The training image size of an open_clip / EVA-CLIP model named at run time (issue 15, branch jobs118;
adapters/clip_image_size.py). Small projects in the shape of microsoft/LLM2CLIP @ cba3b45
(``llm2clip/training/main.py:22,126-143`` ``from eva_clip import create_model_and_transforms``,
``create_model_and_transforms(args.model, ...)``; ``llm2clip/eva_clip/model_configs/EVA02-CLIP-L-14-336.json``
``vision_cfg.image_size`` 336) and mlfoundations/open_clip (``force_image_size=args.force_image_size``),
with twins that must state nothing."""

from __future__ import annotations

import json
from pathlib import Path

from plan_helpers import fact, plan_of, write

MAIN = """\
    import argparse

    import torch
    from PACKAGE import create_model_and_transforms


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--model", default="RN50")
        parser.add_argument("--force-image-size", type=int, default=None)
        args = parser.parse_args()
        model, preprocess_train, preprocess_val = create_model_and_transforms(args.model, "eva_clip"EXTRA)
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
        for x in range(3):
            loss = model(x).sum()
            loss.backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
"""

CFG = {"embed_dim": 768, "vision_cfg": {"image_size": 336, "layers": 24, "width": 1024, "patch_size": 14},
       "text_cfg": {"context_length": 77, "vocab_size": 49408, "width": 768, "heads": 12, "layers": 12}}


def _plan(cli, tmp_path: Path, *argv: str, package: str = "eva_clip", extra: str = "", where: str = "") -> dict:
    write(tmp_path, {"training/main.py": MAIN.replace("PACKAGE", package).replace("EXTRA", extra),
                     f"{where or package}/__init__.py": "",
                     f"{where or package}/model_configs/EVA02-CLIP-L-14-336.json": json.dumps(CFG)})
    return plan_of(cli, "--", "python", "training/main.py", "--model", "EVA02-CLIP-L-14-336", *argv, cwd=tmp_path)


def test_the_model_configs_image_size_is_the_training_size(cli, tmp_path: Path) -> None:
    got = fact(_plan(cli, tmp_path), "data.image_size")
    assert (got.value, got.confidence, got.adapter) == (336, "medium", "clip_image_size")
    assert got.source.line == 12


def test_open_clip_with_force_image_size_left_none(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, package="open_clip", extra=", force_image_size=args.force_image_size")
    assert fact(plan, "data.image_size").value == 336


def test_twin_force_image_size_given_states_nothing(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, "--force-image-size", "224", package="open_clip",
                 extra=", force_image_size=args.force_image_size")
    got = fact(plan, "data.image_size")
    assert got is None or got.adapter != "clip_image_size"


def test_twin_a_splatted_call_states_nothing(cli, tmp_path: Path) -> None:
    got = fact(_plan(cli, tmp_path, extra=", **{}"), "data.image_size")
    assert got is None or got.adapter != "clip_image_size"


def test_twin_another_packages_factory_states_nothing(cli, tmp_path: Path) -> None:
    # ``from my_clip import create_model_and_transforms``: not open_clip's or EVA-CLIP's factory
    got = fact(_plan(cli, tmp_path, package="my_clip"), "data.image_size")
    assert got is None or got.adapter != "clip_image_size"


def test_twin_no_config_file_states_nothing(cli, tmp_path: Path) -> None:
    got = fact(_plan(cli, tmp_path, where="elsewhere"), "data.image_size")
    assert got is None or got.adapter != "clip_image_size"

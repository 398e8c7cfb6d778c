"""det66 (issue 18): shapes of held-out bug reports that existing rules did not follow, in fixtures of
our own: a GLIDE-style ``convert_to_fp16()`` cast (PF579 and the plan's precision), a Hydra app that makes
one config path absolute and resumes from another (PF529), and a Hydra 1.0 primary config without
``_self_`` (PF519)."""

from __future__ import annotations

import json
from pathlib import Path

from plan_helpers import fact, plan_of, winner, write

# GLIDE fine-tuning (held-out-28, the report behind h28-pt-fp16-weights-with-adam-default-epsilon): the
# guided-diffusion model family casts itself with `convert_to_fp16()`
GLIDE = """\
    import argparse

    import torch

    from nets import make_model, make_loader

    parser = argparse.ArgumentParser()
    parser.add_argument("--use_fp16", action="store_true")
    args = parser.parse_args()
    model = make_model()
    if args.use_fp16:
        model.convert_to_fp16()
    model.to("cuda")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    for epoch in range(10):
        for x, y in make_loader():
            loss = torch.nn.functional.mse_loss(model(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
"""


def _findings(cli, cwd: Path, *args: str) -> list[dict]:
    cut = args.index("--") if "--" in args else len(args)
    res = cli("audit", *args[:cut], "--format", "json", "--no-cache", "--exit-zero", *args[cut:], cwd=cwd)
    return [f for f in json.loads(res.out)["findings"] if f["severity"] != "note"]


def test_convert_to_fp16_is_a_16_bit_cast_with_its_line(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": GLIDE})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", "--use_fp16", cwd=tmp_path)
    assert winner(plan, "precision.mode") == "fp16"
    assert fact(plan, "precision.mode").source.line == 12


def test_convert_to_fp16_with_adam_default_eps_is_pf579(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": GLIDE})
    found = _findings(cli, tmp_path, "train.py", "--", "python", "train.py", "--use_fp16")
    assert [(f["code"], f["line"]) for f in found if f["code"] == "PF579"] == [("PF579", 12)]


def test_convert_to_fp16_with_a_float16_safe_eps_is_silent(cli, tmp_path: Path) -> None:
    # the report's fix: eps raised when the weights are float16
    write(tmp_path, {"train.py": GLIDE.replace("lr=1e-5)", "lr=1e-5, eps=1e-4 if args.use_fp16 else 1e-8)")})
    found = _findings(cli, tmp_path, "train.py", "--", "python", "train.py", "--use_fp16")
    assert not [f for f in found if f["code"] == "PF579"]


def test_convert_to_fp16_left_off_by_the_launch_is_not_a_cast(cli, tmp_path: Path) -> None:
    # tricky-correct: the flag is not given, so the weights stay float32
    write(tmp_path, {"train.py": GLIDE})
    found = _findings(cli, tmp_path, "train.py", "--", "python", "train.py")
    assert not [f for f in found if f["code"] == "PF579"]


# nnabla-nas PR 57 (held-out-28): the data folder is made absolute, the resume path from the config is not
NAS = {
    "search.py": """\
        import os

        import hydra
        import torch


        @hydra.main(config_path="conf", config_name="search")
        def main(cfg):
            data = hydra.utils.to_absolute_path(cfg.data_dir)
            model = torch.nn.Linear(2, 2)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            if cfg.resume and os.path.exists(cfg.resume):
                ckpt = torch.load(cfg.resume)
                model.load_state_dict(ckpt["model"])
                optimizer.load_state_dict(ckpt["optimizer"])
            for x in torch.load(os.path.join(data, "train.pt")):
                optimizer.zero_grad()
                model(x).sum().backward()
                optimizer.step()
            torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, "last.pt")


        if __name__ == "__main__":
            main()
    """,
    "conf/search.yaml": "data_dir: data/cifar\nresume: checkpoints/last.pt\n",
}


def test_one_to_absolute_path_no_longer_silences_the_resume_path(cli, tmp_path: Path) -> None:
    write(tmp_path, NAS)
    found = _findings(cli, tmp_path, "search.py", "--config", "conf", "--", "python", "search.py")
    pf529 = [(f["code"], f["line"]) for f in found if f["code"] == "PF529"]
    assert pf529 == [("PF529", 12)]
    message = next(f["message"] for f in found if f["code"] == "PF529")
    assert "os.path.exists(cfg.resume)" in message and "line 13" in message


def test_resume_path_made_absolute_is_silent(cli, tmp_path: Path) -> None:
    files = dict(NAS)
    files["search.py"] = NAS["search.py"].replace(
        "    if cfg.resume and", "    cfg.resume = hydra.utils.to_absolute_path(cfg.resume)\n            if cfg.resume and")
    write(tmp_path, files)
    found = _findings(cli, tmp_path, "search.py", "--config", "conf", "--", "python", "search.py")
    assert not [f for f in found if f["code"] == "PF529"]


def test_resume_into_a_fixed_run_dir_set_on_the_launch_line_is_silent(cli, tmp_path: Path) -> None:
    # tricky-correct: the run folder is fixed on the launch line, so the relative resume path is found
    files = dict(NAS)
    files["search.py"] = NAS["search.py"].replace("cfg.resume and os.path.exists(cfg.resume)",
                                                  'os.path.exists("checkpoints/last.pt")').replace(
        "torch.load(cfg.resume)", 'torch.load("checkpoints/last.pt")')
    write(tmp_path, files)
    bare = _findings(cli, tmp_path, "search.py", "--config", "conf", "--", "python", "search.py")
    assert [(f["code"], f["line"]) for f in bare if f["code"] == "PF529"] == [("PF529", 12)]
    fixed = _findings(cli, tmp_path, "search.py", "--config", "conf", "--", "python", "search.py",
                      "hydra.run.dir=outputs/nas")
    assert not [f for f in fixed if f["code"] == "PF529"]

"""PF126 ddp-load-without-map-location: every DDP process torch.loads the script's own GPU checkpoint without
map_location (pytorch/examples#1078); what ties a load to the script's checkpoints and what stays silent."""

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
    return analyse_parsed(parsed, Selection(codes=("PF126",)))


def lines(src: str) -> list[int]:
    return [f.span.line for f in check(src)]


TRAIN = """\
import os

import torch
import torch.distributed as dist


def main(model, loader, optimizer, out_dir):
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    model = torch.nn.parallel.DistributedDataParallel(model.cuda(local_rank), device_ids=[local_rank])
    last = os.path.join(out_dir, "last.pt")
    if os.path.exists(last):
        state = torch.load(last)
        model.module.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
    if dist.get_rank() == 0:
        torch.save({"model": model.module.state_dict(), "optimizer": optimizer.state_dict()}, last)
"""


def test_reported_through_the_cli(cli, tmp_path):
    (tmp_path / "train.py").write_text(TRAIN)
    res = cli("check", "train.py", "--select", "PF126", "--format", "json", "--no-cache")
    assert res.code == 1, res.err
    found = json.loads(res.out)["findings"]
    assert [(f["code"], f["line"], f["severity"]) for f in found] == [("PF126", 13, "warning")]
    assert "`torch.load(last)`" in found[0]["message"] and "map_location" in found[0]["message"]


def test_silent_with_map_location_positional_or_keyword(cli, tmp_path):
    (tmp_path / "a.py").write_text(TRAIN.replace("torch.load(last)", "torch.load(last, 'cpu')"))
    (tmp_path / "b.py").write_text(TRAIN.replace("torch.load(last)", "torch.load(last, map_location=f'cuda:{local_rank}')"))
    res = cli("check", "a.py", "b.py", "--select", "PF126", "--format", "json", "--no-cache")
    assert json.loads(res.out)["findings"] == []


def test_a_resume_path_that_shares_no_name_with_the_save_is_reported():
    src = TRAIN.replace("state = torch.load(last)", "state = torch.load(args_resume)").replace(
        "def main(model, loader, optimizer, out_dir):", "def main(model, loader, optimizer, out_dir, args_resume):")
    assert lines(src) == [13]


def test_silent_without_ddp_or_without_a_state_save():
    assert lines(TRAIN.replace('    dist.init_process_group("nccl")\n', "").replace(
        "torch.nn.parallel.DistributedDataParallel(model.cuda(local_rank), device_ids=[local_rank])",
        "model.cuda(local_rank)")) == []
    assert lines(TRAIN.replace('{"model": model.module.state_dict(), "optimizer": optimizer.state_dict()}',
                               "features")) == []


def test_silent_for_data_caches_pretrained_weights_rank_zero_and_tests():
    src = """
        import torch
        import torch.distributed as dist


        def main(model, args, features):
            dist.init_process_group("nccl")
            torch.save(features, args.cached_features_file)
            features = torch.load(args.cached_features_file)
            model.load_state_dict(torch.load(args.pretrained_checkpoint))
            if dist.get_rank() == 0:
                model.load_state_dict(torch.load(args.resume)["model"])
            torch.save({"model": model.state_dict()}, args.resume)


        def test_roundtrip(model, tmp_path):
            torch.save(model.state_dict(), tmp_path / "ckpt")
            model.load_state_dict(torch.load(tmp_path / "ckpt"))
    """
    assert lines(src) == []

"""Boxes recomputed from masks are no activation recomputation (``adapters/pytorch_local.py`` ``_CKPT_WORDS``).

facebookresearch/detectron2 ``detectron2/data/dataset_mapper.py`` (``DatasetMapper(..., recompute_boxes=False)``,
``if self.recompute_boxes: instances.gt_boxes = instances.gt_masks.get_bounding_boxes()``), copied by
facebookresearch/CutLER @ its pinned commit ``cutler/data/dataset_mapper.py:51-142`` and aim-uofa/AdelaiDet
``adet/data/dataset_mapper.py``; mmdet's ``RandomCrop(recompute_bbox=True)`` (open-mmlab/mmdetection
``configs/strong_baselines/``). The fixture is our own small rewrite of that shape; its twin recomputes
activations (Megatron's ``recompute_granularity``) and nothing is claimed."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

FILES = {
    "train.py": """\
        import torch
        from torch import nn
        from mapper import DatasetMapper


        def main():
            mapper = DatasetMapper(recompute_boxes=True)
            model = nn.Linear(4, 4)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
            for x in [mapper(torch.zeros(2, 4))]:
                loss = model(x).sum()
                loss.backward()
                optimizer.step()
                optimizer.zero_grad()


        if __name__ == "__main__":
            main()
    """,
    "mapper.py": """\
        class DatasetMapper:
            def __init__(self, recompute_boxes: bool = False, recompute_bbox: bool = False):
                self.recompute_boxes = recompute_boxes
                self.recompute_bbox = recompute_bbox

            def __call__(self, x):
                if self.recompute_boxes or self.recompute_bbox:
                    return x * 1
                return x
    """,
}


def test_boxes_recomputed_after_a_crop_switch_no_checkpointing_on(cli, tmp_path):
    write(tmp_path, FILES)
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "memory.gradient_checkpointing")
    assert got is not None and got.value is False and got.confidence == "medium", got


def test_twin_recomputed_activations_keep_it_unknown(cli, tmp_path):
    files = dict(FILES)
    files["mapper.py"] = files["mapper.py"] + "\n\nRECOMPUTE = dict(recompute_granularity='full')\n"
    write(tmp_path, files)
    assert fact(plan_of(cli, "train.py", cwd=tmp_path), "memory.gradient_checkpointing") is None

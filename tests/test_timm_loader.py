"""timm's ``create_loader`` as the training loader (adapters/timm_loader.py). Fixture of our own,
rewriting the shape of sail-sg/poolformer train.py (a copy of timm's train.py: ``-b/--batch-size``,
``-j/--workers``, ``--pin-mem``, ``loader_train = create_loader(dataset_train, input_size=...,
batch_size=args.batch_size, is_training=True, num_workers=args.workers, pin_memory=args.pin_mem)``,
then an eval loader), with silent twins."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

TRAIN = """\
    import argparse
    import torch
    from timm.data import create_dataset, create_loader
    from timm.models import create_model

    parser = argparse.ArgumentParser()
    parser.add_argument('-b', '--batch-size', type=int, default=32)
    parser.add_argument('-j', '--workers', type=int, default=8)
    parser.add_argument('--pin-mem', action='store_true', default=False)

    def main():
        args = parser.parse_args()
        model = create_model('resnet50')
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        dataset_train = create_dataset('', root='data', split='train', is_training=True)
        dataset_eval = create_dataset('', root='data', split='val')
        loader_train = create_loader(dataset_train, input_size=(3, 224, 224), batch_size=args.batch_size,
                                     is_training=True, num_workers=args.workers, pin_memory=args.pin_mem)
        loader_eval = create_loader(dataset_eval, input_size=(3, 224, 224), batch_size=4 * args.batch_size,
                                    is_training=False, num_workers=args.workers)
        for images, target in loader_train:
            loss = torch.nn.functional.cross_entropy(model(images), target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

    if __name__ == '__main__':
        main()
"""


def test_timm_training_loader_gives_batch_workers_and_pinning(cli, tmp_path):
    write(tmp_path, {"train.py": TRAIN})
    plan = plan_of(cli, "--", "python", "train.py", "-b", "128", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert (micro.value, micro.source.kind, micro.adapter) == (128, "cli", "pytorch")
    assert fact(plan, "data.num_workers").value == 8
    assert fact(plan, "data.pin_memory").value is False
    plan = plan_of(cli, "--", "python", "train.py", "--pin-mem", cwd=tmp_path)
    assert (fact(plan, "batch.micro").value, fact(plan, "data.pin_memory").value) == (32, True)


def test_only_an_eval_loader_is_not_the_training_batch(cli, tmp_path):
    # timm's create_loader with is_training=False (the validation loader) says nothing of training
    text = TRAIN.replace("is_training=True, num_workers=args.workers, pin_memory=args.pin_mem",
                         "is_training=False, num_workers=args.workers, pin_memory=args.pin_mem")
    text = text.replace("loader_train = create_loader", "loader_a = create_loader").replace(
        "in loader_train", "in loader_a")
    assert text.count("is_training=False") == 2
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "--", "python", "train.py", "-b", "128", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is None or "timm builds" not in (micro.source.detail or "")

"""Loader options passed through ``**name`` of a dict literal (preflight/call_splat.py, read by every adapter
through ``CallSite.kwarg``). Fixtures are our own small rewrites of real shapes, each citing repository, path
and commit; each must-read test has a twin where the value cannot be told and nothing is claimed."""

from __future__ import annotations

import ast

from plan_helpers import fact, plan_of, write

from preflight.call_splat import keyword_through_splat

# huggingface/pytorch-image-models @ aa4b5850c1543fa488abf260f18390eda46cf85d train.py:689-722 (two dict(...)
# of loader options) and :805-822 (create_loader(dataset, input_size=..., **common_loader_kwargs,
# **train_loader_kwargs)), launched as distributed_train.sh:4 ``torchrun --nproc_per_node=$NUM_PROC train.py "$@"``.
TIMM = {
    "train.py": """\
        import argparse

        import torch
        from timm.data import create_dataset, create_loader

        parser = argparse.ArgumentParser()
        parser.add_argument("-b", "--batch-size", type=int, default=128)
        parser.add_argument("-j", "--workers", type=int, default=4)
        parser.add_argument("--pin-mem", action="store_true", default=False)


        def main():
            args = parser.parse_args()
            model = torch.nn.Linear(4, 4)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            dataset_train = create_dataset("imagenet", root="/data", is_training=True)
            common_loader_kwargs = dict(
                mean=(0.5, 0.5, 0.5),
                pin_memory=args.pin_mem,
                distributed=True,
            )
            train_loader_kwargs = dict(
                batch_size=args.batch_size,
                is_training=True,
                num_workers=args.workers,
            )
            loader_train = create_loader(
                dataset_train,
                input_size=(3, 224, 224),
                **common_loader_kwargs,
                **train_loader_kwargs,
            )
            for x, y in loader_train:
                loss = model(x).sum()
                loss.backward()
                optimizer.step()
                optimizer.zero_grad()


        if __name__ == "__main__":
            main()
    """,
}


def test_loader_options_through_dict_splats_are_read(cli, tmp_path):
    write(tmp_path, TIMM)
    plan = plan_of(cli, "train.py", "--", "-b", "96", "-j", "8", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 96 and micro.confidence == "medium"
    assert fact(plan, "data.num_workers").value == 8
    assert fact(plan, "data.pin_memory").value is False


def test_a_mapping_changed_in_place_or_built_by_a_call_gives_nothing(cli, tmp_path):
    """Twin: the options come from a helper's return value and the other dict is updated afterwards:
    neither can be read, so batch size and workers stay unknown."""
    text = TIMM["train.py"].replace(
        "            train_loader_kwargs = dict(\n"
        "                batch_size=args.batch_size,\n"
        "                is_training=True,\n"
        "                num_workers=args.workers,\n"
        "            )\n",
        "            train_loader_kwargs = loader_options(args)\n").replace(
        "            loader_train = create_loader(",
        "            common_loader_kwargs.update(pin_memory=True)\n            loader_train = create_loader(")
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "train.py", "--", "-b", "96", "-j", "8", cwd=tmp_path)
    assert fact(plan, "batch.micro") is None
    assert fact(plan, "data.num_workers") is None
    assert fact(plan, "data.pin_memory") is None


def _call(src: str) -> tuple[ast.Module, ast.Call]:
    tree = ast.parse(src)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "DataLoader"]
    return tree, calls[0]


def test_the_last_entry_of_a_braced_literal_wins_and_a_later_unknown_splat_hides_it():
    # a {...} literal: a later **other may override silently, so an unreadable one after the key hides it
    tree, call = _call("kw = {'batch_size': 8, 'num_workers': 2}\nkw2 = {**kw, 'batch_size': 16}\n"
                       "loader = DataLoader(ds, **kw2)\n")
    got = keyword_through_splat(tree, call, "batch_size")
    assert isinstance(got, ast.Constant) and got.value == 16
    assert keyword_through_splat(tree, call, "num_workers").value == 2
    tree, call = _call("kw = {'batch_size': 8, **extra}\nloader = DataLoader(ds, **kw)\n")
    assert keyword_through_splat(tree, call, "batch_size") is None


def test_names_bound_twice_in_another_function_or_after_the_call_are_not_read():
    tree, call = _call("kw = dict(batch_size=8)\nif flag:\n    kw = dict(batch_size=4)\n"
                       "loader = DataLoader(ds, **kw)\n")
    assert keyword_through_splat(tree, call, "batch_size") is None
    tree, call = _call("def setup():\n    kw = dict(batch_size=8)\n\n"
                       "def main(kw):\n    return DataLoader(ds, **kw)\n")
    assert keyword_through_splat(tree, call, "batch_size") is None
    tree, call = _call("def main():\n    loader = DataLoader(ds, **kw)\n    kw = dict(batch_size=8)\n")
    assert keyword_through_splat(tree, call, "batch_size") is None


def test_a_rebinding_after_the_call_outside_a_loop_does_not_hide_the_literal():
    # FSoft-AI4Code/XMainframe @ 801033385e04 train_instruct.py:154-171: model_kwargs = dict(...,
    # use_flash_attention_2=...), from_pretrained(..., **model_kwargs) under an if, then model_kwargs = None
    src = ("def main(args):\n    model_kwargs = dict(use_flash_attention_2=args.flash, use_cache=False)\n"
           "    if chatml:\n        model = AutoModelForCausalLM.from_pretrained(path, **model_kwargs)\n"
           "        model_kwargs = None\n    return SFTTrainer(model=model, model_init_kwargs=model_kwargs)\n")
    tree = ast.parse(src)
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "from_pretrained")
    assert ast.unparse(keyword_through_splat(tree, call, "use_flash_attention_2")) == "args.flash"
    # twin: inside a loop the later rebinding reaches the next iteration's call, so nothing is read
    looped = src.replace("    if chatml:\n", "    for _ in range(2):\n")
    tree = ast.parse(looped)
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "from_pretrained")
    assert keyword_through_splat(tree, call, "use_flash_attention_2") is None
    # twin: a change in place before the call still hides the literal
    changed = src.replace("    if chatml:\n", "    model_kwargs['use_flash_attention_2'] = False\n    if chatml:\n")
    tree = ast.parse(changed)
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "from_pretrained")
    assert keyword_through_splat(tree, call, "use_flash_attention_2") is None

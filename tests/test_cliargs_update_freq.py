"""`--update_freq` (accumulation) and `--use_checkpoint` handed to the model (issue 15): a small
script of our own with the shape of MCG-NJU/VideoMAE @ 14ef8d8 run_class_finetuning.py:31,133-134,314
(`--update_freq` default 1; `--use_checkpoint` store_true, `create_model(..., use_checkpoint=
args.use_checkpoint)`)."""

from __future__ import annotations

from plan_helpers import plan_of, winner, write

SCRIPT = """\
    import argparse
    import torch
    from timm.models import create_model

    parser = argparse.ArgumentParser()
    parser.add_argument('--batch_size', default=64, type=int)
    parser.add_argument('--update_freq', default=1, type=int)
    parser.add_argument('--use_checkpoint', action='store_true')
    parser.set_defaults(use_checkpoint=False)
    args = parser.parse_args()
    model = create_model("vit_base_patch16_224", use_checkpoint=args.use_checkpoint)
    loader = torch.utils.data.DataLoader(list(range(10)), batch_size=args.batch_size)
    optimizer = torch.optim.AdamW(model.parameters())
    for step, x in enumerate(loader):
        loss = model(x).mean() / args.update_freq
        loss.backward()
        if (step + 1) % args.update_freq == 0:
            optimizer.step()
    """


def test_update_freq_and_handed_checkpointing(cli, tmp_path):
    write(tmp_path, {"run.py": SCRIPT})
    plan = plan_of(cli, "run.py", "--", "--update_freq", "4", cwd=tmp_path)
    assert winner(plan, "batch.grad_accum") == 4
    assert winner(plan, "memory.gradient_checkpointing") is False
    plan = plan_of(cli, "run.py", "--", "--use_checkpoint", cwd=tmp_path)
    assert winner(plan, "memory.gradient_checkpointing") is True


def test_use_checkpoint_not_handed_to_a_model_is_not_read(cli, tmp_path):
    # a --use_checkpoint that loads weights (not the model's checkpointing switch)
    other = SCRIPT.replace('create_model("vit_base_patch16_224", use_checkpoint=args.use_checkpoint)',
                           'create_model("vit_base_patch16_224")\n    if args.use_checkpoint:\n'
                           '        model.load_state_dict(torch.load("ckpt.pt"))')
    write(tmp_path, {"run.py": other})
    plan = plan_of(cli, "run.py", "--", "--use_checkpoint", cwd=tmp_path)
    assert winner(plan, "memory.gradient_checkpointing") is not True


def test_update_freq_with_a_help_of_its_own_is_not_read_by_name(cli, tmp_path):
    # documented as something else: the name alone does not make it the accumulation count
    write(tmp_path, {"run.py": SCRIPT.replace("parser.add_argument('--update_freq', default=1, type=int)",
                                              "parser.add_argument('--update_freq', default=1, type=int, "
                                              "help='how often to log')")})
    plan = plan_of(cli, "run.py", "--", "--update_freq", "4", cwd=tmp_path)
    # (the loop's own window, ``if (step + 1) % args.update_freq == 0``, does accumulate 4: that reading,
    # adapters/accum_window.py, is the code's, not the option's name)
    assert not [f for f in plan["fields"].get("batch.grad_accum", [])
                if f["value"] == 4 and f["adapter"] != "accum_window"]

"""Set 21's shapes (branch jobs34): fixtures of our own rebuilding the real code's shape, each
with a must-read test and a twin that must stay as before.

- two DataLoaders, neither named train: a prompt loader around a replay-buffer loader whose
  batches are back-propagated (open-thought/tiny-grpo @ eafedd78 ``train.py:239-245`` prompt
  loader with ``batch_size=rollouts_per_step``, ``:317-351`` the replay-buffer loader with
  ``batch_size=train_batch_size`` and ``loss.backward()`` in its loop);
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

GRPO = """\
    import torch
    from torch.utils.data import DataLoader


    def main():
        train_batch_size = 16
        rollouts_per_step = 32
        model = torch.nn.Linear(8, 8).cuda()
        opt = torch.optim.Adam(model.parameters(), lr=1e-5)
        prompts = [torch.randn(8) for _ in range(1024)]
        prompt_loader = DataLoader(prompts, batch_size=rollouts_per_step, shuffle=True, pin_memory=False)
        for prompt_batch in prompt_loader:
            with torch.no_grad():
                buffer = [model(p) for p in prompt_batch]
            experience_sampler = DataLoader(buffer, batch_size=train_batch_size, shuffle=True, num_workers=2)
            for epoch in range(1):
                for exp in experience_sampler:
                    opt.zero_grad()
                    loss = model(exp).sum()
                    loss.backward()
                    opt.step()


    main()
"""


def test_the_loader_whose_loop_backpropagates_gives_the_micro_batch(cli, tmp_path):
    write(tmp_path, {"train.py": GRPO})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 16
    assert fact(plan, "data.num_workers").value == 2


def test_twin_backward_in_the_outer_loop_keeps_the_outer_loader(cli, tmp_path):
    # the inner loader only gathers rollouts; backward runs once per prompt batch
    text = GRPO.replace("""            for epoch in range(1):
                for exp in experience_sampler:
                    opt.zero_grad()
                    loss = model(exp).sum()
                    loss.backward()
                    opt.step()""", """            for exp in experience_sampler:
                buffer.append(exp)
            opt.zero_grad()
            loss = model(prompt_batch).sum()
            loss.backward()
            opt.step()""")
    assert text != GRPO
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 32


def test_twin_a_loader_named_train_still_wins(cli, tmp_path):
    text = GRPO.replace("prompt_loader", "train_prompts")
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 32

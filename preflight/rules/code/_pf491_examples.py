"""PF491 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # accelerate issue 2690: wait_for_everyone only in the else of the main-process save
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for epoch in range(3):
        for batch in loader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        if accelerator.is_main_process:
            accelerator.unwrap_model(model).save_pretrained(f"out/epoch_{epoch}")
        else:
            accelerator.wait_for_everyone()  # error: PF491
"""),
    # torch.distributed: a barrier under `not is_main`, never reached by rank 0
    textwrap.dedent("""
    import torch
    import torch.distributed as dist


    def train(model, loader, optimizer, epochs):
        is_main = dist.get_rank() == 0
        for epoch in range(epochs):
            for x, y in loader:
                optimizer.zero_grad()
                torch.nn.functional.cross_entropy(model(x), y).backward()
                optimizer.step()
            if not is_main:
                dist.barrier()  # error: PF491
            else:
                torch.save(model.state_dict(), "ckpt.pt")
"""),
]

GOOD_EXAMPLES = [
    # the fix: every process waits after the main-process save
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for epoch in range(3):
        for batch in loader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        if accelerator.is_main_process:
            accelerator.unwrap_model(model).save_pretrained(f"out/epoch_{epoch}")
        accelerator.wait_for_everyone()
"""),
    # tricky: "main process first", the barrier on the others first and on the main one after
    textwrap.dedent("""
    import torch.distributed as dist


    def load_and_cache(args, tokenizer):
        if args.local_rank not in [-1, 0]:
            dist.barrier()
        features = build_features(tokenizer)
        if not dist.get_rank() == 0:
            dist.barrier()
        if dist.get_rank() == 0:
            save(features)
            dist.barrier()
        return features
"""),
    # tricky: both branches wait
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator()
    if accelerator.is_main_process:
        prepare_cache()
        accelerator.wait_for_everyone()
    else:
        accelerator.wait_for_everyone()
"""),
    # a metrics object's own gather is not the accelerator's
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator()
    if accelerator.is_main_process:
        print(metric.compute())
    else:
        metric.gather()
"""),
]

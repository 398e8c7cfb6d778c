"""PF471 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # DeepSpeed issue 4834: the engine's optimizer and scheduler saved by torch.save from rank 0
    textwrap.dedent("""
    import deepspeed
    import torch
    import torch.distributed as dist


    def main(args, model, loader, epochs):
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
        model, optimizer, _, scheduler = deepspeed.initialize(args=args, model=model, optimizer=optimizer)
        for epoch in range(epochs):
            for x, y in loader:
                loss = model(x, y)
                model.backward(loss)
                model.step()
            if dist.get_rank() == 0:
                checkpoint = {"epoch": epoch + 1, "optimizer": optimizer.state_dict(),
                              "state_dict": model.module.state_dict()}
                torch.save(checkpoint, "checkpoint.pth")  # warning: PF471
"""),
    # the state dict passed inline; the dict filled key by key before the save
    textwrap.dedent("""
    import deepspeed
    import torch


    def train(cfg, net, params):
        engine, opt, loader, sched = deepspeed.initialize(config=cfg, model=net, model_parameters=params)
        for batch in loader:
            engine.backward(engine(batch))
            engine.step()
        torch.save(opt.state_dict(), "opt.pt")  # warning: PF471
        state = {}
        state["model"] = engine.module.state_dict()
        state["optim"] = opt.state_dict()
        torch.save(state, "last.pt")  # warning: PF471
"""),
]

GOOD_EXAMPLES = [
    # the fix: the engine's own checkpoint on every rank
    textwrap.dedent("""
    import deepspeed
    import torch


    def main(args, model, loader, epochs):
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
        model, optimizer, _, scheduler = deepspeed.initialize(args=args, model=model, optimizer=optimizer)
        for epoch in range(epochs):
            for x, y in loader:
                model.backward(model(x, y))
                model.step()
            model.save_checkpoint("checkpoints", client_state={"epoch": epoch + 1})
"""),
    # tricky-correct: only the weights saved (a weights file for inference, ZeRO-2);
    # the optimizer of the engine discarded; a torch optimizer of another function saved
    textwrap.dedent("""
    import deepspeed
    import torch


    def export(args, model):
        engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
        torch.save(engine.module.state_dict(), "weights.pt")


    def baseline(model, loader):
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for x, y in loader:
            optimizer.zero_grad()
            model(x, y).backward()
            optimizer.step()
        torch.save({"optimizer": optimizer.state_dict()}, "baseline.pt")
"""),
    # tricky-correct: a script that picks DeepSpeed or plain torch; the torch branch's own
    # optimizer is saved in another function
    textwrap.dedent("""
    import deepspeed
    import torch


    def build(args, model):
        if args.deepspeed:
            model, optimizer, _, _ = deepspeed.initialize(args=args, model=model,
                                                         model_parameters=model.parameters())
            return model, optimizer
        return model, torch.optim.AdamW(model.parameters())


    def save(model, optimizer, path):
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, path)
"""),
]

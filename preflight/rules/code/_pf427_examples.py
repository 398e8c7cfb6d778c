"""PF427 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF427_BAD = [
    # DeepSpeed issue 2327: the engine's checkpoint saved by rank 0 alone
    textwrap.dedent("""
    import deepspeed
    import torch


    def main(args, model, train_set):
        engine, _, loader, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters(),
                                                    training_data=train_set)
        for step, (x, y) in enumerate(loader):
            engine.backward(torch.nn.functional.cross_entropy(engine(x), y))
            engine.step()
            if torch.distributed.get_rank() == 0:
                engine.save_checkpoint(args.save_dir, tag=f"step{step}")  # error: PF427
"""),
    # DeepSpeed-Chat: a helper that gathers ZeRO-3 parameters, called under a rank-0 condition
    textwrap.dedent("""
    import os

    import deepspeed
    import torch


    def save_zero_three_model(model, global_rank, save_dir):
        state = {}
        for k, v in model.named_parameters():
            with deepspeed.zero.GatheredParameters([v], enabled=True):
                state[k] = v.data.cpu()
        if global_rank == 0:
            torch.save(state, os.path.join(save_dir, "pytorch_model.bin"))


    def train(model, loader, args):
        for step, batch in enumerate(loader):
            model.backward(model(**batch).loss)
            model.step()
            if (step + 1) % args.save_steps == 0 and args.global_rank == 0:
                save_zero_three_model(model, args.global_rank, args.output_dir)  # error: PF427
"""),
    # an engine passed in and saved by a helper called from a rank_zero_only hook
    textwrap.dedent("""
    from lightning.pytorch.utilities import rank_zero_only


    def save(engine, path):
        engine.save_checkpoint(path)


    @rank_zero_only
    def on_end(engine):
        save(engine, "final")  # error: PF427
"""),
    # allennlp PR 4693: a checkpointer object whose method saves the trainer's engine, called only
    # `if self._master` (a flag the trainer set from its rank)
    textwrap.dedent("""
    import deepspeed
    import torch


    class DeepspeedCheckpointer:
        def __init__(self, serialization_dir):
            self._serialization_dir = serialization_dir

        def save_checkpoint(self, epoch, trainer):
            trainer.model_engine.save_checkpoint(self._serialization_dir, f"epoch_{epoch}")


    class DeepspeedTrainer:
        def __init__(self, model, loader, args, serialization_dir):
            self.model_engine, self.optimizer, _, _ = deepspeed.initialize(
                args=args, model=model, model_parameters=model.parameters())
            self.loader = loader
            self._rank = torch.distributed.get_rank()
            self._master = self._rank == 0
            self._checkpointer = DeepspeedCheckpointer(serialization_dir)

        def train(self, epochs):
            for epoch in range(epochs):
                for batch in self.loader:
                    self.model_engine.backward(self.model_engine(**batch)["loss"])
                    self.model_engine.step()
                if self._master and self._checkpointer is not None:
                    self._checkpointer.save_checkpoint(epoch, self)  # error: PF427
"""),
]

PF427_GOOD = [
    # every rank saves the engine; rank 0 alone writes its own metadata
    textwrap.dedent("""
    import json

    import deepspeed
    import torch


    def main(args, model, train_set, epochs=2):
        engine, _, loader, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters(),
                                                    training_data=train_set)
        for epoch in range(epochs):
            for x, y in loader:
                engine.backward(torch.nn.functional.cross_entropy(engine(x), y))
                engine.step()
            engine.save_checkpoint(args.output_dir, tag=f"epoch{epoch}")
            if engine.global_rank == 0:
                with open("meta.json", "w") as f:
                    json.dump({"epoch": epoch}, f)
"""),
    # DeepSpeed-Chat main.py: the gather helper called on every rank under a ZeRO-stage test;
    # a project's own save_checkpoint function and torch.save on rank 0 are no collectives
    textwrap.dedent("""
    import deepspeed
    import torch


    def save_zero_three_model(model, global_rank, save_dir):
        for k, v in model.named_parameters():
            with deepspeed.zero.GatheredParameters([v], enabled=True):
                pass


    def save_checkpoint(model, path):
        torch.save(model.state_dict(), path)


    def end(model, args):
        if args.zero_stage == 3:
            save_zero_three_model(model, args.global_rank, args.output_dir)
        if args.local_rank in [-1, 0]:
            save_checkpoint(model, "last.pt")
            torch.save(model.state_dict(), "model.pt")
            model.save_pretrained(args.output_dir)
"""),
    # both branches call it; the gather inside the guard of rank 0 (DeepSpeed's modifier_rank idiom)
    textwrap.dedent("""
    import deepspeed
    import torch.distributed as dist


    def end(engine, model, path):
        if dist.get_rank() == 0:
            engine.save_checkpoint(path, tag="rank0")
        else:
            engine.save_checkpoint(path, tag="rank0")
        with deepspeed.zero.GatheredParameters(model.weight, modifier_rank=0):
            if dist.get_rank() == 0:
                model.weight.zero_()
"""),
    # Lightning's trainer.save_checkpoint (a barrier only since 2.1) is not judged
    textwrap.dedent("""
    import lightning as L


    class SaveEvery(L.Callback):
        def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
            if trainer.is_global_zero and batch_idx % 1000 == 0:
                trainer.save_checkpoint(f"step{batch_idx}.ckpt")
"""),
    # the fix: every rank calls the checkpointer; a flag that is not a rank test guards nothing
    textwrap.dedent("""
    import deepspeed
    import torch


    class DeepspeedCheckpointer:
        def __init__(self, serialization_dir):
            self._serialization_dir = serialization_dir

        def save_checkpoint(self, epoch, trainer):
            trainer.model_engine.save_checkpoint(self._serialization_dir, f"epoch_{epoch}")


    class DeepspeedTrainer:
        def __init__(self, model, loader, args, serialization_dir):
            self.model_engine, self.optimizer, _, _ = deepspeed.initialize(
                args=args, model=model, model_parameters=model.parameters())
            self.loader = loader
            self._master = torch.distributed.get_rank() == 0
            self._save_every = args.save_every > 0
            self._checkpointer = DeepspeedCheckpointer(serialization_dir)

        def train(self, epochs):
            for epoch in range(epochs):
                for batch in self.loader:
                    self.model_engine.backward(self.model_engine(**batch)["loss"])
                    self.model_engine.step()
                if self._checkpointer is not None:
                    self._checkpointer.save_checkpoint(epoch, self)
                if self._save_every:
                    self._checkpointer.save_checkpoint(epoch, self)
                if self._master:
                    print("saved", epoch)
"""),
    # open-instruct vllm_utils: a flag that is also bound to "not distributed, or rank 0" (the
    # single-GPU path) is not taken for a rank-0 guard
    textwrap.dedent("""
    import deepspeed
    import torch


    def gather_all(model):
        with deepspeed.zero.GatheredParameters(list(model.parameters())):
            return {k: v.cpu() for k, v in model.state_dict().items()}


    def sync(model, group):
        is_rank_0 = torch.distributed.get_rank() == 0
        return is_rank_0


    def broadcast(model, group):
        is_rank_0 = not torch.distributed.is_initialized() or torch.distributed.get_rank() == 0
        if group is None and is_rank_0:
            return gather_all(model)
"""),
]

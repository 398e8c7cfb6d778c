"""PF157 examples: small projects (``# --- <path>`` sections); bad ones must fire at the marked line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import json
    import os

    import torch.distributed as dist
    from torch.utils.data import IterableDataset, get_worker_info
    from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments


    class ShardStream(IterableDataset):{mark}
        def __init__(self, files, tok):
            self.files = files
            self.tok = tok
            {rank}
            self.world = int(os.environ.get("WORLD_SIZE", 1))

        def __iter__(self):
            {body}


    def main():
        tok = AutoTokenizer.from_pretrained("gpt2")
        model = AutoModelForCausalLM.from_pretrained("gpt2")
        files = sorted(os.listdir("shards"))
        args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, max_steps=1000{extra})
        data = ShardStream(files, tok)
        Trainer(model=model, args=args, train_dataset=data).train()


    if __name__ == "__main__":
        main()
    """)

_ENV_RANK = 'self.rank = int(os.environ.get("RANK", 0))'
_SLICE = ('for path in self.files[self.rank::self.world]:\n'
          '            for line in open(path):\n'
          '                yield self.tok(json.loads(line)["text"])')
_MOD = ('for i, path in enumerate(self.files):\n'
        '            if i % self.world == self.rank:\n'
        '                yield self.tok(open(path).read())')
_WORKER = ('info = get_worker_info()\n'
           '        wid, nw = (info.id, info.num_workers) if info else (0, 1)\n'
           '        for path in self.files[wid::nw]:\n'
           '            yield self.tok(open(path).read())')
_MARK = "  # warning: PF157"


def _req(version: str) -> str:
    return f"# --- requirements.txt\ntransformers=={version}\naccelerate==0.21.0\n"


_LAUNCH = "# --- launch\ntorchrun --nproc_per_node 4 train.py\n"

BAD = [
    # transformers issue 24999: files[rank::world] under 4.31's dispatching Trainer
    _TRAIN.format(mark=_MARK, rank=_ENV_RANK, body=_SLICE, extra="") + _req("4.31.0") + _LAUNCH,
    # a modulo filter on dist.get_rank(), a later release
    _TRAIN.format(mark=_MARK, rank="self.rank = dist.get_rank()", body=_MOD, extra="") + _req("4.40.2") + _LAUNCH,
]

GOOD = [
    # dispatch_batches=False: every process iterates its own stream
    _TRAIN.format(mark="", rank=_ENV_RANK, body=_SLICE, extra=", dispatch_batches=False") + _req("4.32.0") + _LAUNCH,
    # the later spelling, through accelerator_config
    _TRAIN.format(mark="", rank=_ENV_RANK, body=_SLICE,
                  extra=', accelerator_config={"dispatch_batches": False}') + _req("4.40.2") + _LAUNCH,
    # tricky: sharding by DataLoader worker is kept by dispatching (the rank only read, not used)
    _TRAIN.format(mark="", rank=_ENV_RANK, body=_WORKER, extra="") + _req("4.31.0") + _LAUNCH,
    # one process: nothing is dispatched to other ranks
    _TRAIN.format(mark="", rank=_ENV_RANK, body=_SLICE, extra="") + _req("4.31.0")
    + "# --- launch\npython train.py\n",
    # transformers 4.30: the Trainer did not prepare its loaders with Accelerate yet
    _TRAIN.format(mark="", rank=_ENV_RANK, body=_SLICE, extra="") + _req("4.30.2") + _LAUNCH,
]

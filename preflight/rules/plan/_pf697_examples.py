"""PF697 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# huggingface/accelerate issue 116's shape: a two-tower retrieval model, mean pooling over the token
# states of two BERT encoders, prepared by accelerate for two processes
_TWO_TOWER = dedent("""
    # --- main.py
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    from accelerate import Accelerator{imports}
    from transformers import AutoModel


    class TwoTower(nn.Module):
        def __init__(self, name="{name}"):
            super().__init__()
            self.query_encoder = AutoModel.from_pretrained(name{load})
            self.doc_encoder = AutoModel.from_pretrained(name{load})

        @staticmethod
        def mean_pool(out, mask):
            h = out.{read} * mask.unsqueeze(-1)
            return h.sum(1) / mask.sum(1, keepdim=True)

        def forward(self, q_ids, q_mask, d_ids, d_mask):
            q = self.mean_pool(self.query_encoder(input_ids=q_ids, attention_mask=q_mask), q_mask)
            d = self.mean_pool(self.doc_encoder(input_ids=d_ids, attention_mask=d_mask), d_mask)
            scores = F.normalize(q, dim=-1) @ F.normalize(d, dim=-1).T / 0.05
            return F.cross_entropy(scores, torch.arange(q.size(0), device=q.device))


    def main(loader):
        accelerator = Accelerator({handlers})
        model = TwoTower({arg})
        optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader){pin}
        for batch in loader:
            accelerator.backward(model(**batch))
            optimizer.step()
            optimizer.zero_grad()
    # --- launch
    {launch}
    """)

_LAUNCH = "accelerate launch --multi_gpu --num_processes 2 main.py"


def _two_tower(name="bert-base-uncased", load="", read="last_hidden_state", handlers="", imports="", arg="",
               pin="  # error: PF697", launch=_LAUNCH):
    return _TWO_TOWER.format(name=name, load=load, read=read, handlers=handlers, imports=imports, arg=arg,
                             pin=pin, launch=launch)


# torch DDP under torchrun: a token-classification head on BertModel's sequence output ([0])
_DDP = dedent("""
    # --- train.py
    import os

    import torch
    import torch.distributed as dist
    from torch import nn
    from torch.nn.parallel import DistributedDataParallel as DDP
    from transformers import BertModel


    class Tagger(nn.Module):
        def __init__(self, num_tags):
            super().__init__()
            self.bert = BertModel.from_pretrained("bert-base-cased"{load})
            self.head = nn.Linear(768, num_tags)

        def forward(self, input_ids, attention_mask):
            seq = self.bert(input_ids, attention_mask=attention_mask)[{index}]
            return self.head(seq)


    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    model = Tagger(9).cuda()
    model = DDP(model, device_ids=[local_rank]{ddp}){pin}
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5)
    # --- launch
    torchrun --nproc_per_node 4 train.py
    """)

PF697_BAD = [
    _two_tower(),
    # the checkpoint is a module constant, the encoder output read through a local name
    dedent("""
    # --- train.py
    import torch
    from torch import nn
    from accelerate import Accelerator
    from transformers import AutoModel

    MODEL = "BAAI/bge-base-en-v1.5"


    class Embedder(nn.Module):
        def __init__(self):
            super().__init__()
            self.encoder = AutoModel.from_pretrained(MODEL)
            self.proj = nn.Linear(768, 256)

        def forward(self, input_ids, attention_mask):
            out = self.encoder(input_ids=input_ids, attention_mask=attention_mask)
            cls = out.last_hidden_state[:, 0]
            return self.proj(cls)


    accelerator = Accelerator()
    model = Embedder()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    model, optimizer = accelerator.prepare(model, optimizer)  # error: PF697
    # --- launch
    accelerate launch --num_processes 8 --multi_gpu train.py
    """),
    _DDP.format(load="", index=0, ddp="", pin="  # error: PF697"),
]

PF697_GOOD = [
    # the fix of the report: DDP looks for the unused parameters
    _two_tower(handlers="kwargs_handlers=[DistributedDataParallelKwargs(find_unused_parameters=True)]",
               imports=", DistributedDataParallelKwargs", pin=""),
    # the other fix: the towers are loaded without the pooler
    _two_tower(load=", add_pooling_layer=False", pin=""),
    # tricky: one process, no DDP wrapper
    _two_tower(pin="", launch="accelerate launch --num_processes 1 main.py"),
    # tricky: the loss uses the pooler output, every parameter gets a gradient
    _two_tower(read="pooler_output", pin=""),
    # tricky: DistilBERT has no pooler
    _two_tower(name="distilbert-base-uncased", pin=""),
    # tricky: the class is built with a checkpoint other than its default (not read)
    _two_tower(arg="args.model_name", pin=""),
    # tricky: the checkpoint is given by keyword at construction (not read)
    _two_tower(arg="name=os.environ['MODEL']", pin=""),
    # the DDP fixes
    _DDP.format(load="", index=0, ddp=", find_unused_parameters=True", pin=""),
    _DDP.format(load=", add_pooling_layer=False", index=0, ddp="", pin=""),
    # tricky: the tagger reads the pooled output ([1]) too
    _DDP.format(load="", index=1, ddp="", pin=""),
]

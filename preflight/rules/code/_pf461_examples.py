"""PF461 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # DeepSpeed issue 131: the config's global batch read back from the JSON for the loader
    textwrap.dedent("""
    import argparse
    import json

    import deepspeed
    from torch.utils.data import DataLoader
    from torch.utils.data.distributed import DistributedSampler


    def main(net, trainset, criterion):
        parser = argparse.ArgumentParser()
        parser = deepspeed.add_config_arguments(parser)
        args = parser.parse_args()
        with open(args.deepspeed_config) as f:
            ds_config = json.load(f)
        engine, optimizer, _, _ = deepspeed.initialize(args=args, model=net, model_parameters=net.parameters())
        sampler = DistributedSampler(trainset)
        trainloader = DataLoader(trainset, batch_size=ds_config["train_batch_size"], sampler=sampler)  # warning: PF461
        for inputs, labels in trainloader:
            engine.backward(criterion(engine(inputs), labels))
            engine.step()
"""),
    # the engine's own global batch, and a config dict of any name given to deepspeed.initialize
    textwrap.dedent("""
    import deepspeed
    from torch.utils.data import DataLoader, DistributedSampler


    def train(model, dataset, collate_fn, settings):
        model_engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                                     config=settings)
        dataloader = DataLoader(dataset, batch_size=model_engine.train_batch_size(),  # warning: PF461
                                sampler=DistributedSampler(dataset), collate_fn=collate_fn)
        other = DataLoader(dataset, batch_size=settings.get("train_batch_size"), sampler=DistributedSampler(dataset))  # warning: PF461
        for batch in dataloader:
            model_engine.backward(model_engine(**batch).loss)
            model_engine.step()
        return other
"""),
]

GOOD_EXAMPLES = [
    # the fix: the per-rank micro-batch
    textwrap.dedent("""
    import json

    import deepspeed
    from torch.utils.data import DataLoader, DistributedSampler


    def main(args, net, trainset, valset):
        with open(args.deepspeed_config) as f:
            ds_config = json.load(f)
        engine, _, _, _ = deepspeed.initialize(args=args, model=net, model_parameters=net.parameters())
        trainloader = DataLoader(trainset, batch_size=ds_config["train_micro_batch_size_per_gpu"],
                                 sampler=DistributedSampler(trainset))
        loader2 = DataLoader(trainset, batch_size=engine.train_micro_batch_size_per_gpu())
        per_rank = DataLoader(trainset, batch_size=ds_config["train_batch_size"] // engine.world_size)
        val_loader = DataLoader(valset, batch_size=ds_config["train_batch_size"])
        return trainloader, loader2, per_rank, val_loader
"""),
    # a project's own config whose train_batch_size is per device (not a DeepSpeed config)
    textwrap.dedent("""
    import deepspeed
    import yaml
    from torch.utils.data import DataLoader, DistributedSampler


    def main(model, dataset, ds_config):
        cfg = yaml.safe_load(open("train.yaml"))
        loader = DataLoader(dataset, batch_size=cfg["train_batch_size"], sampler=DistributedSampler(dataset))
        engine, _, _, _ = deepspeed.initialize(model=model, config=ds_config)
        return engine, loader
"""),
    # no DeepSpeed in the file
    textwrap.dedent("""
    from torch.utils.data import DataLoader


    def build(dataset, ds_args):
        return DataLoader(dataset, batch_size=ds_args["train_batch_size"], shuffle=True)
"""),
]

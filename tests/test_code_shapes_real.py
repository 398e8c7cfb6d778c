"""Issue 18 section 2: the shapes whose test had no real-code source before (docs/corpus.md,
"Issue 18 section 2: every shape, its real-code test"), each reduced from a cited file of a
public repository at a pinned commit. The programs are short rewrites that keep the real
shape (no third-party file is copied in); each test states what a user sees."""

from __future__ import annotations

import textwrap
from pathlib import Path

from preflight.engine import Selection, analyse_parsed
from preflight.sources import SourceText, parse_python


def findings(text: str, codes: tuple[str, ...]) -> list[tuple[str, int]]:
    text = textwrap.dedent(text)
    src = SourceText(path=Path("train.py"), display="train.py", kind="python", raw=text.encode(), text=text)
    return [(f.code, f.span.line) for f in analyse_parsed(parse_python(src), Selection(codes=codes))
            if f.code in codes]


# real-stanford/diffusion_policy@5ba07ac6661db573af695b419a7947ecb704690f
# diffusion_policy/workspace/train_diffusion_unet_lowdim_workspace.py:50-58,75-77,155-185:
# `self.model = hydra.utils.instantiate(cfg.policy)`, `self.optimizer = hydra.utils.instantiate(
# cfg.optimizer, params=self.model.parameters())`, the dataset from `instantiate(cfg.task.dataset)`;
# `raw_loss = self.model.compute_loss(batch)`, `loss = raw_loss / cfg.training.gradient_accumulate_every`,
# backward, the step under `if self.global_step % ... == 0`, and `raw_loss.item()` kept for logging.
DIFFUSION_POLICY = """
import hydra
import torch
from torch.utils.data import DataLoader


class TrainDiffusionUnetLowdimWorkspace:
    def __init__(self, cfg):
        self.cfg = cfg
        self.model = hydra.utils.instantiate(cfg.policy)
        self.optimizer = hydra.utils.instantiate(
            cfg.optimizer, params=self.model.parameters())
        self.global_step = 0

    def run(self):
        cfg = self.cfg
        dataset = hydra.utils.instantiate(cfg.task.dataset)
        train_dataloader = DataLoader(dataset, **cfg.dataloader)
        for local_epoch_idx in range(cfg.training.num_epochs):
            train_losses = list()
            for batch_idx, batch in enumerate(train_dataloader):
                raw_loss = self.model.compute_loss(batch)
                loss = raw_loss / cfg.training.gradient_accumulate_every
                loss.backward()
                if self.global_step % cfg.training.gradient_accumulate_every == 0:
                    self.optimizer.step()
                    self.optimizer.zero_grad()
                train_losses.append(raw_loss.item())
                self.global_step += 1
"""
DP_CODES = ("PF101", "PF103", "PF104", "PF108", "PF109")


def test_hydra_built_workspace_as_written_is_silent():
    assert findings(DIFFUSION_POLICY, DP_CODES) == []


def test_hydra_built_optimizer_without_zero_grad_is_reported():
    without = DIFFUSION_POLICY.replace("                    self.optimizer.zero_grad()\n", "")
    assert findings(without, DP_CODES) == [("PF103", 26)]


def test_hydra_built_model_loss_left_undivided_is_reported():
    # the model's own `compute_loss` is handed the batch, not the window: it cannot divide
    undivided = DIFFUSION_POLICY.replace("raw_loss / cfg.training.gradient_accumulate_every", "raw_loss")
    assert findings(undivided, DP_CODES) == [("PF108", 24)]
    # handed the window, it may divide unseen: silent
    handed = undivided.replace("compute_loss(batch)", "compute_loss(batch, cfg.training.gradient_accumulate_every)")
    assert findings(handed, DP_CODES) == []


def test_hydra_built_model_loss_kept_with_its_graph_is_reported():
    # `raw_loss` reaches backward through `loss = raw_loss / N`: it carries the graph
    kept = DIFFUSION_POLICY.replace("train_losses.append(raw_loss.item())", "train_losses.append(raw_loss)")
    assert findings(kept, DP_CODES) == [("PF101", 28)]
    # a dividend kept after `.detach()` carries none
    detached = DIFFUSION_POLICY.replace("train_losses.append(raw_loss.item())",
                                        "train_losses.append(raw_loss.detach())")
    assert findings(detached, DP_CODES) == []


# Lightning-AI/pytorch-lightning@7f0c3436cd3f6ad3753125672024fc415cbcb414
# examples/pytorch/domain_templates/computer_vision_fine_tuning.py:207-238:
# `self.loss_func = F.binary_cross_entropy_with_logits`, a `loss(self, logits, labels)` method
# calling it, and `training_step` taking `torch.sigmoid(y_logits)` for the accuracy only.
LIT_FINETUNE = """
import torch
import torch.nn.functional as F
from torch import nn, optim
import lightning as L


class TransferLearningModel(L.LightningModule):
    def __init__(self, lr=1e-3):
        super().__init__()
        self.lr = lr
        self.feature_extractor = nn.Sequential(nn.Conv2d(3, 2048, 3), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Sequential(nn.Linear(2048, 256), nn.ReLU(), nn.Linear(256, 32), nn.Linear(32, 1))
        self.loss_func = F.binary_cross_entropy_with_logits

    def forward(self, x):
        x = self.feature_extractor(x)
        x = x.squeeze(-1).squeeze(-1)
        return self.fc(x)

    def loss(self, logits, labels):
        return self.loss_func(input=logits, target=labels)

    def training_step(self, batch, batch_idx):
        x, y = batch
        y_logits = self.forward(x)
        y_scores = torch.sigmoid(y_logits)
        y_true = y.view((-1, 1)).type_as(x)
        train_loss = self.loss(y_logits, y_true)
        self.log("train_acc", (y_scores.round() == y_true).float().mean())
        return train_loss

    def configure_optimizers(self):
        return optim.Adam(self.parameters(), lr=self.lr)
"""


def test_loss_alias_of_a_real_lightning_example_as_written_is_silent():
    # the sigmoid feeds the metric only; the alias gets the logits
    assert findings(LIT_FINETUNE, ("PF112", "PF113")) == []


def test_sigmoid_scores_fed_to_the_loss_alias_are_reported():
    direct = LIT_FINETUNE.replace("train_loss = self.loss(y_logits, y_true)",
                                  "train_loss = self.loss_func(y_scores, y_true)")
    assert findings(direct, ("PF112",)) == [("PF112", 29)]
    # through the `loss` method that wraps the alias: reported where the alias is called
    wrapped = LIT_FINETUNE.replace("train_loss = self.loss(y_logits, y_true)",
                                   "train_loss = self.loss(y_scores, y_true)")
    assert findings(wrapped, ("PF112",)) == [("PF112", 22)]


# Lightning-AI/pytorch-lightning@7f0c3436cd3f6ad3753125672024fc415cbcb414
# examples/pytorch/basics/backbone_image_classifier.py:38-98: `LitClassifier.__init__(self, backbone:
# Optional[Backbone] = None, ...)` builds `Backbone()` when none is given (LightningCLI builds it
# from the annotation otherwise); `forward` returns `self.backbone(x)` and every `*_step` feeds
# `self(x)` to `F.cross_entropy`. The real `Backbone.forward` ends in `torch.relu(self.l2(x))`.
LIT_BACKBONE = """
from typing import Optional

import torch
import torch.nn.functional as F
from lightning.pytorch import LightningModule


class Backbone(torch.nn.Module):
    def __init__(self, hidden_dim=128):
        super().__init__()
        self.l1 = torch.nn.Linear(28 * 28, hidden_dim)
        self.l2 = torch.nn.Linear(hidden_dim, 10)

    def forward(self, x):
        x = x.view(x.size(0), -1)
        x = torch.relu(self.l1(x))
        return torch.relu(self.l2(x))


class LitClassifier(LightningModule):
    def __init__(self, backbone: Optional[Backbone] = None, learning_rate: float = 0.0001):
        super().__init__()
        self.save_hyperparameters(ignore=["backbone"])
        if backbone is None:
            backbone = Backbone()
        self.backbone = backbone

    def forward(self, x):
        return self.backbone(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        y_hat = self(x)
        loss = F.cross_entropy(y_hat, y)
        self.log("train_loss", loss, on_epoch=True)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        y_hat = self(x)
        loss = F.cross_entropy(y_hat, y)
        self.log("valid_loss", loss, on_step=True)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.learning_rate)
"""


def test_self_call_through_an_optional_annotated_backbone_as_written_is_silent():
    assert findings(LIT_BACKBONE, ("PF112", "PF114")) == []


def test_self_call_through_an_optional_annotated_backbone_reaches_its_softmax():
    softmax = LIT_BACKBONE.replace("return torch.relu(self.l2(x))", "return torch.softmax(self.l2(x), dim=1)")
    assert findings(softmax, ("PF112",)) == [("PF112", 35), ("PF112", 42)]
    # a backbone the caller passes in without an annotation is unknown: silent
    untyped = softmax.replace("backbone: Optional[Backbone] = None", "backbone=None")
    assert findings(untyped, ("PF112",)) == []


# microsoft/DeepSpeedExamples@83757d9c937daabd1089a08051061706cb73900d
# training/HelloDeepSpeed/train_bert.py:358-406 (`create_model(num_layers, num_heads, ff_dim, h_dim,
# dropout)` builds `RobertaMLMModel(roberta_config, roberta_encoder)`, a local subclass of
# `RobertaPreTrainedModel` whose forward returns the MLM loss, and returns it) and :715-760
# (`model = create_model(...)`, `torch.optim.Adam(model.parameters())`, the step loop keeping
# `loss.item()`). The evaluation pass after the loop is added here: the file has none.
HELLO_DS = '''
import torch
from transformers import RobertaConfig, RobertaModel
from transformers.models.roberta.modeling_roberta import RobertaPreTrainedModel, RobertaLMHead


class RobertaMLMModel(RobertaPreTrainedModel):
    def __init__(self, config, encoder):
        super().__init__(config)
        self.encoder = encoder
        self.lm_head = RobertaLMHead(config)

    def forward(self, src_tokens, attention_mask, tgt_tokens):
        sequence_output, *_ = self.encoder(input_ids=src_tokens, attention_mask=attention_mask)
        prediction_scores = self.lm_head(sequence_output)
        return torch.nn.functional.cross_entropy(prediction_scores.view(-1, prediction_scores.size(-1)),
                                                 tgt_tokens.view(-1))


def create_model(num_layers, num_heads, ff_dim, h_dim, dropout):
    roberta_config = RobertaConfig(num_hidden_layers=num_layers, num_attention_heads=num_heads,
                                   intermediate_size=ff_dim, hidden_size=h_dim,
                                   hidden_dropout_prob=dropout, attention_probs_dropout_prob=dropout)
    roberta_encoder = RobertaModel(roberta_config)
    roberta_model = RobertaMLMModel(roberta_config, roberta_encoder)
    return roberta_model


def train(data_iterator, val_iterator, num_iterations, device):
    model = create_model(num_layers=6, num_heads=8, ff_dim=512, h_dim=256, dropout=0.1)
    model = model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    model.train()
    losses = []
    for step, batch in enumerate(data_iterator):
        if step >= num_iterations:
            break
        optimizer.zero_grad()
        for key, value in batch.items():
            batch[key] = value.to(device)
        loss = model(**batch)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    model.eval()
    val_losses = []
    for batch in val_iterator:
        val_losses.append(model(**batch).item())
    return losses, val_losses
'''


def test_model_built_by_a_real_local_factory_as_written_is_silent():
    with_no_grad = HELLO_DS.replace("    for batch in val_iterator:\n",
                                    "    with torch.no_grad():\n      for batch in val_iterator:\n")
    assert findings(with_no_grad, ("PF101", "PF103", "PF110")) == []


def test_model_built_by_a_real_local_factory_is_followed_by_the_rules():
    # evaluation after `model.eval()` without no_grad: the factory's model records a graph
    assert findings(HELLO_DS, ("PF101", "PF103", "PF110")) == [("PF110", 48)]
    kept = HELLO_DS.replace("losses.append(loss.item())", "losses.append(loss)")
    assert ("PF101", 44) in findings(kept, ("PF101",))
    no_zero_grad = HELLO_DS.replace("        optimizer.zero_grad()\n", "")
    assert findings(no_zero_grad, ("PF103",)) == [("PF103", 42)]


def test_model_built_inline_from_a_local_transformers_class_is_followed_by_pf110():
    # the same script with the model built directly (`RobertaMLMModel(...)` instead of `create_model(...)`):
    # a local class deriving from transformers' `RobertaPreTrainedModel` is an nn.Module
    inline = HELLO_DS.replace(
        "model = create_model(num_layers=6, num_heads=8, ff_dim=512, h_dim=256, dropout=0.1)",
        "model = RobertaMLMModel(RobertaConfig(num_hidden_layers=6), RobertaModel(RobertaConfig(num_hidden_layers=6)))")
    assert inline != HELLO_DS
    assert findings(inline, ("PF101", "PF103", "PF110")) == [("PF110", 48)]
    with_no_grad = inline.replace("    for batch in val_iterator:\n",
                                  "    with torch.no_grad():\n      for batch in val_iterator:\n")
    assert findings(with_no_grad, ("PF101", "PF103", "PF110")) == []


# pytorch/examples@77f55b912142e11fcfdf5b530231fb9c52f181e8 gcn/main.py:168-197,250-255: `train_iter`
# trains one step and calls `test(model, ...)` on the training and validation masks; `test` calls
# `model.eval()` and runs its one full-graph forward under `torch.no_grad()`; the epoch loop at module
# level calls `train_iter`, and `test` runs once more after it. The shapes reported: `no_grad` left out
# (the helper evaluates every epoch), and `eval()` moved into the caller.
GCN = '''
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim import Adam


class GCN(nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim, dropout_p=0.1):
        super().__init__()
        self.gc1 = nn.Linear(input_dim, hidden_dim)
        self.gc2 = nn.Linear(hidden_dim, output_dim)
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, input_tensor, adj_mat):
        x = F.relu(self.gc1(adj_mat @ input_tensor))
        x = self.dropout(x)
        return F.log_softmax(self.gc2(adj_mat @ x), dim=1)


def train_iter(epoch, model, optimizer, criterion, input, target, mask_train, mask_val, print_every=10):
    start_t = time.time()
    model.train()
    optimizer.zero_grad()
    output = model(*input)
    loss = criterion(output[mask_train], target[mask_train])
    loss.backward()
    optimizer.step()
    loss_train, acc_train = test(model, criterion, input, target, mask_train)
    loss_val, acc_val = test(model, criterion, input, target, mask_val)
    if epoch % print_every == 0:
        print(f"Epoch: {epoch:04d} ({(time.time() - start_t):.4f}s) loss_train: {loss_train:.4f} "
              f"acc_train: {acc_train:.4f} loss_val: {loss_val:.4f} acc_val: {acc_val:.4f}")


def test(model, criterion, input, target, mask):
    model.eval()
    with torch.no_grad():
        output = model(*input)
        output, target = output[mask], target[mask]
        loss = criterion(output, target)
        acc = (output.argmax(dim=1) == target).float().sum() / len(target)
    return loss.item(), acc.item()


if __name__ == "__main__":
    features, labels, adj_mat = load_cora()
    idx = torch.randperm(len(labels))
    idx_test, idx_val, idx_train = idx[:1000], idx[1000:1500], idx[1500:]
    gcn = GCN(features.shape[1], 16, labels.max().item() + 1)
    optimizer = Adam(gcn.parameters(), lr=0.01, weight_decay=5e-4)
    criterion = nn.NLLLoss()
    for epoch in range(200):
        train_iter(epoch + 1, gcn, optimizer, criterion, (features, adj_mat), labels, idx_train, idx_val, 20)
    loss_test, acc_test = test(gcn, criterion, (features, adj_mat), labels, idx_test)
    print(f"Test set results: loss {loss_test:.4f} accuracy {acc_test:.4f}")
'''


def _gcn_without_no_grad(text: str) -> str:
    out = text.replace("""    with torch.no_grad():
        output = model(*input)
        output, target = output[mask], target[mask]
        loss = criterion(output, target)
        acc = (output.argmax(dim=1) == target).float().sum() / len(target)
""", """    output = model(*input)
    output, target = output[mask], target[mask]
    loss = criterion(output, target)
    acc = (output.argmax(dim=1) == target).float().sum() / len(target)
""")
    assert out != text
    return out


def _gcn_eval_in_the_caller(text: str) -> str:
    out = text.replace("""def test(model, criterion, input, target, mask):
    model.eval()
""", """def test(model, criterion, input, target, mask):
""").replace("""    optimizer.step()
    loss_train""", """    optimizer.step()
    model.eval()
    loss_train""").replace("""    loss_test, acc_test = test(""", """    gcn.eval()
    loss_test, acc_test = test(""").replace("test(", "propagate(")
    assert "model.eval()\n    loss_train" in out
    return out


def test_gcn_evaluation_helper_as_written_is_silent():
    assert findings(GCN, ("PF101", "PF110", "PF111")) == []
    assert findings(_gcn_eval_in_the_caller(GCN), ("PF101", "PF110", "PF111")) == []


def test_gcn_evaluation_helper_without_no_grad_run_every_epoch_is_reported():
    # one forward per call, but the training step calls it every epoch: not a one-off prediction
    assert findings(_gcn_without_no_grad(GCN), ("PF101", "PF110", "PF111")) == [("PF110", 40)]
    returns_loss = _gcn_without_no_grad(GCN).replace("return loss.item(), acc.item()", "return loss, acc.item()")
    assert findings(returns_loss, ("PF110",)) == [("PF110", 40)]  # the callers only print it


def test_eval_set_by_the_caller_and_forward_in_the_callee_is_reported():
    # `propagate` has no eval-sounding name and no `eval()`: every caller switched the model before calling it
    assert findings(_gcn_eval_in_the_caller(_gcn_without_no_grad(GCN)), ("PF101", "PF110", "PF111")) == [
        ("PF110", 40)]


# CSCYQJ/MICCAI23-ProtoContra-SFDA@a719dd53ef3acc951bec75887d6ec922691219e0
# trainers/target_adapt_pseudo_label_trainer.py:84 builds its class weights once, on the host,
# and moves them: `nn.CrossEntropyLoss(weight=torch.tensor([0.1,1,2,2,1]).to(self.opt['gpu_id']))`;
# :147-185 `train_one_step(self, data)` runs the step (zero_grad, forward, scaled backward, step)
# and :217-227 `train()` calls it on every batch. The shape reported: the same constant built
# inside the step helper (or the loop) and moved there on every step.
SFDA_TRAINER = '''
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, opt, model, train_dataloader):
        self.opt = opt
        self.model = model.to(opt["gpu_id"])
        self.train_dataloader = train_dataloader
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=opt["lr"])
        self.grad_scaler = torch.cuda.amp.GradScaler()
        self.criterion_pseudo = nn.CrossEntropyLoss(weight=torch.tensor([0.1, 1, 2, 2, 1]).to(self.opt["gpu_id"]), reduction="none")

    def train_one_step(self, data):
        self.optimizer.zero_grad()
        self.model.train()
        imgs_w, imgs_s = data[0], data[1]
        _, prob_s = self.model(imgs_s)
        with torch.no_grad():
            _, prob_w = self.model(imgs_w)
        pseudo_label = torch.argmax(prob_w, dim=1)
        loss = self.criterion_pseudo(prob_s, pseudo_label).mean()
        self.grad_scaler.scale(loss).backward()
        self.grad_scaler.step(self.optimizer)
        self.grad_scaler.update()
        return {"loss": loss.item()}

    def train(self):
        for epoch in range(self.opt["total_epochs"]):
            train_losses = {}
            for it, (img_s, img_w, segs, _) in enumerate(self.train_dataloader):
                img_s = img_s.to(self.opt["gpu_id"])
                img_w = img_w.to(self.opt["gpu_id"])
                losses = self.train_one_step([img_s, img_w])
                for k, v in losses.items():
                    train_losses[k] = v + train_losses.get(k, 0)
'''


def test_constant_built_and_moved_once_before_the_loop_is_silent():
    assert findings(SFDA_TRAINER, ("PF302",)) == []


def test_constant_built_on_the_host_inside_a_step_helper_is_reported():
    in_helper = SFDA_TRAINER.replace(
        "        loss = self.criterion_pseudo(prob_s, pseudo_label).mean()\n",
        "        weight = torch.tensor([0.1, 1, 2, 2, 1]).to(self.opt[\"gpu_id\"])\n"
        "        loss = nn.functional.cross_entropy(prob_s, pseudo_label, weight=weight)\n")
    assert findings(in_helper, ("PF302",)) == [("PF302", 23)]
    # built with `device=`: no host copy, silent
    on_device = in_helper.replace('torch.tensor([0.1, 1, 2, 2, 1]).to(self.opt["gpu_id"])',
                                  'torch.tensor([0.1, 1, 2, 2, 1], device=self.opt["gpu_id"])')
    assert findings(on_device, ("PF302",)) == []
    # a helper called only under a condition of the loop (every 100 steps): silent
    sometimes = in_helper.replace("                losses = self.train_one_step([img_s, img_w])\n",
                                  "                if it % 100 == 0:\n"
                                  "                    losses = self.train_one_step([img_s, img_w])\n")
    assert findings(sometimes, ("PF302",)) == []


# state-spaces/s4@e757cef57d89e448c413de7325ed5601aceaac13: configs/trainer/lm.yaml:16
# (`use_distributed_sampler: False`, 8 GPUs; the comment says the Transformer-XL dataloader
# deals with DDP itself), train.py:23,686-690 (`from src.dataloaders import SequenceDataset`,
# `pl.Trainer(**config.trainer)`) and src/dataloaders/lm.py:76-102 (`LMOrderedIterator` keeps
# `self.data.chunk(self.world_size, dim=0)[self.rank]`). Rewritten and cut to the shape.
S4_TRAIN = """import hydra
import pytorch_lightning as pl

from src.dataloaders import SequenceDataset


def create_trainer(config):
    return pl.Trainer(**config.trainer)


@hydra.main(config_path="configs", config_name="config.yaml")
def main(config):
    trainer = create_trainer(config)
    trainer.fit(model, datamodule=SequenceDataset.registry[config.dataset._name_](**config.dataset))
"""
S4_LM = """from src.utils import distributed


class LMOrderedIterator:
    def __init__(self, data, batch_size):
        self.raw_data = data
        self.batch_size = batch_size
        self.world_size = distributed.get_world_size()
        self.rank = distributed.get_rank()
        self.process()

    def process(self):
        global_batch_size = self.world_size * self.batch_size
        n_step = self.raw_data.size(-1) // global_batch_size
        self.data = self.raw_data[: n_step * global_batch_size].view(global_batch_size, -1)
        self.data = self.data.chunk(self.world_size, dim=0)[self.rank]
"""
S4_TRAINER = """accelerator: gpu
devices: 8
max_epochs: 50
use_distributed_sampler: False
"""


def _s4_pf516(tmp_path: Path, lm: str) -> list[tuple[str, int]]:
    from preflight.audit import build_plan
    from preflight.plan_rules import check_plan_rule

    (tmp_path / "configs" / "trainer").mkdir(parents=True)
    (tmp_path / "src" / "dataloaders").mkdir(parents=True)
    (tmp_path / "train.py").write_text(S4_TRAIN)
    (tmp_path / "src" / "dataloaders" / "__init__.py").write_text(
        "from . import lm\nfrom .base import SequenceDataset\n")
    (tmp_path / "src" / "dataloaders" / "lm.py").write_text(lm)
    (tmp_path / "configs" / "trainer" / "lm.yaml").write_text(S4_TRAINER)
    plan, project = build_plan([tmp_path / "train.py"], [tmp_path / "configs" / "trainer" / "lm.yaml"],
                               root=tmp_path)
    return [(Path(f.path).name, f.span.line) for f in check_plan_rule("PF516", plan, project)]


def test_sampler_switched_off_where_the_project_data_code_shards_by_rank_is_silent(tmp_path):
    assert _s4_pf516(tmp_path, S4_LM) == []


def test_sampler_switched_off_where_nothing_shards_is_reported(tmp_path):
    unsharded = S4_LM.replace("        self.data = self.data.chunk(self.world_size, dim=0)[self.rank]\n", "")
    assert _s4_pf516(tmp_path, unsharded) == [("lm.yaml", 4)]


# artidoro/qlora@7f4e95a68dc076bea9b3a413d2b512eca6d004e5 qlora.py:746-783: `MMLUEvalCallback
# (transformers.TrainerCallback).on_evaluate` calls `trainer.model.eval()` and runs
# `trainer.prediction_step` over the MMLU loader, and never switches back: the Trainer's
# `training_step` calls `model.train()` on every step, so the mode set by the callback does not
# last. Then the same callback shape in a hand-written loop that calls `model.train()` once,
# before its epoch loop: the callback's `eval()` lasts for every later epoch.
QLORA_CALLBACK = '''
import numpy as np
import torch
import transformers
from transformers import Seq2SeqTrainer


def train(args, model, tokenizer, data_module, training_args, mmlu_dataset, abcd_idx):
    trainer = Seq2SeqTrainer(model=model, tokenizer=tokenizer, args=training_args, **data_module)

    class MMLUEvalCallback(transformers.TrainerCallback):
        def on_evaluate(self, args, state, control, model, **kwargs):
            data_loader = trainer.get_eval_dataloader(mmlu_dataset)
            trainer.model.eval()
            preds, loss_mmlu = [], 0
            for batch in data_loader:
                (loss, logits, labels) = trainer.prediction_step(trainer.model, batch, prediction_loss_only=False)
                for i, logit in enumerate(logits):
                    preds.append(torch.argmax(logit[-1][abcd_idx]).item())
                loss_mmlu += loss.item()
            trainer.log({"mmlu_loss": loss_mmlu / len(data_loader), "n": np.size(preds)})

    trainer.add_callback(MMLUEvalCallback)
    train_result = trainer.train()
    return train_result.metrics
'''
LOOP_CALLBACK = '''
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        return self.fc(self.drop(x))


class EvalCallback:
    def __init__(self, eval_loader):
        self.eval_loader = eval_loader

    def on_evaluate(self, model):
        model.eval()
        total = 0.0
        with torch.no_grad():
            for x, y in self.eval_loader:
                total += nn.functional.cross_entropy(model(x), y).item()
        return total


def fit(loader, eval_loader, epochs):
    model = Net()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    callback = EvalCallback(eval_loader)
    model.train()
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()
        callback.on_evaluate(model)
'''


def test_eval_set_by_a_trainer_callback_is_silent():
    assert findings(QLORA_CALLBACK, ("PF110", "PF111", "PF115")) == []


def test_eval_set_by_a_callback_of_a_hand_written_loop_is_reported():
    assert findings(LOOP_CALLBACK, ("PF110", "PF111", "PF115")) == [("PF111", 39)]
    # the loop switches back each epoch: silent
    back = LOOP_CALLBACK.replace("        for x, y in loader:\n", "        model.train()\n        for x, y in loader:\n")
    assert findings(back.replace("    model.train()\n    for epoch", "    for epoch"), ("PF111",)) == []


# meta-llama/llama-cookbook@0e0033518623d03ac5c1654bf04b7e480f7d5e5a
# src/llama_cookbook/utils/train_utils.py:69-182: `def train(model, train_dataloader, ..., optimizer,
# lr_scheduler, gradient_accumulation_steps, train_config, ...)` receives its parts, runs
# `loss = model(**batch).loss`, divides by `gradient_accumulation_steps`, and steps under
# `if (step + 1) % gradient_accumulation_steps == 0 or ...` in both branches of `if use_fp16`.
LLAMA_COOKBOOK = '''
import torch


def train(model, train_dataloader, eval_dataloader, tokenizer, optimizer, lr_scheduler, gradient_accumulation_steps, train_config, local_rank=None):
    if train_config.use_fp16:
        scaler = torch.cuda.amp.GradScaler()
    for epoch in range(train_config.num_epochs):
        model.train()
        total_loss = 0.0
        for step, batch in enumerate(train_dataloader):
            for key in batch.keys():
                batch[key] = batch[key].to(local_rank)
            loss = model(**batch).loss
            total_loss += loss.detach().float()
            loss = loss / gradient_accumulation_steps
            if train_config.use_fp16:
                scaler.scale(loss).backward()
                if (step + 1) % gradient_accumulation_steps == 0 or step == len(train_dataloader) - 1:
                    scaler.step(optimizer)
                    scaler.update()
                    optimizer.zero_grad()
            else:
                loss.backward()
                if (step + 1) % gradient_accumulation_steps == 0 or step == len(train_dataloader) - 1:
                    optimizer.step()
                    optimizer.zero_grad()
        lr_scheduler.step()
'''


def test_accumulation_in_a_function_receiving_its_parts_as_written_is_silent():
    assert findings(LLAMA_COOKBOOK, ("PF101", "PF103", "PF108", "PF109")) == []


def test_unscaled_accumulation_in_a_function_receiving_its_parts_is_reported():
    # `model(**batch)` unpacks the loader's batch: it cannot carry the window; each branch's
    # step is under its own guard, so the other branch's zero_grad is not "every micro-batch"
    undivided = LLAMA_COOKBOOK.replace("            loss = loss / gradient_accumulation_steps\n", "")
    assert findings(undivided, ("PF108",)) == [("PF108", 17), ("PF108", 23)]
    # a helper handed `**kwargs` that are not the batch may still divide: silent
    handed = undivided.replace("loss = model(**batch).loss", "loss = compute_loss(model, **train_config.loss_kwargs)")
    assert findings(handed, ("PF108",)) == []


# OpenGVLab/InternVL@2410d1dbf208f0e799459aff9376e5747dbf41a2 classification/main.py:20,170-171,219
# (`from dataset import build_loader`, the seven-tuple unpacked, the model wrapped in
# DistributedDataParallel, `train_one_epoch` iterating `data_loader` at :427) and
# classification/dataset/build.py:58-145 (`build_loader`: DistributedSampler for every split) and
# :148-196 (`build_loader2`, exported beside it by dataset/__init__.py:7: `shuffle=True`, no sampler,
# each loader `... if dataset is not None else None`). The shape reported: main.py using
# `build_loader2` (no DDP caller uses it in the repository).
INTERNVL_MAIN = '''
import torch
from dataset import build_loader
from models import build_model


def train_one_epoch(config, model, criterion, data_loader, optimizer, epoch):
    model.train()
    optimizer.zero_grad()
    for idx, (samples, targets) in enumerate(data_loader):
        samples = samples.cuda(non_blocking=True)
        targets = targets.cuda(non_blocking=True)
        loss = criterion(model(samples), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main(config):
    dataset_train, dataset_val, dataset_test, data_loader_train, \\
        data_loader_val, data_loader_test, mixup_fn = build_loader(config)
    model = build_model(config)
    model.cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=config.TRAIN.BASE_LR)
    model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[config.LOCAL_RANK])
    criterion = torch.nn.CrossEntropyLoss()
    for epoch in range(config.TRAIN.EPOCHS):
        data_loader_train.sampler.set_epoch(epoch)
        train_one_epoch(config, model, criterion, data_loader_train, optimizer, epoch)
'''
INTERNVL_BUILD = '''
import torch


def build_loader(config):
    dataset_train, config.MODEL.NUM_CLASSES = build_dataset("train", config=config)
    dataset_val, _ = build_dataset("val", config=config)
    sampler_train = torch.utils.data.DistributedSampler(dataset_train, shuffle=True)
    sampler_val = torch.utils.data.distributed.DistributedSampler(dataset_val, shuffle=False)
    data_loader_train = torch.utils.data.DataLoader(
        dataset_train, sampler=sampler_train, batch_size=config.DATA.BATCH_SIZE, drop_last=True)
    data_loader_val = torch.utils.data.DataLoader(
        dataset_val, sampler=sampler_val, batch_size=config.DATA.BATCH_SIZE, shuffle=False)
    return dataset_train, dataset_val, None, data_loader_train, data_loader_val, None, None


def build_loader2(config):
    dataset_train, config.MODEL.NUM_CLASSES = build_dataset("train", config=config)
    dataset_val, _ = build_dataset("val", config=config)
    data_loader_train = torch.utils.data.DataLoader(
        dataset_train,
        shuffle=True,
        batch_size=config.DATA.BATCH_SIZE,
        drop_last=True) if dataset_train is not None else None
    data_loader_val = torch.utils.data.DataLoader(
        dataset_val, batch_size=config.DATA.BATCH_SIZE, shuffle=False) if dataset_val is not None else None
    return dataset_train, dataset_val, None, data_loader_train, data_loader_val, None, None


def build_dataset(split, config):
    return None, 1000
'''


def _internvl(tmp_path: Path, main: str, build: str = INTERNVL_BUILD) -> Path:
    (tmp_path / "dataset").mkdir(exist_ok=True)
    (tmp_path / "dataset" / "__init__.py").write_text("from .build import build_loader, build_loader2\n")
    (tmp_path / "dataset" / "build.py").write_text(textwrap.dedent(build))
    (tmp_path / "main.py").write_text(textwrap.dedent(main))
    return tmp_path


def _pf201(cli, root: Path, *extra: str) -> list[tuple[str, int, str]]:
    import json

    out = cli("check", ".", "--select", "PF201", "--format", "json", "--exit-zero", *extra, cwd=root)
    return [(Path(f["path"]).name, f["line"], f["message"]) for f in json.loads(out.out)["findings"]]


def test_ddp_loader_built_with_a_sampler_in_an_imported_module_is_silent(cli, tmp_path):
    assert _pf201(cli, _internvl(tmp_path, INTERNVL_MAIN), "--no-cache") == []


def test_ddp_loader_built_without_a_sampler_in_an_imported_module_is_reported(cli, tmp_path):
    main = INTERNVL_MAIN.replace("build_loader", "build_loader2").replace(
        "        data_loader_train.sampler.set_epoch(epoch)\n", "")
    found = _pf201(cli, _internvl(tmp_path, main), "--no-cache")
    assert [(name, line) for name, line, _ in found] == [("main.py", 21)]
    assert "dataset/build.py:20" in found[0][2] and "DistributedSampler" in found[0][2]


def test_imported_loader_builder_that_shards_when_distributed_is_silent(cli, tmp_path):
    build = INTERNVL_BUILD.replace(
        "        dataset_train,\n        shuffle=True,",
        "        dataset_train,\n        sampler=torch.utils.data.DistributedSampler(dataset_train) if config.DIST else None,\n"
        "        shuffle=not config.DIST,")
    assert build != INTERNVL_BUILD
    main = INTERNVL_MAIN.replace("build_loader", "build_loader2")
    assert _pf201(cli, _internvl(tmp_path, main, build), "--no-cache") == []


def test_the_cached_result_follows_an_edited_imported_module(cli, tmp_path):
    main = INTERNVL_MAIN.replace("build_loader", "build_loader2").replace(
        "        data_loader_train.sampler.set_epoch(epoch)\n", "")
    root = _internvl(tmp_path, main)
    assert len(_pf201(cli, root)) == 1
    fixed = INTERNVL_BUILD.replace("        dataset_train,\n        shuffle=True,",
                                   "        dataset_train,\n        sampler=torch.utils.data.DistributedSampler(dataset_train),")
    (root / "dataset" / "build.py").write_text(textwrap.dedent(fixed))
    assert _pf201(cli, root) == []  # main.py's bytes did not change; its result is not reused


def test_an_imported_module_that_does_not_parse_costs_nothing(cli, tmp_path):
    main = INTERNVL_MAIN.replace("build_loader", "build_loader2")
    root = _internvl(tmp_path, main, "def build_loader2(config:\n    return (\n")
    out = cli("check", "main.py", "--select", "PF201", "--no-cache", cwd=root)
    assert out.code == 0 and "Traceback" not in out.err


# zoogzog/chexnet@bbe30b5e0d2941491a2c5a095cb572dca1d27158 ChexnetTrainer.py:132-158 (`epochVal`:
# `model.eval()`, one forward per batch, `losstensorMean += losstensor`, the sum returned) and :95-101
# (the epoch loop hands it to `scheduler.step`, a number). Its `Variable(..., volatile=True)` stopped
# disabling autograd in torch 0.4 (chexnet issue 12: out of memory at the end of the first epoch); the
# rewrite drops it. A forward-only loop keeping its losses, returned to a caller that never
# differentiates them: reported.
CHEXNET = '''
import torch


def epoch_train(model, loader, optimizer, loss):
    model.train()
    for image, target in loader:
        loss_value = loss(model(image.cuda()), target.cuda())
        optimizer.zero_grad()
        loss_value.backward()
        optimizer.step()


def epoch_val(model, loader, loss):
    model.eval()
    loss_val = 0
    loss_val_norm = 0
    losstensor_mean = 0
    for i, (image, target) in enumerate(loader):
        output = model(image.cuda())
        losstensor = loss(output, target.cuda())
        losstensor_mean += losstensor
        loss_val += losstensor.item()
        loss_val_norm += 1
    return loss_val / loss_val_norm, losstensor_mean / loss_val_norm


def train(model, loader_train, loader_val, max_epoch):
    optimizer = torch.optim.Adam(model.parameters(), lr=0.0001, betas=(0.9, 0.999), eps=1e-08, weight_decay=1e-5)
    scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, factor=0.1, patience=5, mode="min")
    loss = torch.nn.BCELoss(size_average=True)
    for epoch in range(max_epoch):
        epoch_train(model, loader_train, optimizer, loss)
        loss_val, losstensor = epoch_val(model, loader_val, loss)
        scheduler.step(losstensor.item())
'''


def test_forward_only_loop_keeping_its_losses_for_a_caller_that_never_differentiates_is_reported():
    assert findings(CHEXNET, ("PF101", "PF110")) == [("PF110", 20)]


def test_forward_only_loop_keeping_its_losses_under_no_grad_is_silent():
    fixed = CHEXNET.replace("    for i, (image, target) in enumerate(loader):\n        output",
                            "    for i, (image, target) in enumerate(loader):\n      with torch.no_grad():\n        output")
    assert fixed != CHEXNET
    assert findings(fixed, ("PF101", "PF110")) == []


# deepspeedai/DeepSpeed tests/unit/runtime/test_multi_output_model.py:12,15-16,43-51 (a DistributedTest
# with `world_size = 1` iterating `multi_output_dataloader(...)` from tests/unit/multi_output_model.py:
# a plain DataLoader) at the hunt manifest's commit: one process, nothing iterated twice. Silent; with
# `world_size = 2` the same loop is reported.
DS_TEST = '''
import deepspeed
from multi_output_model import MultiOutputModel, multi_output_dataloader


class TestTwoOutputModel(DistributedTest):
    world_size = 1

    def test(self, tmpdir):
        model = MultiOutputModel(10, 0.1)
        model, _, _, _ = deepspeed.initialize(config=config_dict, model=model, model_parameters=model.parameters())
        data_loader = multi_output_dataloader(model=model, total_samples=4, hidden_dim=10)
        for n, batch in enumerate(data_loader):
            loss = model(batch[:1], batch[1:])[0]
            model.backward(loss)
            model.step()
'''
DS_LOADER = '''
import torch


def multi_output_dataloader(model, total_samples, hidden_dim):
    batch_size = model.train_micro_batch_size_per_gpu()
    train_data = torch.full(size=(total_samples, hidden_dim), fill_value=1.0)
    train_dataset = torch.utils.data.TensorDataset(train_data, train_data)
    train_loader = torch.utils.data.DataLoader(train_dataset, batch_size=batch_size)
    return train_loader
'''


def test_imported_loader_in_a_one_rank_distributed_test_is_silent(cli, tmp_path):
    (tmp_path / "multi_output_model.py").write_text(textwrap.dedent(DS_LOADER))
    (tmp_path / "test_multi_output_model.py").write_text(textwrap.dedent(DS_TEST))
    assert _pf201(cli, tmp_path, "--no-cache") == []
    (tmp_path / "test_multi_output_model.py").write_text(textwrap.dedent(DS_TEST).replace(
        "world_size = 1", "world_size = 2"))
    assert [(name, line) for name, line, _ in _pf201(cli, tmp_path, "--no-cache")] == [
        ("test_multi_output_model.py", 12)]

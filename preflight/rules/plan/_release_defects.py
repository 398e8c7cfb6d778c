"""The table of documented library-release defects that make training silently wrong (PF384, PF385).

Data only: each entry names the library, the releases that shipped the defect (``low <= v < high``; the
last ``high`` is the first fixed release), the source (the fixing PR or the report), what was read to
confirm the range, the feature a job must use to be hit (a named check of ``_release_features`` with its
parameters) and what goes wrong. The rules read the pinned release (``==`` in a requirements file,
setup.py, pyproject, environment.yml or a lock file: ``_pinned_release.pinned_version``) and report an
entry when the pin is in a range and the job uses the feature. A lower bound (``>=``) or no pin at all is
never reported: the installed release cannot be known.

Every range was read in the library's code at the tags (or wheels) named in ``read``; entries whose
fix could not be read at both ends were left out (docs/corpus.md, det75).
"""

from __future__ import annotations

from typing import Any, Mapping

from preflight._record import dataclass

Version = tuple[int, ...]

# heads whose ``forward`` takes no ``**kwargs``: transformers' Trainer sets ``model_accepts_loss_kwargs``
# False for them (4.46 and later) and never passes ``num_items_in_batch``
NO_LOSS_KWARGS_HEADS = ("ForSequenceClassification", "ForTokenClassification", "ForQuestionAnswering",
                        "ForMultipleChoice")


@dataclass(frozen=True)
class Defect:
    key: str
    package: str  # the name in requirements files ("lightning" stands for every Lightning package name)
    ranges: tuple[tuple[Version, Version], ...]
    fixed: str  # the first release with the fix
    source: str  # the fixing PR or the report
    read: str  # what was read to confirm the range
    feature: str  # a check of ``_release_features``
    params: Mapping[str, Any]
    effect: str  # what goes wrong, said to the user
    remedy: str  # what to do on the pinned release (besides upgrading)
    severity: str = "error"
    kind: str = "code"  # "code" (PF384) or "config" (PF385)


def _spec(call: Any = None, **more: Any) -> dict[str, Any]:
    out: dict[str, Any] = {} if call is None else {"call": call}
    out.update(more)
    return out


TRAINERS = ("Trainer", "Seq2SeqTrainer", "SFTTrainer")
ARGS = ("TrainingArguments", "Seq2SeqTrainingArguments", "SFTConfig")

DEFECTS: tuple[Defect, ...] = (
    # ---------------------------------------------------------------- transformers
    Defect(
        "transformers-ga-mean-of-means", "transformers", (((0,), (4, 46)),), "4.46.0",
        "https://github.com/huggingface/transformers/pull/34191",
        "trainer.py of the 4.45.2 and 4.46.0 wheels (4.45.2 averages per-micro-batch means)",
        "hf_trainer_accumulation", {"head": "causal", "deepspeed": "any",
                                    # fixed-length blocks (run_clm's group_texts, packing): every micro-batch
                                    # has the same number of tokens, so the mean of means is the token mean
                                    "unless": r"group_texts|\bblock_size\b|packing\s*=\s*True|ConstantLengthDataset"},
        "with gradient_accumulation_steps={ga} the Trainer averages the mean loss of each micro-batch, so a "
        "micro-batch with few target tokens weighs as much as one with many and the loss (and gradient) "
        "differs from the same batch without accumulation",
        "accumulate fewer steps with a larger per-device batch, or sum the token losses yourself in a "
        "`compute_loss` that divides by the tokens of the whole accumulated batch",
        severity="note"),
    Defect(
        "transformers-ga-not-divided", "transformers", (((4, 46), (4, 48)),), "4.48.0",
        "https://github.com/huggingface/transformers/pull/35438",
        "trainer.py of the 4.46.0, 4.46.1, 4.46.2, 4.46.3, 4.47.0, 4.47.1 and 4.48.0 wheels",
        "hf_trainer_accumulation", {"head": "no_loss_kwargs", "deepspeed": "absent"},
        "with gradient_accumulation_steps={ga} that Trainer never divides the loss of `{head}` (its forward "
        "takes no loss kwargs) by the accumulation steps: the gradients are the sum of {ga} micro-batch "
        "gradients, {ga}x the average, so max_grad_norm clips {ga}x harder and the logged grad_norm is {ga}x off",
        "divide the loss by the accumulation steps in a `compute_loss` override, or do not accumulate"),
    Defect(
        "transformers-4.47.0-num-items-dropped", "transformers", (((4, 47, 0), (4, 47, 1)),), "4.47.1",
        "https://github.com/huggingface/transformers/pull/35121",
        "trainer.py training_step of the 4.47.0 and 4.47.1 wheels (4.47.0 calls compute_loss without "
        "num_items_in_batch exactly when the model accepts it)",
        "hf_trainer_accumulation", {"head": "causal", "deepspeed": "absent"},
        "4.47.0's training_step drops `num_items_in_batch` for models that accept it, so with "
        "gradient_accumulation_steps={ga} each micro-batch's mean loss is summed undivided: the gradients "
        "are {ga}x the average and max_grad_norm clips {ga}x harder",
        "pin 4.47.1, or do not accumulate on 4.47.0"),
    Defect(
        "transformers-gemma2-flash-softcap", "transformers", (((4, 42, 0), (4, 42, 4)),), "4.42.4",
        "https://github.com/huggingface/transformers/releases/tag/v4.42.4",
        "models/gemma2/modeling_gemma2.py of the 4.42.0 (Gemma-2 added, flash attention without softcap), "
        "4.42.3 and 4.42.4 wheels (4.42.4 passes softcap=attn_logit_softcapping to flash-attn)",
        "calls", {"all": [_spec("from_pretrained", kw={"attn_implementation": ("eq", "flash_attention_2")})],
                  "text": r"(?i)gemma-?2"},
        "Gemma-2 loaded with attn_implementation=\"flash_attention_2\" runs flash attention without the "
        "attention-logit soft-capping the model was trained with, so fine-tuning starts from different "
        "attention scores than the checkpoint's",
        "use attn_implementation=\"eager\" for Gemma-2 on this release"),
    Defect(
        "transformers-deberta-v2-fp16-overflow", "transformers", (((0,), (4, 31)),), "4.31.0",
        "https://github.com/huggingface/transformers/pull/24116",
        "models/deberta_v2/modeling_deberta_v2.py of the 4.30.2 wheel (`torch.bmm(query, key^T) / scale`: the "
        "raw product overflows in float16) and the 4.31.0 wheel (`torch.bmm(query, key^T / scale)`); the "
        "report: microsoft/DeBERTa issue 77 (mdeberta-v3-base with fp16 on 4.12.5: loss 0, NaN eval loss)",
        "calls", {"all": [_spec(ARGS, kw={"fp16": ("eq", True)})], "text": r"(?i)m?deberta-v3"},
        "DeBERTa-v3/mDeBERTa-v3 (the DebertaV2 code) computes its attention scores as query @ key^T before "
        "dividing by the scale, which overflows in float16: with fp16=True the loss turns NaN or 0, the "
        "weights stop updating and accuracy stays at chance",
        "train DeBERTa-v3 in fp32 (or bf16 on hardware that has it) on this release"),
    # ---------------------------------------------------------------- accelerate
    Defect(
        "accelerate-scheduler-steps-while-accumulating", "accelerate", (((0, 11), (0, 16)),), "0.16.0",
        "https://github.com/huggingface/accelerate/pull/999",
        "scheduler.py and accelerator.py at v0.11.0 (accumulate added), v0.15.0 and v0.16.0",
        "calls", {"all": [_spec("Accelerator", kw={"gradient_accumulation_steps": ("gt", 1)}),
                          _spec("accumulate", attr=True),
                          _spec("prepare", attr=True, arg_name=r"sched")],
                  # a schedule sized in micro-batches is what these releases step (accelerate PR 500)
                  "none": [_spec(special="micro_batch_schedule"),
                           # the step guarded by sync_gradients (accelerate issue 963's workaround)
                           _spec(special="sync_guarded_scheduler_step")]},
        "the prepared scheduler steps on every micro-batch although the optimizer steps only every "
        "gradient_accumulation_steps batches (AcceleratedScheduler ignores `sync_gradients`): warmup and decay "
        "run {n}x faster than written",
        "do not prepare the scheduler and step it only when `accelerator.sync_gradients` is true"),
    Defect(
        "accelerate-notebook-launcher-one-process-on-kaggle", "accelerate", (((0, 6), (0, 14)),), "0.14.0",
        "https://github.com/huggingface/accelerate/pull/783",
        "launchers.py notebook_launcher at v0.6.0 (added), v0.12.0, v0.13.0 (Colab or Kaggle without a TPU: "
        "`function(*args)` in the notebook's process) and v0.14.0 (only Colab, a one-GPU machine, runs it in place)",
        "calls", {"all": [_spec("notebook_launcher", kw={"num_processes": ("gt", 1)})],
                  # a Kaggle kernel: only there (besides one-GPU Colab) is the launch skipped
                  "text": r"/kaggle/(?:input|working|temp)|KAGGLE_"},
        "on a Kaggle kernel without a TPU this release's `notebook_launcher` calls the training function in the "
        "notebook's own process, whatever `num_processes={n}` says: it trains on one GPU while the others idle "
        "(accelerate issue 1012, a 2xT4 kernel)",
        "upgrade accelerate in the kernel (`pip install -U accelerate`, 0.14.0 or later) before the launch",
        severity="warning"),
    Defect(
        "accelerate-prepare-model-twice", "accelerate", (((0,), (1, 14)),), "1.14.0",
        "https://github.com/huggingface/accelerate/pull/3977",
        "accelerator.py prepare_model at v0.12.0, v1.0.0, v1.13.0 (no guard: appended to _models and wrapped "
        "again) and v1.14.0 (`_is_accelerate_prepared` returns the model as it is)",
        "prepared_twice", {},
        "`{value}` was already returned by `accelerator.prepare` and is prepared again: the model is wrapped twice "
        "(DDP(DDP(model))) and registered twice, so save_state/load_state write and read it twice per rank "
        "(accelerate issue 3967)",
        "prepare each object once: pass the model, optimizer, loaders and scheduler in one `prepare` call",
        severity="warning"),
    Defect(
        "accelerate-sync-each-batch-steps-every-batch", "accelerate", (((0, 28), (0, 31)),), "0.31.0",
        "https://github.com/huggingface/accelerate/pull/2790",
        "accelerator.py at v0.28.0, v0.30.1 (`_do_sync(force=sync_each_batch)`) and v0.31.0",
        "calls", {"all": [_spec("GradientAccumulationPlugin", kw={"sync_each_batch": ("eq", True),
                                                                  "num_steps": ("gt", 1)})]},
        "`sync_each_batch=True` forces `sync_gradients` on every batch, so the optimizer steps (and the "
        "gradients are zeroed) on every micro-batch: the {n}-step gradient accumulation silently does not happen",
        "drop sync_each_batch"),
    Defect(
        "accelerate-shuffle-unsynced-generator", "accelerate", (((0, 24), (0, 30)),), "0.30.0",
        "https://github.com/huggingface/accelerate/pull/2694",
        "data_loader.py prepare_data_loader at v0.23.0 (sampler generator synchronised), v0.24.0, v0.29.3 "
        "(not: \"generator\" dropped from rng_types) and v0.30.0",
        "calls", {"all": [_spec("DataLoader", kw={"shuffle": ("eq", True)}), _spec("prepare", attr=True),
                          # the ranks' global RNGs differ only when they are seeded per rank: unseeded, every
                          # process starts from torch's fixed default seed and draws the same permutation
                          (_spec("set_seed", kw={"device_specific": ("eq", True)}),
                           _spec(("set_seed", "manual_seed", "seed_everything"),
                                 arg_text=r"rank|process_index"))],
                  "none": [_spec(kw={"use_seedable_sampler": ("eq", True)}),
                           _spec("DataLoader", kw={"generator": ("truthy", None)})],
                  "world_size": 2},
        "the shuffled loader is sharded with no synchronised generator, and each process is seeded "
        "differently, so every process draws its own permutation: the shards overlap and part of the data "
        "is never seen each epoch",
        "seed every process alike before iterating (device_specific=False), or pass a seeded `generator=`"),
    Defect(
        "accelerate-shuffle-seed-ignored", "accelerate", (((0, 30), (1, 6)),), "1.6.0",
        "https://github.com/huggingface/accelerate/pull/3459",
        "data_loader.py prepare_data_loader at v0.30.0, v1.0.0, v1.5.2 (`sampler.generator = torch.Generator()` "
        "with its fixed default seed) and v1.6.0 (seeded from the global RNG)",
        "calls", {"all": [_spec("DataLoader", kw={"shuffle": ("eq", True)}), _spec("prepare", attr=True)],
                  "none": [_spec("DataLoader", kw={"generator": ("truthy", None)}),
                           _spec(kw={"use_seedable_sampler": ("eq", True)})],
                  "world_size": 2},
        "on more than one process the shuffled loader gets a new torch.Generator with its fixed default seed, "
        "so every run shuffles in the same order whatever the seed: runs with different seeds see the same "
        "batches in the same order",
        "pass your own seeded `generator=` to the DataLoader",
        # no run trains on wrong data (each shuffles a fixed permutation, sharded consistently); only a
        # sweep over seeds is not one: a note (was a warning until it flagged a correct twin of held-out-25)
        severity="note"),
    # ---------------------------------------------------------------- PEFT
    Defect(
        "peft-modules-to-save-substring", "peft", (((0, 3), (0, 15)),), "0.15.0",
        "https://github.com/huggingface/peft/pull/2334",
        "utils/save_and_load.py set_peft_model_state_dict at v0.3.0, v0.14.0 (`module_name in key`) and v0.15.0",
        "calls", {"all": [_spec(("LoraConfig", "IA3Config", "AdaLoraConfig", "LoHaConfig", "LoKrConfig"),
                                kw={"modules_to_save": ("substring_pair", None)})]},
        "`modules_to_save` holds {pair}: loading the adapter matches module names by substring, so the saved "
        "weights of one module can be renamed into the other and load into the wrong layer",
        "rename the modules so that no name contains another"),
    Defect(
        "peft-adapter-name-substring-save", "peft", (((0, 3), (0, 20)),), "0.20.0",
        "https://github.com/huggingface/peft/pull/3282",
        "utils/save_and_load.py get_peft_model_state_dict at v0.3.0, v0.19.1 (`adapter_name in k`) and v0.20.0",
        "adapter_name_substrings", {},
        "the adapters {pair} share a name prefix: saving one keeps every key that contains its name, so its "
        "checkpoint also carries the other adapter's weights, which load back into it",
        "give the adapters names that do not contain one another"),
    Defect(
        "peft-rank-alpha-pattern-first-key", "peft", (((0, 6), (0, 14)),), "0.14.0",
        "https://github.com/huggingface/peft/pull/2195",
        "tuners/lora/model.py _create_and_replace at v0.6.0, v0.13.2 (one key looked up in both patterns) "
        "and v0.14.0",
        "calls", {"all": [_spec("LoraConfig", keys_overlap=("rank_pattern", "alpha_pattern"))]},
        "rank_pattern and alpha_pattern hold the keys {pair}, which match the same modules: the first "
        "matching key of either pattern is looked up in both, so those modules get the rank of one key and "
        "the alpha of the same key (the default), not the alpha configured for them",
        "give rank_pattern and alpha_pattern the same keys"),
    Defect(
        "peft-adalora-not-identity", "peft", (((0, 5), (0, 12)),), "0.12.0",
        "https://github.com/huggingface/peft/pull/1884",
        "tuners/adalora layer reset_lora_parameters at v0.4.0 (lora_E zeros), v0.5.0, v0.11.1 (normal) and v0.12.0",
        "calls", {"all": [_spec("AdaLoraConfig")]},
        "AdaLoRA initialises lora_E randomly instead of with zeros, so the adapter is not an identity at the "
        "start: the model trains from perturbed weights instead of the pretrained ones",
        "zero the `lora_E` parameters after `get_peft_model`",
        severity="warning"),
    # ---------------------------------------------------------------- TRL
    Defect(
        "trl-orpo-ga-unscaled", "trl", (((0, 12), (0, 20)),), "0.20.0",
        "https://github.com/huggingface/trl/pull/3716",
        "trainer/orpo_trainer.py at v0.12.0 (requires transformers>=4.46), v0.19.1 and v0.20.0 "
        "(sets model_accepts_loss_kwargs=False)",
        "calls", {"all": [_spec("ORPOTrainer"),
                          _spec(("ORPOConfig", "TrainingArguments"), kw={"gradient_accumulation_steps": ("gt", 1)})],
                  "report": 1},
        "ORPOTrainer computes its own mean loss while transformers skips the division by the accumulation "
        "steps for models that accept loss kwargs: with gradient_accumulation_steps={n} the gradients are "
        "{n}x too large and max_grad_norm clips {n}x harder",
        "do not accumulate, or divide the loss by the accumulation steps in a subclass"),
    Defect(
        "trl-dpo-keep-end-zeroed", "trl", (((0, 14), (0, 18)),), "0.18.0",
        "https://github.com/huggingface/trl/pull/3398",
        "trainer/dpo_trainer.py concatenated_forward at v0.13.0, v0.14.0, v0.17.0 (flush left, then keep the "
        "last max_length columns) and v0.18.0",
        "calls", {"all": [_spec("DPOTrainer")],
                  "none": [_spec(kw={"truncation_mode": ("eq", "keep_start")}),
                           _spec("DPOConfig", kw={"max_length": ("eq", None)})]},
        "with truncation_mode \"keep_end\" (the default) DPOTrainer flushes each batch left and then keeps its "
        "last max_length columns, so in a batch longer than max_length the shorter pairs keep only padding: "
        "their loss mask is all zeros and they train on nothing",
        "pass truncation_mode=\"keep_start\"",
        severity="warning"),
    # ---------------------------------------------------------------- Lightning
    Defect(
        "lightning-epoch-scheduler-skipped-val-interval", "lightning", (((1, 1, 8), (1, 1, 9)), ((1, 2), (1, 2, 2))),
        "1.2.2", "https://github.com/Lightning-AI/pytorch-lightning/pull/6075",
        "trainer/training_loop.py at 1.1.7 (other path), 1.1.8, 1.2.0, 1.2.1 (epoch-end evaluation skipped "
        "when val_check_batch != num_training_batches) and 1.2.2",
        "calls", {"all": [_spec("Trainer", qual="lightning", kw={"val_check_interval": ("float_lt1", None)}),
                          _spec(special="epoch_scheduler"), _spec(special="defines", name="validation_step")]},
        "with val_check_interval={value} the epoch-end validation that steps epoch-interval LR schedulers never "
        "runs, so the scheduler of `configure_optimizers` never steps and the learning rate stays at its "
        "initial value",
        "validate once per epoch (val_check_interval=1.0) or step the scheduler per step"),
    Defect(
        "lightning-iterable-dataset-resume-double-iter", "lightning", (((2, 1), (2, 5, 3)),), "2.5.3",
        "https://github.com/Lightning-AI/pytorch-lightning/pull/20775",
        "loops/training_epoch_loop.py on_run_start at 2.1.0, 2.5.2 (`iter()` again when not restarting) and 2.5.3",
        "calls", {"all": [_spec("fit", attr=True, kw={"ckpt_path": ("truthy", None)}),
                          _spec(special="subclass", base="IterableDataset")]},
        "resuming with `fit(ckpt_path=...)` creates the iterator of the IterableDataset twice in the first "
        "resumed epoch: the first one is thrown away, so a streamed or queued dataset skips the data it "
        "already produced",
        "make the dataset restartable (no side effects in `__iter__`) or resume from a mid-epoch checkpoint"),
    Defect(
        "lightning-accumulation-without-batch-idx", "lightning", (((1, 7), (2, 1)),), "2.1.0",
        "https://github.com/Lightning-AI/pytorch-lightning/pull/18619",
        "loops/optimization (optimizer_loop.py / automatic.py) at 1.6.5 (explicit batch_idx), 1.7.0, 2.0.9 "
        "(`kwargs.get(\"batch_idx\", 0)`) and 2.1.0",
        "calls", {"all": [_spec("Trainer", qual="lightning", kw={"accumulate_grad_batches": ("gt", 1)}),
                          _spec(special="training_step_without_batch_idx")],
                  "report": 1},
        "`training_step` takes no batch_idx, so the optimizer loop sees batch_idx 0 on every batch and zeroes "
        "the gradients before each backward: with accumulate_grad_batches={value} only the last micro-batch "
        "of each window reaches the optimizer",
        "add the `batch_idx` parameter to `training_step`"),
    Defect(
        "lightning-validation-erases-accumulated-grads", "lightning", (((1, 5), (2, 1)),), "2.1.0",
        "https://github.com/Lightning-AI/pytorch-lightning/pull/18710",
        "loops/evaluation_loop.py at 1.5.0, 1.9.0, 2.0.9 (`lightning_module.zero_grad()` before every "
        "validation) and 2.1.0 (only outside an accumulation window)",
        "calls", {"all": [_spec("Trainer", qual="lightning",
                                not_multiple=("val_check_interval", "accumulate_grad_batches"))]},
        "validation every {value} batches falls inside an accumulation window of {n} batches, and the "
        "validation loop zeroes the gradients: the micro-batches accumulated before it are lost",
        "make val_check_interval a multiple of accumulate_grad_batches"),
    Defect(
        "lightning-lr-find-scheduler-kept", "lightning", (((1, 6), (1, 7, 4)),), "1.7.4",
        "https://github.com/Lightning-AI/pytorch-lightning/pull/14113",
        "tuner/lr_finder.py at 1.6.0, 1.7.3 (strategy.setup_optimizers exchanged, not restored) and 1.7.4",
        "calls", {"all": [(_spec("Trainer", qual="lightning", kw={"auto_lr_find": ("truthy", None)}),
                           _spec("lr_find", attr=True))]},
        "after the learning-rate finder the Trainer keeps the finder's optimizer setup, so the real `fit` "
        "trains with the finder's exponential learning-rate ramp instead of your optimizers and schedulers",
        "run the finder on a separate Trainer and build a new one for `fit`"),
    # ---------------------------------------------------------------- DeepSpeed (configs)
    Defect(
        "deepspeed-clip-coef-max", "deepspeed", (((0, 13, 2), (0, 13, 3)),), "0.13.3",
        "https://github.com/deepspeedai/DeepSpeed/pull/5150",
        "runtime/utils.py clip_grad_norm_ at v0.13.1, v0.13.2 (`torch.max(1, clip_coef)`) and v0.13.3",
        "deepspeed", {"when": [("gradient_clipping", "gt", 0), ("fp16.enabled", "falsy", None),
                               ("bf16.enabled", "falsy", None), ("zero_optimization.stage", "stage_in", (0,))],
                      "report": "gradient_clipping"},
        "gradient_clipping={value} without fp16/bf16 or ZeRO goes through clip_grad_norm_, whose coefficient is "
        "max(1, max_norm/norm): gradients above the limit are never clipped and gradients below it are "
        "scaled up to it",
        "drop gradient_clipping and clip in your own code on this release", kind="config"),
    Defect(
        "deepspeed-offload-accumulation", "deepspeed", (((0, 10), (0, 15, 2)),), "0.15.2",
        "https://github.com/deepspeedai/DeepSpeed/pull/6550",
        "runtime/zero/stage_1_and_2.py async_accumulate_grad_in_cpu_via_gpu at v0.10.0, v0.15.1 (micro_step_id "
        "starts at 0, reset to -1; copies off the boundary) and v0.15.2",
        "deepspeed", {"when": [("zero_optimization.stage", "stage_in", (1, 2)), "cpu_offload",
                               ("gradient_accumulation_steps", "gt", 1)],
                      "report": "zero_optimization"},
        "ZeRO-{stage} with the optimizer offloaded to CPU and gradient_accumulation_steps={n} copies the "
        "gradients to the CPU buffer instead of adding them on the wrong micro-steps, so the accumulated "
        "gradient is not the sum of the {n} micro-batches",
        "do not accumulate with CPU offload on this release", kind="config"),
    Defect(
        "deepspeed-offload-norm-dropped", "deepspeed", (((0, 15, 2), (0, 19)),), "0.19.0",
        "https://github.com/deepspeedai/DeepSpeed/pull/7967",
        "runtime/zero/stage_1_and_2.py at v0.15.2 (INITIAL_MICRO_STEP_ID, copy only at micro step 0) and "
        "v0.19.0",
        "deepspeed", {"when": [("zero_optimization.stage", "stage_in", (1, 2)), "cpu_offload",
                               ("gradient_accumulation_steps", "gt", 1), ("gradient_clipping", "gt", 0)],
                      "report": "gradient_clipping"},
        "with ZeRO-{stage}, CPU offload and gradient_accumulation_steps={n}, only the first micro-step's "
        "gradients reach the CPU copy that the gradient norm is computed from: the norm is too small, so "
        "gradient_clipping clips too little and the logged grad_norm is wrong",
        "do not clip by norm under CPU offload with accumulation on this release", kind="config"),
    Defect(
        "deepspeed-bf16-zero0-loss-scale", "deepspeed", (((0, 17, 6), (0, 18, 6)),), "0.18.6",
        "https://github.com/deepspeedai/DeepSpeed/pull/7839",
        "runtime/engine.py _do_optimizer_sanity_check at v0.17.5 (no DDP_BFLOAT16), v0.17.6, v0.18.5 (bf16 "
        "without ZeRO -> FP16 optimizer wrapper) and v0.18.6",
        "deepspeed", {"when": [("bf16.enabled", "truthy", None), ("zero_optimization.stage", "stage_in", (0,)),
                               ("data_types.grad_accum_dtype", "ne", "fp32")],
                      "report": "bf16"},
        "bf16 without ZeRO wraps the optimizer in the fp16 optimizer: it divides the gradients by a dynamic "
        "loss scale (65536) the loss was never multiplied by, and skips zero_grad, so gradients pile up "
        "across steps",
        "enable ZeRO stage 1 or 2 with bf16", kind="config"),
    Defect(
        "deepspeed-bf16-zero1-boundary-grad", "deepspeed", (((0, 18), (0, 19)),), "0.19.0",
        "https://github.com/deepspeedai/DeepSpeed/pull/7985",
        "runtime/engine.py _backward_epilogue and precision_config.py at v0.17.0 (immediate_grad_update "
        "default True), v0.18.0 (default False) and v0.19.0",
        "deepspeed", {"when": [("bf16.enabled", "truthy", None), ("zero_optimization.stage", "stage_in", (1,)),
                               ("data_types.grad_accum_dtype", "eq", "fp32"),
                               ("bf16.immediate_grad_update", "falsy", None)],
                      "report": "data_types"},
        "bf16 with ZeRO-1 and fp32 gradient accumulation all-reduces the gradients before the last "
        "micro-batch is added to the fp32 accumulator: that micro-batch's gradient is never averaged across "
        "ranks",
        "set bf16.immediate_grad_update to true", kind="config"),
    Defect(
        "deepspeed-bf16-fp32-accum-zero1-offload-ignored", "deepspeed", (((0, 8, 1), (0, 10, 1)),), "0.10.1",
        "https://github.com/deepspeedai/DeepSpeed/pull/4084",
        "runtime/engine.py _do_optimizer_sanity_check at v0.8.0 (no BFLOAT16 wrapper under ZeRO), v0.8.1 and "
        "v0.10.0 (BFLOAT16 for bf16 + fp32 grad_accum_dtype + stage 1, offload or not), v0.10.1 (`and not "
        "self.zero_cpu_offload()`); bf16_optimizer.py at v0.10.0 has no optimizer offload; "
        "ops/adam/cpu_adam.py v0.10.0 asserts its params are on the CPU",
        "deepspeed", {"when": [("bf16.enabled", "truthy", None), ("zero_optimization.stage", "stage_in", (1,)),
                               ("data_types.grad_accum_dtype", "eq", "fp32"), "cpu_offload"],
                      "report": "zero_optimization"},
        "bf16 with fp32 gradient accumulation on ZeRO-1 selects the BF16 optimizer even with offload_optimizer "
        "on the CPU: the offload is ignored (fp32 master weights and optimizer states stay on the GPU), and a "
        "DeepSpeedCPUAdam optimizer gets GPU parameters and fails (\"CPUAdam param is on cuda:0 and must be "
        "'cpu'\", DeepSpeed issue 4083)",
        "drop data_types.grad_accum_dtype (ZeRO-offload keeps fp32 master weights on the CPU) or the offload",
        kind="config"),
    # ---------------------------------------------------------------- Hydra (configs)
    Defect(
        "hydra-append-before-override", "hydra-core", (((1, 1, 0), (1, 1, 1)),), "1.1.1",
        "https://github.com/facebookresearch/hydra/pull/1735",
        "core/default_element.py and _internal/defaults_list.py at v1.1.0 (appended groups inserted before the "
        "first `override` entry) and v1.1.1 (appended at the end)",
        "hydra_append_before_override", {},
        "`{arg}` on the command line is inserted before the primary config's `override` entries, ahead of its "
        "`_self_`: values the primary config sets win over the appended config's",
        "add the group to the primary config's defaults list instead of appending it with `+`",
        kind="config"),
)

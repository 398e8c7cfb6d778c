"""The twentieth held-out set of the jobs benchmark (run.py --set held-out-20): expert truth
written by hand, one J(...) per job."""
from .core import J, T

H20="twentieth held-out set"
LQL=("georgesung/llm_qlora","cc6683effd218717502e15cac0f3901d73415c1d")
lqc="configs/llama3_8b_chat_uncensored.yaml"
lqt="QloraTrainer.py"
J("llm-qlora-llama3-8b-yaml-1gpu",*LQL,["."],".",["train.py","--",lqc],{
 "model.ref":T("meta-llama/Meta-Llama-3-8B",lqc+":2 base_model -> train.py:21-25 yaml.safe_load dict -> "+lqt+":23,37 AutoModelForCausalLM.from_pretrained(config['base_model'])"),
 "dist.world_size":T(1,"README.md:15 python train.py <config>: one process; "+lqt+":37 device_map={'':0}"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/FSDP/DeepSpeed",any_of=["none"]),
 "batch.micro":T(1,lqc+":21 trainer.batch_size -> "+lqt+":81 per_device_train_batch_size"),
 "batch.grad_accum":T(4,lqc+":22 -> "+lqt+":82"),
 "batch.global":T(4,"1 x 4 x 1"),
 "data.seq_len":T(8192,lqc+":4 model_context_window -> data_processor/VicunaDataProcessor.py:13-24 tokenizer max_length with truncation"),
 "precision.mode":T("amp_fp16",lqt+":86 TrainingArguments fp16=True (autocast fp16 + GradScaler) over a 4-bit base; LoRA weights fp32 (prepare_model_for_kbit_training, :45)"),
 "precision.weights_bits":T(4,lqt+":25-30 BitsAndBytesConfig(load_in_4bit=True)"),
 "precision.quant_type":T("nf4",lqt+":28"),
 "precision.double_quant":T(True,lqt+":27 bnb_4bit_use_double_quant=True"),
 "peft.method":T("lora",lqt+":57-66 LoraConfig from the YAML lora section -> get_peft_model"),
 "peft.rank":T(8,lqc+":11 lora.r -> "+lqt+":59"),
 "task.mode":T("qlora","4-bit base + LoRA",any_of=["qlora","lora"]),
 "memory.gradient_checkpointing":T(True,lqt+":44 model.gradient_checkpointing_enable() (+ :45 prepare_model_for_kbit_training)"),
 "optimizer.name":T("adamw_torch",lqt+":77-91 TrainingArguments without optim (:90 commented out): the Trainer default",any_of=["adamw_torch","adamw_hf","adamw_torch_fused"]),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "compile.enabled":T(False,"torch_compile not set"),
},held_out=True,note=H20+"; README.md:9-16 python train.py configs/llama3_8b_chat_uncensored.yaml (a positional YAML config read with yaml.safe_load into a dict that a trainer class indexes; the model a Hub id under base_model in the YAML; QLoRA with a hard-coded BitsAndBytesConfig and fp16=True in code)")
DAC=("descriptinc/descript-audio-codec","c7cfc5d2647e26471dc394f95846a0830e7bec34")
dct="scripts/train.py"
J("dac-44khz-baseline-argbind-1gpu",*DAC,["."],".",[dct,"--","--args.load","conf/ablations/baseline.yml","--save_path","runs/baseline/"],{
 "model.num_parameters":T(76650000,"conf/base.yml:2-12 DAC encoder_dim 64, rates [2,4,8,8], decoder_dim 1536, 9 codebooks of 1024x8 -> dac/model/dac.py:145-197 (weight-normed convs; my count: encoder 22.3M + quantizer 0.24M + decoder 54.1M = 76.7M, the generator only; the discriminators, dac/model/discriminator.py, are not counted)",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:168-169 export CUDA_VISIBLE_DEVICES=0; python scripts/train.py: audiotools ml.Accelerator world_size = device_count 1, no LOCAL_RANK -> neither DDP nor DP"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","one GPU: Accelerator.prepare_model wraps nothing",any_of=["none"]),
 "batch.micro":T(12,"conf/ablations/baseline.yml:1-3 includes conf/1gpu.yml:4 batch_size 12 (after base.yml's 72) -> "+dct+":386 (not divided: no DDP)"),
 "batch.grad_accum":T(1,dct+":226-275 train_loop steps both optimizers every batch"),
 "batch.global":T(12,"12 x 1 x 1"),
 "precision.mode":T("fp32","conf/base.yml:31 amp: false -> audiotools Accelerator(amp=False): accel.autocast() disabled, DummyScaler"),
 "optimizer.name":T("AdamW",dct+":31 argbind.bind(torch.optim.AdamW) for generator and discriminator",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,"conf/1gpu.yml:6 num_workers 4 -> "+dct+":385"),
 "data.pin_memory":T(False,dct+":382-388 prepare_dataloader without pin_memory (DataLoader default)"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in dac/"),
 "compile.enabled":T(False,"no torch.compile (only a torch.jit.script snake function, dac/nn/layers.py:17)"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H20+"; README.md:166-170 export CUDA_VISIBLE_DEVICES=0; python scripts/train.py --args.load conf/ablations/baseline.yml --save_path runs/baseline/ (argbind: a YAML of dotted Class.arg keys with $include chains, later files overriding earlier ones, bound to constructors; the audiotools Accelerator; a GAN audio codec; speech/audio). Not labelled: audio segment length (train/AudioDataset.duration 0.38 s at 44.1 kHz, conf/base.yml:73)")
YV9=("WongKinYiu/yolov9","5b1ea9a8b3f0ffe4fe0e203ec6232d788bb3fcff")
yvt="train_dual.py"
J("yolov9-c-coco-ddp-8gpu",*YV9,["."],".",["--","python","-m","torch.distributed.launch","--nproc_per_node","8","--master_port","9527",yvt,
 "--workers","8","--device","0,1,2,3,4,5,6,7","--sync-bn","--batch","128","--data","data/coco.yaml","--img","640","--cfg","models/detect/yolov9-c.yaml",
 "--weights","","--name","yolov9-c","--hyp","hyp.scratch-high.yaml","--min-items","0","--epochs","500","--close-mosaic","15"],{
 "model.num_parameters":T(51300000,"--cfg models/detect/yolov9-c.yaml (depth/width multiples 1.0, nc 80) built with its auxiliary branch for training: 51.3M per the maintainer (issue #122: '51.3M is model for training, 25.3M is model for inference', the README table's 25.3M being the re-parameterized model)",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:184 --nproc_per_node 8"),
 "dist.nodes":T(1,"torch.distributed.launch on one machine"),
 "dist.devices_per_node":T(8,"README.md:184"),
 "dist.sharding":T("ddp",yvt+":233 smart_DDP(model)"),
 "batch.micro":T(16,yvt+":190 batch_size // WORLD_SIZE = 128 // 8 (--batch is the total for all GPUs, :447)"),
 "batch.grad_accum":T(1,yvt+":140-141 accumulate = max(round(64 / 128), 1) = 1 (warmup interpolates to the same 1)"),
 "batch.global":T(128,"README.md:184 --batch 128"),
 "data.image_size":T(640,"README.md:184 --img 640"),
 "precision.mode":T("amp_fp16",yvt+":119 check_amp -> :313 torch.cuda.amp.autocast(amp) fp16 + :255 GradScaler; fp32 weights"),
 "optimizer.name":T("SGD",yvt+":462 --optimizer default SGD -> :143 smart_optimizer",any_of=["SGD","sgd"]),
 "data.pin_memory":T(True,"utils/dataloaders.py:39 PIN_MEMORY default True -> :148"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models/"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch (--weights '')"),
},held_out=True,note=H20+"; README.md:180-185 python -m torch.distributed.launch --nproc_per_node 8 --master_port 9527 train_dual.py ... --batch 128 --cfg models/detect/yolov9-c.yaml (argparse, a model built from a layer-list YAML whose size is in the YAML, the batch given for all GPUs and divided in code, AMP chosen by a runtime check; object detection, vision). Not labelled: workers (min(cpu_count // 8, 16, 8), utils/dataloaders.py:137, depends on the machine)")
FLM=("fla-org/flame","e11e7be75b9e45e84dbecbe8f0efa27d6af7d101")
flt="flame/models/fla.toml"
J("flame-transformer-340m-fineweb-fsdp-8gpu",*FLM,["."],".",["train.sh","--","--job.config_file",flt,
 "--job.dump_folder","exp/transformer-340M-10B/batch32.seqlen2048.warmup1024.update1.steps20480.lr3e-4",
 "--model.config","configs/transformer_340M.json","--model.tokenizer_path","fla-hub/transformer-1.3B-100B",
 "--optimizer.name","AdamW","--optimizer.eps","1e-15","--optimizer.lr","3e-4","--lr_scheduler.warmup_steps","1024",
 "--lr_scheduler.lr_min","0.1","--lr_scheduler.decay_type","cosine","--training.batch_size","32","--training.seq_len","2048",
 "--training.gradient_accumulation_steps","1","--training.steps","20480","--training.max_norm","1.0","--training.skip_nan_inf",
 "--training.dataset","HuggingFaceFW/fineweb-edu","--training.dataset_name","default","--training.dataset_split","train",
 "--training.streaming","--training.num_workers","32","--training.prefetch_factor","2","--training.seed","42","--training.compile",
 "--training.tensor_parallel_degree","1","--training.disable_loss_parallel","--checkpoint.interval","2048",
 "--checkpoint.load_step","-1","--metrics.log_freq","1"],{
 "model.num_parameters":T(357000000,"--model.config configs/transformer_340M.json (hidden 1024, 24 layers, 16 heads, vocab 32000, untied) -> flame/train.py:185,214 AutoModelForCausalLM.from_config (fla 'transformer'); my count 374M with fla's GatedMLP (intermediate 2816), the file name says 340M",rel_tol=0.1),
 "dist.world_size":T(8,"train.sh:12 NGPU default 8 -> :99-100 torchrun --nproc_per_node=${NGPU}"),
 "dist.nodes":T(1,"train.sh:11 NNODE default 1"),
 "dist.sharding":T("fsdp_full",flt+":18 data_parallel_shard_degree = -1 (all 8 ranks) -> flame/models/parallelize_fla.py:80 apply_fsdp (FSDP2 fully_shard)"),
 "batch.micro":T(32,"--training.batch_size 32 (per rank: flame/train.py:174 dataloader batch_size, :362-365 global = batch x dp x accumulation)"),
 "batch.grad_accum":T(1,"--training.gradient_accumulation_steps 1"),
 "batch.global":T(256,"32 x 8 x 1 (flame/train.py:362-365)"),
 "data.seq_len":T(2048,"--training.seq_len 2048 (context_len 2048, "+flt+":12)"),
 "precision.mode":T("amp_bf16","flame/config_manager.py:417-420 mixed_precision_param default bfloat16, reduce float32 -> FSDP2 MixedPrecisionPolicy over fp32 params"),
 "optimizer.name":T("AdamW","--optimizer.name AdamW",any_of=["AdamW","adamw"]),
 "compile.enabled":T(True,"--training.compile -> flame/models/parallelize_fla.py:69-70 apply_compile per block"),
 "data.num_workers":T(32,"--training.num_workers 32"),
 "data.pin_memory":T(False,flt+":24 pin_memory = false"),
 "memory.gradient_checkpointing":T(False,flt+":66-67 activation_checkpoint mode none"),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H20+"; train.sh:29-58 NNODE=1 NGPU=8 LOG_RANK=0 bash train.sh --job.config_file flame/models/fla.toml ... (the usage block in the script; the README's example uses the same script): a torchtitan-style TOML job config overridden by dotted flags, the model chosen by a JSON config path whose size is in the file (the TOML's own [model] config is a Hub id that the flag replaces), FSDP2 with a bf16 param dtype, per-block compile; LLM pretraining with a linear-attention library)")
COC=("facebookresearch/coconut","27273cb8cca4bb763c041a63b036d0c3b7cbbb48")
J("coconut-gsm-cot-gpt2-fsdp-4gpu",*COC,["."],".",["--","torchrun","--nnodes","1","--nproc_per_node","4","run.py","args/gsm_cot.yaml"],{
 "model.ref":T("openai-community/gpt2","args/gsm_cot.yaml:21 model_id -> run.py:54,103 AutoModelForCausalLM.from_pretrained(configs.model_id)",any_of=["openai-community/gpt2","gpt2"]),
 "dist.world_size":T(4,"README.md:112 --nproc_per_node 4"),
 "dist.nodes":T(1,"--nnodes 1"),
 "dist.sharding":T("fsdp_full","run.py:188-190 FSDP(model, auto_wrap_policy=LlamaDecoderLayer only) with the default FULL_SHARD: for GPT-2 the whole model is one FSDP unit (the comment at :175 calls it DDP-like), parameters, gradients and optimizer states still sharded over 4 ranks"),
 "batch.micro":T(32,"args/gsm_cot.yaml:29 batch_size_training -> run.py:284 DataLoader per rank"),
 "batch.grad_accum":T(1,"args/gsm_cot.yaml:31"),
 "batch.global":T(128,"32 x 1 x 4"),
 "precision.mode":T("fp32","args/gsm_cot.yaml:25 bf16: False -> run.py:180-181 no cast; no autocast in run.py"),
 "optimizer.name":T("AdamW","run.py:232 optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(1,"run.py:281"),
 "data.pin_memory":T(True,"run.py:283"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in run.py or coconut.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tune"),
},held_out=True,note=H20+"; README.md:109-113 torchrun --nnodes 1 --nproc_per_node 4 run.py args/gsm_cot.yaml (a positional YAML read into a namespace-like Config, the model a Hub id in the YAML, FSDP with a Llama-only wrap policy on GPT-2; the CoT stage of Coconut latent reasoning). Not labelled: sequence length (no truncation; GSM8K question + steps + answer)")
MSF=("kyutai-labs/moshi-finetune","2acc879fe7c48f885a18f6cc9548bccb2674d87b")
msy="example/moshi_7B.yaml"
msw="finetune/wrapped_model.py"
J("moshi-finetune-7b-lora-fsdp-8gpu",*MSF,["."],".",["--","torchrun","--nproc-per-node","8","-m","train",msy],{
 "model.ref":T("kyutai/moshiko-pytorch-bf16",msy+":8-9 moshi_paths.hf_repo_id -> train.py:128 CheckpointInfo.from_hf_repo"),
 "dist.world_size":T(8,"README.md:169 torchrun --nproc-per-node 8"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("fsdp_full",msw+":193-195 FullyShardedDataParallel(sharding_strategy=FULL_SHARD) when world size > 1"),
 "batch.micro":T(16,msy+":23 batch_size -> train.py:171 -> finetune/data/data_loader.py:37 batches of batch_size per rank (data sharded by rank)"),
 "batch.grad_accum":T(1,"finetune/args.py:79 num_microbatches default 1 -> train.py:244"),
 "batch.global":T(128,"16 x 1 x 8"),
 "precision.mode":T("bf16","finetune/args.py:111 param_dtype bfloat16 -> "+msw+":116-165 weights in bf16; train.py:191-192,227 prepare_mixed_precision keeps fp32 copies (optim_dtype float32) of the trainable params"),
 "peft.method":T("lora",msy+":11-13 full_finetuning false, lora.enable true -> "+msw+":168-175 only lora params trainable"),
 "peft.rank":T(128,msy+":14 -> train.py:142"),
 "task.mode":T("lora","bf16 base + LoRA",any_of=["lora"]),
 "memory.gradient_checkpointing":T(True,msy+":25 -> "+msw+":126"),
 "optimizer.name":T("AdamW","train.py:12,197 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "compile.enabled":T(False,"no torch.compile in the repository"),
},held_out=True,note=H20+"; README.md:166-170 torchrun --nproc-per-node 8 --master_port $RANDOM -m train example/moshi_7B.yaml, written without the random port (a module entry point given a positional YAML parsed into simple_parsing dataclasses, the model a Hub repo id in the YAML, FSDP with hand-made bf16/fp32 mixed precision, LoRA; speech-text foundation model). Not labelled: sequence length (duration_sec 100 at the codec's 12.5 Hz frame rate = 1250 steps of 17 streams, "+msy+":22), model size (the Hub checkpoint's config)")
OCR=("allenai/olmocr","f7cfe4c22098b154c76b6ec950d1c0a464eecf8d")
occ="olmocr/train/configs/v0.4.0/qwen25_vl_olmocrv4_rotation_1epoch_mix_1025_filtered.yaml"
oct_="olmocr/train/train.py"
J("olmocr-qwen25-vl-7b-yaml-1gpu",*OCR,["olmocr","pyproject.toml","README.md"],".",["--","python","-m","olmocr.train.train","--config",occ],{
 "model.ref":T("Qwen/Qwen2.5-VL-7B-Instruct",occ+":9 model.name -> "+oct_+":335-341 Qwen2_5_VLForConditionalGeneration.from_pretrained"),
 "dist.world_size":T(1,"olmocr/train/README.md:103 python -m olmocr.train.train: one process, no torch.distributed in "+oct_),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/FSDP/DeepSpeed; "+oct_+":430-431 model.to(cuda)",any_of=["none"]),
 "batch.micro":T(1,occ+":80 -> "+oct_+":283"),
 "batch.grad_accum":T(32,occ+":82 -> "+oct_+":644 loss / accumulation, optimizer.step every 32 batches"),
 "batch.global":T(32,"1 x 32 x 1"),
 "data.seq_len":T(8192,occ+":86 collator_max_token_len -> "+oct_+":97-101 truncation"),
 "precision.mode":T("bf16",occ+":11 torch_dtype bfloat16 -> "+oct_+":327 weights in bf16 + :642 autocast bf16; AdamW on the bf16 params (no fp32 copy)"),
 "optimizer.name":T("AdamW",occ+":94 optim adamw_torch -> "+oct_+":450-466 torch.optim.AdamW",any_of=["AdamW","adamw","adamw_torch"]),
 "model.attn_implementation":T("flash_attention_2",occ+":12-13 -> "+oct_+":330"),
 "memory.gradient_checkpointing":T(False,occ+":84"),
 "compile.enabled":T(True,occ+":99 torch_compile true -> "+oct_+":434-441"),
 "data.num_workers":T(16,"olmocr/train/config.py:263 dataloader_num_workers default 16 -> "+oct_+":286"),
 "peft.method":T("none",occ+":16 use_lora false"),
},held_out=True,note=H20+"; olmocr/train/README.md:100-104 python -m olmocr.train.train --config olmocr/train/configs/v0.4.0/... (a nested YAML loaded into dataclasses, the model a Hub id in the YAML, a hand-written loop with bf16 weights and autocast, torch.compile; a 7B vision-language OCR model)")
SR1=("PeterGriffinJin/Search-R1","a14dc3a4ffc6fe88c1e95038d9738e21ba3f7a06")
srf="verl/workers/fsdp_workers.py"
J("search-r1-ppo-llama32-3b-verl-8gpu",*SR1,["."],".",["train_ppo.sh"],{
 "model.ref":T("meta-llama/Llama-3.2-3B","train_ppo.sh:6 export BASE_MODEL -> :42 actor_rollout_ref.model.path=$BASE_MODEL (and :64 critic)"),
 "dist.world_size":T(8,"train_ppo.sh:1 CUDA_VISIBLE_DEVICES=0..7, :77-78 trainer.n_gpus_per_node=8 nnodes=1 (Ray workers, one per GPU)"),
 "dist.nodes":T(1,"train_ppo.sh:78"),
 "dist.sharding":T("fsdp_full",srf+":200-218 actor FSDP with a transformer wrap policy -> ShardingStrategy.FULL_SHARD"),
 "batch.micro":T(8,"train_ppo.sh:48 ppo_micro_batch_size=64 -> "+srf+":98 divided by 8 ranks"),
 "batch.grad_accum":T(4,"train_ppo.sh:47 ppo_mini_batch_size=256 / 8 ranks = 32 per rank ("+srf+":97), in micro batches of 8: verl/workers/actor/dp_actor.py:207-208 gradient_accumulation = 32 // 8, :220-286 one optimizer step per mini batch"),
 "batch.global":T(256,"train_ppo.sh:47 ppo_mini_batch_size (sequences per actor optimizer step; rollout.n 1)"),
 "precision.mode":T("amp_bf16",srf+":132-134 actor weights fp32 + :184-192 FSDP MixedPrecision(param_dtype bf16, reduce fp32)"),
 "optimizer.name":T("AdamW",srf+":229 optim.AdamW",any_of=["AdamW","adamw"]),
 "model.attn_implementation":T("flash_attention_2",srf+":167"),
 "memory.gradient_checkpointing":T(True,"train_ppo.sh:44 enable_gradient_checkpointing=true -> "+srf+":172-173"),
 "peft.method":T("none","full-parameter PPO"),
},held_out=True,note=H20+"; README.md:125-129 bash train_ppo.sh (exported CUDA_VISIBLE_DEVICES and BASE_MODEL, then python3 -m verl.trainer.main_ppo with ~60 Hydra key=value overrides on a vendored verl 0.1, PPO with a critic, vLLM rollouts, batch sizes given globally and divided per rank in the worker; RL post-training with a search tool). Not labelled: sequence length (prompt up to 4096 plus 500-token turns), offload (fsdp_config param/optimizer_offload are verl's manual offload between phases, not during the update)")
AMB=("LLM360/amber-train","64bc595600324ebb7d6d559af76a8702f0872776")
J("amber-7b-pretrain-fabric-fsdp-sbatch-56nodes",*AMB,["."],".",["run.sh"],{
 "model.num_parameters":T(6738000000,"main.py:30,147-148 LlamaForCausalLM(config=AutoConfig.from_pretrained('huggyllama/llama-7b')): LLaMA-7B shape, trained from scratch",rel_tol=0.1),
 "model.ref":T("huggyllama/llama-7b","main.py:27,30 HF_MODEL_NAME_OR_PATH = f'huggyllama/llama-{MODEL_SIZE}' (the config only; weights initialised from scratch)"),
 "dist.nodes":T(56,"run.sh:4 #SBATCH --nodes=56, :12 --n_nodes 56 -> main.py:126 Fabric(num_nodes)"),
 "dist.devices_per_node":T(4,"run.sh:5,7 4 tasks and 4 GPUs per node; main.py:120 n_devices_per_node default 4"),
 "dist.world_size":T(224,"56 x 4"),
 "dist.sharding":T("fsdp_full","main.py:129-135 Fabric FSDPStrategy (default FULL_SHARD)"),
 "dist.offload_params":T("cpu","main.py:134 cpu_offload=True"),
 "batch.micro":T(10,"main.py:121 per_device_batch_size default 10 (fire, not given by run.sh)"),
 "batch.grad_accum":T(1,"main.py:122 accumulate_grad_batches default 1"),
 "batch.global":T(2240,"10 x 1 x 224"),
 "precision.mode":T("amp_bf16","main.py:42 PRECISION = 'bf16-mixed' -> Fabric autocast bf16 over fp32 params"),
 "optimizer.name":T("AdamW","main.py:149-154 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,"main.py:133 activation_checkpointing_policy={LlamaDecoderLayer}"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H20+"; run.sh (an sbatch script: #SBATCH --nodes=56 --ntasks-per-node=4 --gres=gpu:4, then srun python main.py --n_nodes 56 --run_wandb; fire.Fire over main's keyword defaults, module constants for precision and the model name, Lightning Fabric with FSDP, CPU offload and activation checkpointing; LLM pretraining of Amber-7B). Not labelled: sequence length (the pre-tokenised jsonl examples' length, main.py:50-53)")
PFM=("sail-sg/poolformer","a075575b8b3dc3c76ecc5c49985d156167372bfa")
J("poolformer-s12-imagenet-apex-8gpu",*PFM,["distributed_train.sh","train.py","models","README.md"],".",["distributed_train.sh","--","8","/path/to/imagenet",
 "--model","poolformer_s12","-b","128","--lr","1e-3","--drop-path","0.1","--apex-amp"],{
 "model.ref":T("poolformer_s12","README.md:127,130 --model $MODEL with MODEL=poolformer_s12 -> models/poolformer.py:424-425 @register_model (timm create_model)"),
 "model.num_parameters":T(12000000,"models/poolformer.py:427 'Params: 12M'; README.md:89",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:129 ./distributed_train.sh 8 -> distributed_train.sh:4 torch.distributed.launch --nproc_per_node=$NUM_PROC"),
 "dist.nodes":T(1,"torch.distributed.launch on one machine"),
 "dist.devices_per_node":T(8,"README.md:129"),
 "dist.sharding":T("ddp","train.py:472 ApexDDP (apex AMP) / :476 NativeDDP"),
 "batch.micro":T(128,"README.md:130 -b 128 (per process, timm-style)"),
 "batch.grad_accum":T(1,"no accumulation in train.py"),
 "batch.global":T(1024,"128 x 8"),
 "data.image_size":T(224,"the model's default input size (README.md:89 resolution 224; --img-size not given)"),
 "precision.mode":T("amp_fp16","README.md:130 --apex-amp -> train.py:361-362,435 apex amp.initialize(opt_level='O1') (apex listed in README.md:63 for fp16)"),
 "optimizer.name":T("adamw","train.py:122 --opt default adamw (timm create_optimizer)",any_of=["adamw","AdamW"]),
 "data.num_workers":T(8,"train.py:271 --workers default 8"),
 "data.pin_memory":T(False,"train.py:285 --pin-mem not given"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models/poolformer.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H20+"; README.md:125-131 MODEL=poolformer_s12 DROP_PATH=0.1 CUDA_VISIBLE_DEVICES=0,...,7 ./distributed_train.sh 8 /path/to/imagenet --model $MODEL -b 128 --lr 1e-3 --drop-path $DROP_PATH --apex-amp, with the shell variables expanded (a timm-derived train.py, the model a timm registry key registered by the project, apex AMP; image classification, vision)")

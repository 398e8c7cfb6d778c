"""The sixteenth held-out set of the jobs benchmark (run.py --set held-out-16): expert truth
written by hand, one J(...) per job."""
from .core import J, T

H16="sixteenth held-out set"
SCA=("bigcode-project/starcoder2-self-align","0b19dbcdccb4db0601a9a77ac0df53c7abcfb8cc")
sct="src/star_align/train.py"
scw="src/star_align/llm_wrapper.py"
J("starcoder2-15b-instruct-accelerate-sft",*SCA,["src","README.md","pyproject.toml","requirements.txt"],".",["--","accelerate","launch","-m","star_align.train",
 "--model_key","bigcode/starcoder2-15b","--model_name_or_path","bigcode/starcoder2-15b","--use_flash_attention","True",
 "--datafile_paths","data/50k-dataset.jsonl","--output_dir","out/sc2-15b-instruct","--bf16","True","--num_train_epochs","4",
 "--max_training_seq_length","1280","--pad_to_max_length","False","--per_device_train_batch_size","1",
 "--gradient_accumulation_steps","64","--group_by_length","False","--ddp_find_unused_parameters","False","--logging_steps","1",
 "--log_level","info","--optim","adafactor","--max_grad_norm","-1","--warmup_ratio","0.05","--learning_rate","1e-5",
 "--lr_scheduler_type","linear","--attention_dropout","0.0","--residual_dropout","0.0","--embedding_dropout","0.0"],{
 "model.ref":T("bigcode/starcoder2-15b","README.md:233,242 MODEL_KEY -> --model_name_or_path -> "+scw+":452-457 AutoModelForCausalLM.from_pretrained"),
 "batch.micro":T(1,"README.md:250 --per_device_train_batch_size 1 (HfArgumentParser TrainingArguments, "+sct+":148)"),
 "batch.grad_accum":T(64,"README.md:251 --gradient_accumulation_steps 64"),
 "data.seq_len":T(1280,"README.md:236,248 SEQ_LEN=1280 -> --max_training_seq_length -> "+sct+":66-72 truncation; README.md:215 Sequence length 1280"),
 "precision.mode":T("bf16",scw+":427,452-454 from_pretrained(torch_dtype=torch.bfloat16): the Trainer's optimizer holds bf16 weights (no fp32 master) + README.md:246 --bf16 True"),
 "optimizer.name":T("adafactor","README.md:256 --optim adafactor (TrainingArguments -> transformers Adafactor)",any_of=["adafactor","Adafactor"]),
 "model.attn_implementation":T("flash_attention_2","README.md:243 --use_flash_attention True -> "+sct+":196 -> "+scw+":431-440 attn_implementation='flash_attention_2'"),
 "memory.gradient_checkpointing":T(False,"--gradient_checkpointing not given (TrainingArguments default False)"),
 "peft.method":T("none","full fine-tune: "+sct+":211-219 Trainer on the whole model, no PEFT"),
 "dist.sharding":T("none","no FSDP/DeepSpeed flag and no accelerate config; README.md:219 one A100 80GB",any_of=["none","ddp"]),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0, not given"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"TrainingArguments torch_compile default False, not given"),
},held_out=True,note=H16+"; README.md:232-263 accelerate launch -m star_align.train ... with MODEL_KEY=bigcode/starcoder2-15b, SEQ_LEN=1280, EPOCH=4, LR=1e-5, WARMUP_RATIO=0.05 expanded and the dataset/output placeholders filled (a package module under src/ run by accelerate launch -m; HfArgumentParser over ModelArguments, TrainingArguments and Args dataclasses; HF Trainer). Not labelled: world size (accelerate launch with no config file and no --num_processes takes every visible GPU; README.md:219 says one A100)")
LLMC=("karpathy/llm.c","f1e2ace651495b74ae22d45d1723443fd00ecd3a")
lcs="scripts/pyrun_gpt2_124M.sh"
lct="train_gpt2.py"
J("llmc-gpt2-124m-torchrun-zero1",*LLMC,["train_gpt2.py","scripts","README.md","requirements.txt"],".",[lcs],{
 "model.num_parameters":T(124439808,lcs+":14 --model d12 -> "+lct+":655 GPTConfig(block_size 1024, vocab 50257, n_layer 12, n_head 12, n_embd 768), tied wte/lm_head: GPT-2 124M",rel_tol=0.05),
 "dist.world_size":T(8,lcs+":7 torchrun --standalone --nproc_per_node=8"),
 "dist.nodes":T(1,lcs+":7 --standalone"),
 "dist.devices_per_node":T(8,lcs+":7"),
 "dist.sharding":T("zero1",lcs+":24 --zero_stage 1 -> "+lct+":262-265 ZeroRedundancyOptimizer(AdamW) under DDP (:707): optimizer states sharded, weights and gradients replicated"),
 "batch.micro":T(32,lcs+":15 --batch_size 32 (B, per process) -> "+lct+":581"),
 "data.seq_len":T(1024,lcs+":16 --sequence_length 1024"),
 "batch.grad_accum":T(2,lct+":622-624 total_batch_size 524288 ("+lcs+":17) // (32 x 1024 x 8)"),
 "batch.global":T(512,"32 sequences x 8 processes x 2 accumulation steps = 524288 tokens / 1024"),
 "precision.mode":T("amp_bf16",lcs+":18 --dtype bfloat16 -> "+lct+":629-630 torch.amp.autocast(bfloat16) over fp32 weights"),
 "compile.enabled":T(True,lcs+":19 --compile 1 -> "+lct+":667-670 torch.compile"),
 "optimizer.name":T("AdamW",lct+":264 ZeroRedundancyOptimizer(optimizer_class=torch.optim.AdamW, fused)",any_of=["AdamW","adamw","ZeroRedundancyOptimizer"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in "+lct),
 "peft.method":T("none","trained from scratch ("+lct+":651-658 random init)"),
},held_out=True,note=H16+"; bash scripts/pyrun_gpt2_124M.sh from the repo root (torchrun --standalone --nproc_per_node=8 train_gpt2.py ... the PyTorch reference of llm.c, a nanoGPT-like raw DDP loop with argparse; the accumulation is computed from a token budget). Not labelled: loader workers (a custom DistributedDataLoader over .bin shards, no torch DataLoader)")
CNX=("facebookresearch/ConvNeXt","048efcea897d999aed302f2639b6270aedf8d4c8")
J("convnext-small-in1k-distlaunch-amp",*CNX,["main.py","engine.py","optim_factory.py","utils.py","datasets.py","models","TRAINING.md","README.md","INSTALL.md"],".",
 ["--","python","-m","torch.distributed.launch","--nproc_per_node=8","main.py","--model","convnext_small","--drop_path","0.4",
  "--batch_size","128","--lr","4e-3","--update_freq","4","--model_ema","true","--model_ema_eval","true",
  "--data_path","/datasets/imagenet-1k","--output_dir","out/convnext_small","--use_amp","true"],{
 "model.num_parameters":T(50220000,"--model convnext_small -> models/convnext.py:168-169 ConvNeXt(depths [3,3,27,3], dims [96,192,384,768]), 1000 classes (main.py:151); README.md:37 ConvNeXt-S 50M",rel_tol=0.1),
 "dist.world_size":T(8,"TRAINING.md:61 --nproc_per_node=8"),
 "dist.nodes":T(1,"one machine (TRAINING.md:59 Single-machine)"),
 "dist.devices_per_node":T(8,"TRAINING.md:61"),
 "dist.sharding":T("ddp","main.py:347 DistributedDataParallel"),
 "batch.micro":T(128,"TRAINING.md:63 --batch_size 128 (per GPU, TRAINING.md:26) -> main.py:250-253 DataLoader"),
 "batch.grad_accum":T(4,"TRAINING.md:63 --update_freq 4 -> engine.py:68-73 loss / update_freq, step every 4"),
 "batch.global":T(4096,"8 x 128 x 4 (TRAINING.md:40)"),
 "precision.mode":T("amp_fp16","--use_amp true (TRAINING.md:23) -> engine.py:52 torch.cuda.amp.autocast() (fp16) + main.py:355 NativeScaler (GradScaler)"),
 "optimizer.name":T("AdamW","main.py:74 --opt default adamw -> optim_factory.py:149-150 optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(10,"main.py:179 --num_workers default 10 -> :253"),
 "data.pin_memory":T(True,"main.py:180 --pin_mem default True -> :254"),
 "data.image_size":T(224,"main.py:62 --input_size default 224"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models/convnext.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","trained from scratch (main.py:278-279 pretrained=False)"),
},held_out=True,note=H16+"; TRAINING.md:59-67 ConvNeXt-S single-machine command (python -m torch.distributed.launch --nproc_per_node=8 main.py ...) with --use_amp true added as TRAINING.md:23 suggests and the data/output placeholders filled (argparse with str2bool flags, timm create_model by name, raw DDP loop in engine.py with accumulation; vision). Not labelled: the EMA copy of the weights (model_ema, no plan field)")
IJ=("facebookresearch/ijepa","52c1ae95d05f743e000e8f10a1f3a79b10cff048")
ijc="configs/in1k_vith14_ep300.yaml"
J("ijepa-vith14-in1k-3gpu-mp",*IJ,["."],".",["main.py","--","--fname",ijc,"--devices","cuda:0","cuda:1","cuda:2"],{
 "dist.world_size":T(3,"README.md:116-119 --devices cuda:0 cuda:1 cuda:2 -> main.py:58-65 one mp.Process per device, init_distributed(world_size 3)"),
 "dist.nodes":T(1,"main.py: local processes on one machine"),
 "dist.devices_per_node":T(3,"main.py:58 len(args.devices)"),
 "dist.sharding":T("ddp","src/train.py:221-223 DistributedDataParallel(encoder/predictor/target_encoder)"),
 "batch.micro":T(128,ijc+":2 data.batch_size -> src/train.py:93 -> src/datasets/imagenet1k.py:52-59 DataLoader(batch_size=...), per process"),
 "batch.grad_accum":T(1,"src/train.py:322-330 scaler.step/optimizer.step on every batch"),
 "precision.mode":T("amp_bf16",ijc+":40 meta.use_bfloat16 true -> src/train.py:316 torch.cuda.amp.autocast(dtype=bfloat16) + src/helper.py:155 GradScaler; fp32 weights"),
 "optimizer.name":T("AdamW","src/helper.py:142 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(10,ijc+":9 -> src/train.py:95 -> imagenet1k.py:59"),
 "data.pin_memory":T(True,ijc+":10 -> src/train.py:94 -> imagenet1k.py:58"),
 "data.image_size":T(224,ijc+":7 crop_size 224"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in src/models/vision_transformer.py or src/train.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","self-supervised pre-training from scratch ("+ijc+":35 load_checkpoint false)"),
},held_out=True,note=H16+"; README.md:116-119 python main.py --fname configs/in1k_vith14_ep300.yaml --devices cuda:0 cuda:1 cuda:2 (a YAML config read with yaml.load into a dict of sections; main.py spawns one multiprocessing.Process per device, no torchrun; raw loop with a context encoder, a predictor and an EMA target encoder; self-supervised vision). Not labelled: model size (ViT-H/14 encoder + 12-layer predictor trained, plus an EMA target encoder)")
OLM=("mlfoundations/open_lm","9bb92ef1689333534b7057942a20d18a46d1fa52")
J("open-lm-3b-torchrun-fsdp",*OLM,["open_lm","README.md","requirements.txt","setup.py"],".",["--","torchrun","--nproc-per-node","4","-m","open_lm.main",
 "--model","open_lm_3b","--train-data","/preproc_data/shard-{0000000..0000099}.tar","--train-num-samples","1000000000",
 "--workers","8","--dataset-resampled","--precision","amp_bfloat16","--global-batch-size","32","--grad-checkpointing",
 "--log-every-n-steps","100","--grad-clip-norm","1","--data-key","txt","--lr","3e-4","--fsdp","--fsdp-amp","--warmup","2000",
 "--wd","0.1","--beta2","0.95","--epochs","100","--report-to","wandb","--wandb-project-name","open_lm_example",
 "--name","open_lm_ex_1","--resume","latest","--logs","logs/"],{
 "model.num_parameters":T(2796000000,"--model open_lm_3b -> open_lm/model_configs/open_lm_3b.json:2-8 hidden 2560, 32 layers, vocab 50432, untied; open_lm/model.py:248-251 SwiGLU hidden 6912: 32 x 79.3M + 2 x 129.1M embeddings ~2.80B",rel_tol=0.05),
 "dist.world_size":T(4,"README.md:82 torchrun --nproc-per-node 4 (README.md:81 CUDA_VISIBLE_DEVICES=0,1,2,3)"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.devices_per_node":T(4,"README.md:82"),
 "dist.sharding":T("fsdp_full","--fsdp -> open_lm/main.py:548-557 FSDP with no sharding_strategy (default FULL_SHARD; --fsdp-hybrid not given)"),
 "batch.micro":T(8,"--global-batch-size 32 / 4 processes -> open_lm/main.py:326 per_gpu_batch_size (README.md:89 --batch-size 8 per GPU)"),
 "batch.global":T(32,"--global-batch-size 32"),
 "batch.grad_accum":T(1,"open_lm/params.py:553-556 --accum-freq default 1, not given"),
 "data.seq_len":T(2048,"open_lm/model_configs/open_lm_3b.json:5 seq_len 2048 -> open_lm/main.py:478 args.seq_len = model.seq_len"),
 "precision.mode":T("amp_bf16","README.md:88 --precision amp_bfloat16 -> open_lm/precision.py:7-10 autocast(bfloat16) + --fsdp-amp -> open_lm/main.py:518-524 FSDP MixedPrecision(param_dtype bf16, reduce fp32) over fp32 sharded weights"),
 "memory.gradient_checkpointing":T(True,"README.md:90 --grad-checkpointing -> open_lm/main.py:491-492 model.set_grad_checkpointing()"),
 "optimizer.name":T("AdamW","open_lm/params.py:373 --optimizer default adamw -> open_lm/main.py:644 optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(8,"README.md:86 --workers 8 -> open_lm/data.py:509-513 wds.WebLoader(num_workers=...)"),
 "compile.enabled":T(False,"--torchcompile not given (open_lm/params.py:436-439)"),
 "peft.method":T("none","pre-training from scratch"),
},held_out=True,note=H16+"; README.md:81-105 torchrun --nproc-per-node 4 -m open_lm.main ... with --batch-size 8 written as --global-batch-size 32: the README's --batch-size no longer exists in open_lm/params.py (argparse would refuse it; 8 per GPU x 4 GPUs kept); $RANDOM and the log path filled (a package module launched by torchrun -m, argparse, model sizes from JSON files named by --model, FSDP)")
NV=("huggingface/nanoVLM","4e0c0961846135c2217f95e54cb4c2d66eb55e42")
nvs="slurm/train_job_distributed.slurm"
J("nanovlm-450m-sbatch-torchrun-8gpu",*NV,["."],".",[nvs],{
 "model.num_parameters":T(460000000,"models/config.py:6-15 SigLIP2-base/16-512 ViT (~93M) + :17-33 SmolLM2-360M decoder (~362M, tied) + :37 pixel-shuffle 4 projector 12288->960 (~12M); README.md:22 nanoVLM-450M",rel_tol=0.1),
 "dist.world_size":T(8,nvs+":7,18 #SBATCH --gpus=8, torchrun --nproc_per_node=8"),
 "dist.nodes":T(1,nvs+":6 #SBATCH --nodes=1"),
 "dist.devices_per_node":T(8,nvs+":18"),
 "dist.sharding":T("ddp","train.py:100,343-345 DistributedDataParallel"),
 "batch.micro":T(2,"models/config.py:63 TrainConfig.batch_size 2 -> train.py:213-215 DataLoader(batch_size=...) per device"),
 "batch.grad_accum":T(8,"models/config.py:64 gradient_accumulation_steps 8 -> train.py:375,402-403"),
 "batch.global":T(128,"2 x 8 GPUs x 8 steps (train.py:103)"),
 "data.seq_len":T(4096,"models/config.py:30 lm_max_length 4096 -> train.py:199 ConstantLengthDataset(seq_length=...) packing"),
 "precision.mode":T("amp_bf16","train.py:394-397 torch.autocast(bfloat16) on cuda; weights loaded fp32 (no torch_dtype anywhere)"),
 "optimizer.name":T("AdamW","train.py:326 optim.AdamW(param_groups)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(3,"train.py:217"),
 "data.pin_memory":T(True,"train.py:218"),
 "data.image_size":T(512,"models/config.py:9 vit_img_size 512 (images split into 512 tiles)"),
 "compile.enabled":T(False,"models/config.py:73 compile False; train.py:341-342"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models/ or train.py"),
 "peft.method":T("none","full training of projector, vision and language backbones (models/config.py:59-61 all learning rates > 0, train.py:310-326)"),
},held_out=True,note=H16+"; sbatch slurm/train_job_distributed.slurm (#SBATCH --nodes=1 --gpus=8; cd to the author's checkout, source .venv, torchrun --nproc_per_node=8 train.py with no arguments: every setting from the VLMConfig/TrainConfig dataclass defaults in models/config.py; raw DDP loop with bf16 autocast; vision-language model)")
IDF=("openai/improved-diffusion","1bc7bbbdc414d83d4abf2ad8cc1446dc36c4e4d5")
J("improved-diffusion-cifar10-mpiexec-4",*IDF,["."],".",["--","mpiexec","-n","4","python","scripts/image_train.py","--data_dir","cifar_train",
 "--image_size","32","--num_channels","128","--num_res_blocks","3","--learn_sigma","True","--dropout","0.3",
 "--diffusion_steps","4000","--noise_schedule","cosine","--lr","1e-4","--batch_size","32"],{
 "model.num_parameters":T(50000000,"README.md:95 MODEL_FLAGS image_size 32, num_channels 128, 3 res blocks, learn_sigma -> improved_diffusion/script_util.py UNetModel; README.md:92 checkpoint cifar10_uncond_50M",rel_tol=0.1),
 "dist.world_size":T(4,"README.md:53 mpiexec -n $NUM_GPUS with 4 -> improved_diffusion/dist_util.py setup_dist over MPI.COMM_WORLD"),
 "dist.sharding":T("ddp","improved_diffusion/train_util.py:97 DDP"),
 "batch.micro":T(32,"--batch_size 32 (README.md:56: divide the 128 of README.md:97 by the 4 ranks) -> scripts/image_train.py:35 load_data(batch_size) -> improved_diffusion/image_datasets.py:49-51; train_util.py:53 microbatch -1 -> the whole batch"),
 "batch.grad_accum":T(1,"scripts/image_train.py:68 microbatch default -1: one forward/backward per batch (train_util.py:53)"),
 "batch.global":T(128,"32 x 4 ranks"),
 "precision.mode":T("fp32","scripts/image_train.py:73 use_fp16 default False, not given"),
 "optimizer.name":T("AdamW","improved_diffusion/train_util.py:10,82 AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(1,"improved_diffusion/image_datasets.py:49-51 DataLoader(num_workers=1)"),
 "data.image_size":T(32,"README.md:95 --image_size 32"),
 "memory.gradient_checkpointing":T(False,"improved_diffusion/script_util.py:33 use_checkpoint default False, not given"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","trained from scratch"),
},held_out=True,note=H16+"; README.md:53 mpiexec -n $NUM_GPUS python scripts/image_train.py --data_dir ... $MODEL_FLAGS $DIFFUSION_FLAGS $TRAIN_FLAGS with the CIFAR-10 flags of README.md:95-97 expanded, NUM_GPUS=4 and --batch_size 128/4 as README.md:56 asks (MPI launcher, argparse built from a defaults dict by add_dict_to_argparser; diffusion)")
DP=("tdrussell/diffusion-pipe","8f83dbf25d03219df705570ec03e62be04bc402f")
dpc="examples/main_example.toml"
J("diffusion-pipe-hunyuan-video-lora-deepspeed",*DP,["train.py","examples","utils","models","README.md","requirements.txt","docs"],".",["--","deepspeed","--num_gpus=1","train.py","--deepspeed","--config",dpc],{
 "dist.world_size":T(1,"README.md:118 deepspeed --num_gpus=1"),
 "dist.sharding":T("none","train.py:423-428 DeepSpeed config without zero_optimization (stage 0) and "+dpc+":23 pipeline_stages 1 on one GPU",any_of=["none","ddp"]),
 "batch.micro":T(1,dpc+":19 micro_batch_size_per_gpu 1 -> train.py:424"),
 "batch.grad_accum":T(1,dpc+":26 -> train.py:425"),
 "memory.gradient_checkpointing":T(True,dpc+":76 activation_checkpointing true -> train.py:587-594"),
 "peft.method":T("lora",dpc+":134-135 [adapter] type lora"),
 "peft.rank":T(32,dpc+":136"),
 "task.mode":T("lora","LoRA on a float8 HunyuanVideo transformer (bf16 adapters)",any_of=["lora","qlora"]),
 "precision.weights_bits":T(8,dpc+":129 transformer_dtype float8 (fp8 e4m3 base weights)"),
 "precision.mode":T("bf16",dpc+":127,138 dtype bfloat16, adapter dtype bfloat16; train.py:423-428 no DeepSpeed fp16/bf16 section: the LoRA weights are trained in bf16 directly (optimi AdamW with Kahan summation, "+dpc+":154)"),
 "optimizer.name":T("adamw_optimi",dpc+":156 type adamw_optimi -> train.py:676-678 optimi.AdamW",any_of=["adamw_optimi","AdamW","adamw"]),
 "compile.enabled":T(False,dpc+":100 compile commented out -> train.py:142 default False"),
},held_out=True,note=H16+"; README.md:118 NCCL_P2P_DISABLE=1 NCCL_IB_DISABLE=1 deepspeed --num_gpus=1 train.py --deepspeed --config examples/hunyuan_video.toml; that file is gone at this commit and examples/main_example.toml is the HunyuanVideo example (README.md:112), so it is named instead (TOML config with a [model]/[adapter]/[optimizer] table and a dataset TOML; DeepSpeed pipeline engine; video diffusion LoRA). Not labelled: model size (local ComfyUI safetensors paths), resolution and frames (dataset.toml buckets)")
OVLA=("openvla/openvla","c8f03f48af692657d3060c19588038c7220e9af9")
ovf="vla-scripts/finetune.py"
J("openvla-7b-lora-finetune-torchrun",*OVLA,["vla-scripts","prismatic","README.md","pyproject.toml","requirements-min.txt"],".",["--","torchrun","--standalone","--nnodes","1","--nproc-per-node","1",ovf,
 "--vla_path","openvla/openvla-7b","--data_root_dir","datasets/open-x-embodiment","--dataset_name","bridge_orig",
 "--run_root_dir","runs","--adapter_tmp_dir","adapter-tmp","--lora_rank","32","--batch_size","16",
 "--grad_accumulation_steps","1","--learning_rate","5e-4","--image_aug","True","--wandb_project","openvla",
 "--wandb_entity","me","--save_steps","5000"],{
 "model.ref":T("openvla/openvla-7b","README.md:185 --vla_path -> "+ovf+":158-164 AutoModelForVision2Seq.from_pretrained(cfg.vla_path)"),
 "dist.world_size":T(1,"README.md:184 torchrun --standalone --nnodes 1 --nproc-per-node 1"),
 "dist.nodes":T(1,"README.md:184 --nnodes 1"),
 "dist.devices_per_node":T(1,"README.md:184 --nproc-per-node 1"),
 "dist.sharding":T("ddp",ovf+":185 DDP(vla) (one process)",any_of=["ddp","none"]),
 "batch.micro":T(16,"README.md:191 --batch_size 16 (draccus FinetuneConfig, "+ovf+":87) -> :232-234 DataLoader(batch_size=...)"),
 "batch.grad_accum":T(1,"README.md:192 --grad_accumulation_steps 1 -> "+ovf+":264,315"),
 "precision.mode":T("amp_bf16",ovf+":158-161 from_pretrained(torch_dtype=bfloat16) frozen base + :254 torch.autocast(bfloat16); LoRA adapters trainable (PEFT get_peft_model keeps them fp32 by default)",any_of=["amp_bf16","bf16"]),
 "peft.method":T("lora",ovf+":99 use_lora default True -> :172-181 LoraConfig(target_modules all-linear) + get_peft_model"),
 "peft.rank":T(32,"README.md:190 --lora_rank 32 -> "+ovf+":175"),
 "task.mode":T("lora","bf16 base + LoRA; "+ovf+":102 use_quantization default False (no 4-bit)"),
 "precision.weights_bits":T(16,ovf+":102,143-148 no quantization_config: bf16 weights"),
 "optimizer.name":T("AdamW",ovf+":35,189 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(0,ovf+":237 num_workers=0"),
 "memory.gradient_checkpointing":T(False,"never enabled in "+ovf),
 "compile.enabled":T(False,"no torch.compile"),
},held_out=True,note=H16+"; README.md:184-197 torchrun --standalone --nnodes 1 --nproc-per-node 1 vla-scripts/finetune.py ... with the placeholders (data/run/adapter dirs, image_aug, wandb, save_steps) filled (a draccus dataclass config parsed by @draccus.wrap, HF AutoModelForVision2Seq with trust_remote_code, PEFT LoRA on all linear layers, raw DDP loop with bf16 autocast; vision-language-action model). Not labelled: image size (224 from the hub config's image_sizes, read at run time, :219), sequence length (prompt + 7 action tokens, no fixed length), model size (hub config)")
YV7=("WongKinYiu/yolov7","a207844b1ce82d204ab36d87d496728d3d2348e7")
J("yolov7-coco-distlaunch-4gpu",*YV7,["train.py","cfg","data","models","utils","README.md","requirements.txt"],".",
 ["--","python","-m","torch.distributed.launch","--nproc_per_node","4","--master_port","9527","train.py","--workers","8",
  "--device","0,1,2,3","--sync-bn","--batch-size","128","--data","data/coco.yaml","--img","640","640",
  "--cfg","cfg/training/yolov7.yaml","--weights","","--name","yolov7","--hyp","data/hyp.scratch.p5.yaml"],{
 "dist.world_size":T(4,"README.md:107 --nproc_per_node 4 -> train.py:568 WORLD_SIZE"),
 "dist.nodes":T(1,"torch.distributed.launch without --nnodes"),
 "dist.devices_per_node":T(4,"README.md:107 --nproc_per_node 4, --device 0,1,2,3"),
 "dist.sharding":T("ddp","train.py:277 DDP"),
 "batch.micro":T(32,"--batch-size 128 is the total for all GPUs (train.py:534) -> train.py:594,601-602 batch_size = 128 // 4 -> :245 create_dataloader"),
 "batch.global":T(128,"train.py:594 total_batch_size 128"),
 "batch.grad_accum":T(1,"train.py:110-111 accumulate = max(round(64 / 128), 1) = 1 (the warmup interpolation at :344 also rounds to at most 1)"),
 "precision.mode":T("amp_fp16","train.py:19,360 torch.cuda.amp.autocast(enabled=cuda) (fp16) + :299 GradScaler"),
 "optimizer.name":T("SGD","--adam not given -> train.py:183 optim.SGD(nesterov=True)",any_of=["SGD","sgd"]),
 "data.pin_memory":T(True,"utils/datasets.py:89 pin_memory=True"),
 "data.image_size":T(640,"README.md:107 --img 640 640 (argparse prefix of --img-size, train.py:535)"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models/ or train.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","--weights '' : trained from scratch"),
},held_out=True,note=H16+"; README.md:107 python -m torch.distributed.launch --nproc_per_node 4 --master_port 9527 train.py ... --sync-bn --batch-size 128 --img 640 640 --cfg cfg/training/yolov7.yaml --hyp data/hyp.scratch.p5.yaml (argparse with a total batch size divided by the world size in code, a YAML model definition and a YAML hyperparameter file; raw DDP loop with AMP; object detection). Not labelled: loader workers (min(cpu_count // world, batch, 8) at run time, utils/datasets.py:81), model size (built from the YAML layer list, cfg/training/yolov7.yaml)")

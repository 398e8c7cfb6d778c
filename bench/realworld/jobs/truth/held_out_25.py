"""The twenty-fifth held-out set of the jobs benchmark (run.py --set held-out-25): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them."""
from .core import J, T

H25="twenty-fifth held-out set"
LRC=("meta-llama/llama-recipes","faae2fd877995430906e1d0904131ecdaa89a604")
lrs="getting-started/finetuning/multi_node.slurm"
lrf="src/llama_cookbook/finetuning.py"
lrt="src/llama_cookbook/configs/training.py"
J("llama-recipes-lora-fsdp-slurm-srun-torchrun-2x4gpu",*LRC,["getting-started/finetuning","src","pyproject.toml","requirements.txt"],"getting-started/finetuning",["multi_node.slurm"],{
 "dist.world_size":T(8,lrs+":9-11 #SBATCH --ntasks=2 --nodes=2 --gpus-per-task=4 -> :35 srun torchrun --nproc_per_node 4 on each of the 2 nodes"),
 "dist.nodes":T(2,lrs+":10 #SBATCH --nodes=2"),
 "dist.devices_per_node":T(4,lrs+":35 --nproc_per_node 4"),
 "dist.sharding":T("fsdp_full",lrs+":35 --enable_fsdp -> src/llama_cookbook/configs/fsdp.py:13 sharding_strategy FULL_SHARD -> "+lrf+":284"),
 "batch.micro":T(4,lrt+":14 batch_size_training default 4 (per rank, src/llama_cookbook/utils/config_utils.py:80,95 DistributedSampler)"),
 "batch.grad_accum":T(1,lrt+":17 gradient_accumulation_steps 1"),
 "batch.global":T(32,"4 x 1 x 8"),
 "data.seq_len":T(4096,lrt+":15-16 batching_strategy packing, context_length 4096 -> "+lrf+":336-339 ConcatDataset chunks of 4096 tokens"),
 "optimizer.name":T("AdamW",lrf+":399 torch.optim.AdamW (fsdp.py:20-21 pure_bf16 False, so not AnyPrecisionAdamW)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,"src/llama_cookbook/configs/fsdp.py:18 fsdp_activation_checkpointing True -> "+lrf+":300-303"),
 "data.num_workers":T(1,lrt+":23 num_workers_dataloader 1 -> "+lrf+":352"),
 "data.pin_memory":T(True,lrf+":353"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("lora",lrs+":35 --use_peft --peft_method lora -> "+lrf+":216-217 get_peft_model"),
 "peft.rank":T(8,"src/llama_cookbook/configs/peft.py:9 lora_config r 8"),
 "task.mode":T("lora","LoRA on a full-precision base (no --quantization)"),
},held_out=True,note=H25+"; sbatch multi_node.slurm from getting-started/finetuning (a Slurm batch file: #SBATCH --nodes=2 --ntasks=2 --gpus-per-task=4, the head node's address from scontrol/srun, exports, then srun torchrun --nproc_per_node 4 --rdzv_id $RANDOM --rdzv_backend c10d --rdzv_endpoint $head_node_ip:29500 ./finetuning.py --enable_fsdp --use_peft --peft_method lora; finetuning.py is fire.Fire over llama_cookbook.finetuning.main whose settings are dataclass defaults updated from the keyword flags; LoRA fine-tuning of a Llama model under FSDP). Not labelled: the model (model_name keeps its placeholder default 'PATH/to/Model', training.py:9) and precision (FSDP bfSixteen MixedPrecision, fsdp_utils.py:109-113, over weights loaded with torch_dtype 'auto', finetuning.py:174: their dtype is the unknown checkpoint's)")
CG2=("THUDM/ChatGLM2-6B","cb8e8b43c0951b32614f25c03e1ab593a0603a1c")
cgs="ptuning/ds_train_finetune.sh"
cgm="ptuning/main.py"
J("chatglm2-6b-full-finetune-deepspeed-zero2-fp16-script-4gpu",*CG2,["ptuning","requirements.txt"],"ptuning",["ds_train_finetune.sh"],{
 "model.ref":T("THUDM/chatglm2-6b",cgs+":14 --model_name_or_path THUDM/chatglm2-6b -> "+cgm+":123 AutoModel.from_pretrained(trust_remote_code)"),
 "model.num_parameters":T(6240000000,"ChatGLM2-6B: 28 layers, hidden 4096, multi-query attention with 2 KV groups, FFN 13696, vocab 65024 untied: 6.24B",rel_tol=0.1),
 "dist.world_size":T(4,cgs+":6 deepspeed --num_gpus=4"),
 "dist.nodes":T(1,"deepspeed without a hostfile: one machine"),
 "dist.devices_per_node":T(4,cgs+":6"),
 "dist.sharding":T("zero2",cgs+":7 --deepspeed deepspeed.json -> ptuning/deepspeed.json:12-13 stage 2"),
 "dist.offload_optimizer":T("none","ptuning/deepspeed.json: no offload_optimizer"),
 "dist.reduce_bucket_size":T(500000000,"ptuning/deepspeed.json:18 reduce_bucket_size 5e8"),
 "dist.allgather_bucket_size":T(500000000,"ptuning/deepspeed.json:15 allgather_bucket_size 5e8"),
 "dist.overlap_comm":T(False,"ptuning/deepspeed.json:16"),
 "dist.contiguous_gradients":T(True,"ptuning/deepspeed.json:19"),
 "batch.micro":T(4,cgs+":19 --per_device_train_batch_size 4 (deepspeed.json:2 'auto' takes it)"),
 "batch.grad_accum":T(1,cgs+":21 --gradient_accumulation_steps 1"),
 "batch.global":T(16,"4 x 1 x 4"),
 "data.seq_len":T(129,cgs+":17-18 --max_source_length 64 --max_target_length 64 -> "+cgm+":181,204 every example padded to 64 + 64 + 1 = 129 tokens"),
 "precision.mode":T("fp16",cgs+":27 --fp16 -> ptuning/deepspeed.json:4-5 fp16 enabled 'auto' = true: DeepSpeed fp16 (16-bit weights, fp32 master copies, dynamic loss scale); "+cgm+":134 the model is first cast to fp32 (no --pre_seq_len)"),
 "optimizer.name":T("AdamW","no optimizer in ptuning/deepspeed.json (:3 zero_allow_untested_optimizer) -> the HF Trainer's default AdamW",any_of=["AdamW","adamw","adamw_hf","adamw_torch"]),
 "memory.gradient_checkpointing":T(True,cgm+":348 model.gradient_checkpointing_enable() before trainer.train"),
 "data.num_workers":T(0,"no --dataloader_num_workers (Seq2SeqTrainingArguments default 0)"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("none",cgs+": no --pre_seq_len (P-tuning) and no --quantization_bit: "+cgm+":132-134 full fine-tuning"),
},held_out=True,note=H25+"; ptuning/README.md:40-45 bash ds_train_finetune.sh from ptuning (a launch script with LR and a random MASTER_PORT from shuf, then the deepspeed launcher with --num_gpus=4 on main.py: HfArgumentParser over ModelArguments, DataTrainingArguments and Seq2SeqTrainingArguments, a DeepSpeed JSON with 'auto' values, trust_remote_code model; full-parameter fine-tuning of the ChatGLM2-6B LLM on AdvertiseGen)")
MDS=("FasterDecoding/Medusa","e2a5d20c048a9b0a4092e6933c34313687422518")
mdt="medusa/train/train_legacy.py"
J("medusa-heads-mistral-7b-deepspeed-zero3-torchrun-4gpu",*MDS,["."],".",["--","torchrun","--nproc_per_node=4",mdt,"--model_name_or_path","mistralai/Mistral-7B-Instruct-v0.2",
 "--data_path","mistral.json","--bf16","True","--output_dir","test","--num_train_epochs","2","--per_device_train_batch_size","8","--per_device_eval_batch_size","8",
 "--gradient_accumulation_steps","4","--evaluation_strategy","no","--save_strategy","no","--learning_rate","1e-3","--weight_decay","0.0","--warmup_ratio","0.1",
 "--lr_scheduler_type","cosine","--logging_steps","1","--tf32","True","--model_max_length","2048","--lazy_preprocess","True","--medusa_num_heads","3",
 "--medusa_num_layers","1","--deepspeed","deepspeed.json"],{
 "model.ref":T("mistralai/Mistral-7B-Instruct-v0.2","README.md:169 --model_name_or_path -> "+mdt+":353-358 AutoModelForCausalLM.from_pretrained"),
 "model.num_parameters":T(7290000000,"Mistral-7B 7.24B + 3 Medusa heads of one 4096 x 4096 residual block each (medusa/model/medusa_model_legacy.py:102-112, 3 x 16.8M = 50M; the heads reuse the base lm_head, :205) = 7.29B; medusa/train/train_legacy.py:361-362 freeze model.base_model (the decoder stack), so the lm_head and the heads train",rel_tol=0.1),
 "dist.world_size":T(4,"README.md:169 torchrun --nproc_per_node=4"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.devices_per_node":T(4,"--nproc_per_node=4"),
 "dist.sharding":T("zero3","README.md:189 --deepspeed deepspeed.json -> deepspeed.json:6-7 stage 3"),
 "dist.offload_optimizer":T("none","deepspeed.json: no offload"),
 "dist.offload_params":T("none","deepspeed.json: no offload"),
 "dist.overlap_comm":T(True,"deepspeed.json:8"),
 "dist.contiguous_gradients":T(True,"deepspeed.json:9"),
 "dist.stage3_max_live_parameters":T(1000000000,"deepspeed.json:14"),
 "batch.micro":T(8,"README.md:174 --per_device_train_batch_size 8"),
 "batch.grad_accum":T(4,"README.md:176 --gradient_accumulation_steps 4"),
 "batch.global":T(128,"8 x 4 x 4"),
 "data.seq_len":T(2048,"README.md:185 --model_max_length 2048 -> "+mdt+":191 padding='max_length': every sample 2048 tokens"),
 "precision.mode":T("bf16",mdt+":357 torch_dtype bfloat16 weights + README.md:171 --bf16 True under deepspeed.json:2-3 bf16 'auto' (DeepSpeed bf16 with fp32 master copies of the trained lm_head and Medusa heads)"),
 "optimizer.name":T("AdamW",mdt+":124 optim default adamw_torch (no optimizer in deepspeed.json)",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(False,"no --gradient_checkpointing (TrainingArguments default False)"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch_compile"),
},held_out=True,note=H25+"; README.md:167-190 torchrun --nproc_per_node=4 medusa/train/train_legacy.py --model_name_or_path mistralai/Mistral-7B-Instruct-v0.2 ... --bf16 True ... --per_device_train_batch_size 8 --gradient_accumulation_steps 4 ... --model_max_length 2048 ... --medusa_num_heads 3 --medusa_num_layers 1 --deepspeed deepspeed.json (HfArgumentParser over three dataclasses, a TrainingArguments subclass with Medusa fields, a Trainer subclass, a ZeRO-3 JSON with 'auto' values; the 7B base is frozen and only the Medusa decoding heads are trained). Not labelled: peft.method (no adapter library: the base's parameters are frozen by requires_grad = False and new heads are trained, which is neither 'lora' nor full fine-tuning)")
OCH=("imoneoi/openchat","47a3596168ed90d8f948f63f458948c3db98e2b8")
oct_="ochat/training_deepspeed/train.py"
ocd="ochat/training_deepspeed/deepspeed_config.json"
J("openchat-3.6-llama3-8b-deepspeed-module-zero2-8gpu",*OCH,["ochat","README.md","pyproject.toml"],".",["--","deepspeed","--num_gpus=8","--module","ochat.training_deepspeed.train","--model_path","imone/Llama-3-8B-fixed-special-embedding",
 "--data_prefix","PRETOKENIZED_DATA_OUTPUT_PATH","--save_path","PATH_TO_SAVE_MODEL","--batch_max_len","40960","--epochs","5","--save_every","1","--deepspeed","--deepspeed_config",ocd],{
 "model.ref":T("imone/Llama-3-8B-fixed-special-embedding","README.md:374 --model_path BASE_REPO, README.md:293 the Llama 3 8B weights -> "+oct_+":98 model_create_for_training(args.model_path)"),
 "model.num_parameters":T(8030000000,"Llama-3-8B (32 layers, hidden 4096, GQA 32/8, intermediate 14336, vocab 128256 untied): 8.03B",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:371-373 NUM_GPUS=8, deepspeed --num_gpus=$NUM_GPUS"),
 "dist.nodes":T(1,"deepspeed without a hostfile: one machine"),
 "dist.devices_per_node":T(8,"--num_gpus=8"),
 "dist.sharding":T("zero2",ocd+":6-7 zero_optimization stage 2"),
 "dist.offload_optimizer":T("none",ocd+": no offload"),
 "batch.grad_accum":T(1,ocd+":11 gradient_accumulation_steps 1"),
 "precision.mode":T("bf16","ochat/config/__init__.py:31-33 LlamaForCausalLM.from_pretrained(torch_dtype bfloat16) + "+ocd+":2-3 bf16 enabled: DeepSpeed bf16 (16-bit weights, fp32 master copies)"),
 "optimizer.name":T("AdamW",oct_+":107-112 torch.optim.AdamW(fused=True) handed to deepspeed.initialize",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,oct_+":102-104 model.gradient_checkpointing_enable(use_reentrant False)"),
 "model.attn_implementation":T("flash_attention_2","ochat/models/unpadded_llama.py:36,180 flash_attn_varlen_func over unpadded packed sequences"),
 "data.num_workers":T(1,oct_+":86 num_workers=1"),
 "data.pin_memory":T(True,oct_+":89"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tuning (all parameters to AdamW, "+oct_+":107)"),
},held_out=True,note=H25+"; README.md:370-382 deepspeed --num_gpus=$NUM_GPUS --module ochat.training_deepspeed.train --model_path BASE_REPO --data_prefix ... --batch_max_len BATCH_SIZE --epochs 5 --save_every 1 --deepspeed --deepspeed_config ochat/training_deepspeed/deepspeed_config.json with NUM_GPUS 8 and the Llama 3 row of README.md:291-293 (BASE_REPO imone/Llama-3-8B-fixed-special-embedding, BATCH_SIZE 40960) filled in (the deepspeed launcher running a module, argparse with deepspeed.add_config_arguments, a DeepSpeed JSON, the model class from a model-type map read from the pretokenized data's metadata, padding-free multipack batches of up to 40960 tokens per GPU; C-RLFT/SFT of an 8B LLM). Not labelled: micro batch, global batch and sequence length (a batch is a token budget of 40960 per GPU packed from conversations of varying length, "+oct_+":75-81)")
SLF=("facebookresearch/SlowFast","287ec0076846560f44a9327e931a5a2360240533")
sfc="configs/Kinetics/SLOWFAST_8x8_R50.yaml"
J("slowfast-r50-8x8-kinetics-yacs-spawn-8gpu",*SLF,["."],".",["tools/run_net.py","--","--cfg",sfc,"DATA.PATH_TO_DATA_DIR","path_to_your_dataset"],{
 "model.num_parameters":T(34500000,sfc+":15-29,47-48 SlowFast R50 (alpha 4, beta_inv 8, depth 50, 400 classes): MODEL_ZOO.md:13 SlowFast R50 8x8, about 34.5M parameters",rel_tol=0.1),
 "dist.world_size":T(8,sfc+":59-60 NUM_GPUS 8, NUM_SHARDS 1 -> slowfast/utils/misc.py:403-405 torch.multiprocessing.spawn(nprocs=NUM_GPUS)"),
 "dist.nodes":T(1,sfc+":60 NUM_SHARDS 1"),
 "dist.devices_per_node":T(8,sfc+":59"),
 "dist.sharding":T("ddp","slowfast/models/build.py:66 DistributedDataParallel"),
 "batch.micro":T(8,sfc+":4 TRAIN.BATCH_SIZE 64 (total) -> slowfast/datasets/loader.py:98 64 / NUM_GPUS 8 = 8 clips per GPU"),
 "batch.grad_accum":T(1,"tools/train_net.py: one optimizer step per batch"),
 "batch.global":T(64,sfc+":4"),
 "data.image_size":T(224,sfc+":12 TRAIN_CROP_SIZE 224 (clips of 32 frames, :9)"),
 "precision.mode":T("fp32","slowfast/config/defaults.py:171 TRAIN.MIXED_PRECISION False, not set by the config -> tools/train_net.py:113,529 autocast and GradScaler disabled"),
 "optimizer.name":T("SGD",sfc+":45 OPTIMIZING_METHOD sgd (momentum 0.9, :41)",any_of=["SGD","sgd"]),
 "data.num_workers":T(8,sfc+":57 DATA_LOADER.NUM_WORKERS 8"),
 "data.pin_memory":T(True,sfc+":58"),
 "memory.gradient_checkpointing":T(False,"slowfast/config/defaults.py:431 MODEL.ACT_CHECKPOINT False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H25+"; GETTING_STARTED.md:10-14 python tools/run_net.py --cfg configs/Kinetics/SLOWFAST_8x8_R50.yaml DATA.PATH_TO_DATA_DIR path_to_your_dataset (the GPU count and batch left to the config: NUM_GPUS 8, TRAIN.BATCH_SIZE 64; a yacs CfgNode of defaults merged with a YAML and KEY VALUE overrides after the flags, launch_job spawning one process per GPU, the per-GPU batch the total over NUM_GPUS in the loader; SlowFast video action recognition on Kinetics-400, video)")
BSR=("XPixelGroup/BasicSR","8d56e3a045f9fb3e1d8872f92ee4a4f07f886b0a")
bso="options/train/EDVR/train_EDVR_M_x4_SR_REDS_woTSA.yml"
J("basicsr-edvr-m-reds-yaml-dist-train-script-8gpu",*BSR,["."],".",["scripts/dist_train.sh","--","8",bso],{
 "dist.world_size":T(8,"docs/TrainTest.md:43 ./scripts/dist_train.sh 8 -> scripts/dist_train.sh:3,15 python -m torch.distributed.launch --nproc_per_node=8"),
 "dist.nodes":T(1,"torch.distributed.launch without --nnodes"),
 "dist.devices_per_node":T(8,"scripts/dist_train.sh:15"),
 "dist.sharding":T("ddp","scripts/dist_train.sh:16 --launcher pytorch -> basicsr/models/base_model.py:97 DistributedDataParallel"),
 "batch.micro":T(4,bso+":30 batch_size_per_gpu 4 -> basicsr/data/__init__.py:60"),
 "batch.grad_accum":T(1,"one optimizer step per iteration (basicsr/models/video_base_model.py / sr_model.py optimize_parameters)"),
 "batch.global":T(32,"4 x 1 x 8 (the B4G8 of the experiment name, "+bso+":2)"),
 "precision.mode":T("fp32","no autocast, GradScaler or half() in basicsr/models"),
 "optimizer.name":T("Adam",bso+":72-76 optim_g type Adam -> basicsr/models/base_model.py:104-105 torch.optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(3,bso+":29 num_worker_per_gpu 3 -> basicsr/data/__init__.py:61"),
 "data.pin_memory":T(False,"basicsr/data/__init__.py:82 dataset_opt.get('pin_memory', False), not set in "+bso),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch ("+bso+":65 pretrain_network_g ~)"),
},held_out=True,note=H25+"; docs/TrainTest.md:41-43 ./scripts/dist_train.sh 8 options/train/EDVR/train_EDVR_M_x4_SR_REDS_woTSA.yml (a launch script taking the GPU count and the option file positionally, PYTHONPATH set on the launch line, python -m torch.distributed.launch basicsr/train.py -opt CONFIG --launcher pytorch; a YAML option file with !!float tags and ~ nulls, models, networks and optimizers built from type names through registries; EDVR video super-resolution on REDS, vision). Not labelled: model size (EDVR-M without TSA, with deformable convolutions: counted only by building it) and image size (64x64 low-resolution inputs of 5 frames for 256x256 targets: which one is meant is ambiguous)")
YLX=("Megvii-BaseDetection/YOLOX","6ddff4824372906469a7fae2dc3206c7aa4bbaee")
J("yolox-s-coco-exp-file-python-m-spawn-fp16-8gpu",*YLX,["."],".",["--","python","-m","yolox.tools.train","-f","exps/default/yolox_s.py","-d","8","-b","64","--fp16","-o"],{
 "model.num_parameters":T(9000000,"exps/default/yolox_s.py:13-14 depth 0.33, width 0.50 (yolox/exp/yolox_base.py:22 80 classes) -> README.md:27 YOLOX-s 9.0M parameters",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:126 -d 8 -> yolox/core/launch.py:71,84 spawn of 8 processes"),
 "dist.nodes":T(1,"no --num_machines (default 1)"),
 "dist.devices_per_node":T(8,"-d 8"),
 "dist.sharding":T("ddp","yolox/core/trainer.py:169 DDP"),
 "batch.micro":T(8,"README.md:126 -b 64 (total) -> yolox/exp/yolox_base.py:202 64 // world size 8 = 8"),
 "batch.grad_accum":T(1,"yolox/core/trainer.py: one optimizer step per iteration"),
 "batch.global":T(64,"-b 64"),
 "data.image_size":T(640,"yolox/exp/yolox_base.py:34 input_size (640, 640) (multi-scale by +-5 x 32, :37)"),
 "precision.mode":T("amp_fp16","README.md:126 --fp16 -> yolox/core/trainer.py:46-47 GradScaler, :106 autocast over fp32 weights"),
 "optimizer.name":T("SGD","yolox/exp/yolox_base.py:273 torch.optim.SGD (momentum 0.9, nesterov)",any_of=["SGD","sgd"]),
 "data.num_workers":T(4,"yolox/exp/yolox_base.py:33 data_num_workers 4 -> :213"),
 "data.pin_memory":T(True,"yolox/exp/yolox_base.py:213"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch (no -c checkpoint)"),
},held_out=True,note=H25+"; README.md:126 python -m yolox.tools.train -f exps/default/yolox_s.py -d 8 -b 64 --fp16 -o (python -m of a package module, argparse, an experiment file holding an Exp subclass whose attributes override yolox_base.Exp, the per-GPU batch the total over the world size in the data loader, a launcher spawning one process per device; object detection on COCO, vision)")
BTW=("facebookresearch/barlowtwins","8e8d284ca0bc02f88b92328e53f9b901e86b4a3c")
J("barlowtwins-resnet50-imagenet-spawn-lars-amp",*BTW,["."],".",["main.py","--","/path/to/imagenet/"],{
 "model.num_parameters":T(174500000,"main.py:191-202 torchvision ResNet-50 without its fc (23.5M) + projector 2048-8192-8192-8192 of bias-free linears with BatchNorm (:41 default, 16.8M + 67.1M + 67.1M) = 174.5M",rel_tol=0.1),
 "dist.sharding":T("ddp","main.py:98 DistributedDataParallel (SyncBatchNorm, :89)"),
 "batch.grad_accum":T(1,"main.py:125-133 one step per batch"),
 "batch.global":T(2048,"main.py:31 --batch-size default 2048 (total; :115-116 divided by the world size)"),
 "data.image_size":T(224,"main.py:293,308 RandomResizedCrop(224)"),
 "precision.mode":T("amp_fp16","main.py:122 GradScaler, :130 torch.cuda.amp.autocast() over fp32 weights"),
 "optimizer.name":T("LARS","main.py:99,224 the file's LARS optimizer",any_of=["LARS","lars"]),
 "data.num_workers":T(8,"main.py:27 --workers default 8 -> :118"),
 "data.pin_memory":T(True,"main.py:119"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","self-supervised training from scratch"),
},held_out=True,note=H25+"; README.md:57 python main.py /path/to/imagenet/ (argparse with a positional data path and defaults, torch.multiprocessing.spawn over every visible GPU or, under Slurm, SLURM_NNODES x GPUs, a hand-written LARS, fp16 autocast; Barlow Twins self-supervised pretraining of a ResNet-50 on ImageNet, vision). Not labelled: world size, nodes and micro batch (main.py:63,69 the world size is torch.cuda.device_count() x SLURM_NNODES at run time; README.md:60 reports 16 V100s)")
TSL=("thuml/Time-Series-Library","4e938a1767106324dd753b2a44832bf870a0252e")
tss="scripts/long_term_forecast/ETT_script/TimesNet_ETTh1.sh"
J("tslib-timesnet-etth1-script-of-python-runs-1gpu",*TSL,["."],".",[tss],{
 "dist.world_size":T(1,tss+":1,5 CUDA_VISIBLE_DEVICES=2 and python -u run.py without --use_multi_gpu (run.py:104 default False)"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","exp/exp_long_term_forecasting.py:25-26 nn.DataParallel only with --use_multi_gpu"),
 "batch.micro":T(32,"run.py:91 --batch_size default 32 -> data_provider/data_factory.py:28,80-82"),
 "batch.grad_accum":T(1,"exp/exp_long_term_forecasting.py:104-147 one step per batch"),
 "batch.global":T(32,"32 x 1 x 1"),
 "data.seq_len":T(96,tss+":14 --seq_len 96 (input window of 96 time steps; every run of the script uses 96)"),
 "precision.mode":T("fp32","run.py:97 --use_amp default False, not given"),
 "optimizer.name":T("Adam","exp/exp_long_term_forecasting.py:34 optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(10,"run.py:88 --num_workers default 10 -> data_provider/data_factory.py:84"),
 "data.pin_memory":T(False,"data_provider/data_factory.py:80-85 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H25+"; README.md:214 bash ./scripts/long_term_forecast/ETT_script/TimesNet_ETTh1.sh (a launch script exporting CUDA_VISIBLE_DEVICES, a shell variable for the model name, then four python -u run.py lines that differ only in --pred_len and --model_id; argparse with one flat namespace for every model and task, the experiment class chosen by --task_name; TimesNet long-term forecasting on ETTh1, time series). Not labelled: model size (TimesNet with d_model 16 and d_ff 32 on 7 channels: Inception blocks counted only by building them)")
ACT=("PhoebusSi/Alpaca-CoT","bd46c44e0d0d88522b6d817f9610e3eb1050784d")
acu="uniform_finetune.py"
J("alpaca-cot-llama-7b-int8-lora-torch-distributed-launch-4gpu",*ACT,["uniform_finetune.py","utils","peft","README.md","requirements.txt"],".",["--","python3","-m","torch.distributed.launch","--nproc_per_node","4","--nnodes=1","--node_rank=0",
 "--master_addr=xxx","--master_port=yyy",acu,"--model_type","llama","--model_name_or_path","decapoda-research/llama-7b-hf","--data","alpaca-belle-cot",
 "--lora_target_modules","q_proj","v_proj","--per_gpu_train_batch_size","4","--learning_rate","3e-4","--epochs","1"],{
 "model.ref":T("decapoda-research/llama-7b-hf","README.md:228 --model_name_or_path -> "+acu+":233-236 LlamaForCausalLM.from_pretrained(load_in_8bit=True)"),
 "model.num_parameters":T(6740000000,"LLaMA-7B (32 layers, hidden 4096, intermediate 11008, vocab 32000): 6.74B",rel_tol=0.1),
 "dist.world_size":T(4,"README.md:226 python3 -m torch.distributed.launch --nproc_per_node 4 --nnodes=1"),
 "dist.nodes":T(1,"README.md:227 --nnodes=1"),
 "dist.devices_per_node":T(4,"--nproc_per_node 4"),
 "dist.sharding":T("ddp",acu+":32-35 WORLD_SIZE 4 -> ddp, device_map {'': LOCAL_RANK}; the HF Trainer wraps the model in DistributedDataParallel (:498 ddp_find_unused_parameters)"),
 "batch.micro":T(4,"README.md:230 --per_gpu_train_batch_size 4 -> "+acu+":482"),
 "batch.grad_accum":T(32,acu+":530 --gradient_accumulation_steps default 32 -> :483"),
 "batch.global":T(512,acu+":464 4 x 32 x 4"),
 "data.seq_len":T(512,acu+":533 --cutoff_len default 512 (truncation cap; :344,352 no padding, batches padded to their longest by DataCollatorForSeq2Seq)"),
 "precision.mode":T("amp_fp16",acu+":559 --compute_dtype default fp16 -> :487 TrainingArguments fp16=True: autocast fp16 + GradScaler over fp32 LoRA weights on an 8-bit base"),
 "precision.weights_bits":T(8,acu+":235 load_in_8bit=True"),
 "optimizer.name":T("AdamW","no optim in "+acu+":481-499 (the HF Trainer's default AdamW)",any_of=["AdamW","adamw","adamw_torch","adamw_hf"]),
 "memory.gradient_checkpointing":T(True,acu+":245-246 prepare_model_for_int8_training (peft's prepare_model_for_kbit_training, use_gradient_checkpointing default True)"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "peft.method":T("lora",acu+":535 --peft_type default lora -> :248-255 LoraConfig, :294 get_peft_model"),
 "peft.rank":T(8,acu+":536 --lora_r default 8"),
 "task.mode":T("lora","8-bit base + LoRA",any_of=["lora","qlora"]),
},held_out=True,note=H25+"; README.md:224-231 python3 -m torch.distributed.launch --nproc_per_node 4 --nnodes=1 --node_rank=0 --master_addr=xxx --master_port=yyy uniform_finetune.py --model_type llama --model_name_or_path decapoda-research/llama-7b-hf --data alpaca-belle-cot --lora_target_modules q_proj v_proj --per_gpu_train_batch_size 4 --learning_rate 3e-4 --epochs 1 (the legacy launcher through python3 -m, argparse whose defaults carry the accumulation, sequence cap, LoRA rank and compute dtype, the model class chosen from a table by --model_type, an 8-bit base prepared for k-bit training, the HF Trainer built inline; LoRA instruction tuning of LLaMA-7B). Not labelled: compile.enabled ("+acu+":511-512 torch.compile only when torch >= 2 and Python < 3.11, a property of the machine)")
TKI=("yizhongw/Tk-Instruct","7c0e4000901e7c148fbb8964042ebfc433f8d98e")
tks="scripts/train_tk_instruct.sh"
tkd="ds_configs/stage2.config"
J("tk-instruct-t5-xl-deepspeed-zero2-cpu-offload-script",*TKI,["scripts","src","ds_configs","README.md","requirements.txt"],".",[tks],{
 "model.ref":T("google/t5-xl-lm-adapt",tks+":13 --model_name_or_path -> src/run_s2s.py:338 AutoModelForSeq2SeqLM.from_pretrained"),
 "model.num_parameters":T(2850000000,"T5 v1.1 XL LM-adapted (24 + 24 layers, d_model 2048, d_ff 5120, 32 heads of 64, vocab 32128, untied head): 2.85B",rel_tol=0.1),
 "dist.sharding":T("zero2",tks+":43 --deepspeed "+tkd+" -> "+tkd+":30-31 stage 2"),
 "dist.offload_optimizer":T("cpu",tkd+":32-35 offload_optimizer device cpu"),
 "dist.offload_params":T("none","ZeRO-2: no parameter offload"),
 "dist.reduce_bucket_size":T(200000000,tkd+":40 reduce_bucket_size 2e8"),
 "dist.allgather_bucket_size":T(200000000,tkd+":37 allgather_bucket_size 2e8"),
 "dist.overlap_comm":T(True,tkd+":38"),
 "dist.contiguous_gradients":T(True,tkd+":41"),
 "batch.micro":T(1,tks+":31 --per_device_train_batch_size 1 ("+tkd+":46 'auto')"),
 "batch.grad_accum":T(2,tks+":33 --gradient_accumulation_steps 2"),
 "precision.mode":T("bf16",tks+":44 --bf16 + "+tkd+":2-3 the legacy 'bfloat16' section enabled: DeepSpeed bf16 (16-bit weights, fp32 master copies in the offloaded optimizer)"),
 "optimizer.name":T("AdamW",tkd+":13-14 DeepSpeed optimizer AdamW (run on the CPU as DeepSpeedCPUAdam because of the optimizer offload)",any_of=["AdamW","adamw","DeepSpeedCPUAdam","cpu_adam","cpuadam"]),
 "memory.gradient_checkpointing":T(False,"no --gradient_checkpointing and no gradient_checkpointing_enable in src/run_s2s.py"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch.compile (transformers 4.18.0, requirements.txt:1)"),
 "peft.method":T("none","full fine-tuning"),
},held_out=True,note=H25+"; README.md:40-44 ./scripts/train_tk_instruct.sh (a launch script exporting cache paths, a random port from shuf, then the bare deepspeed launcher on src/run_s2s.py: HfArgumentParser over model, data and a Seq2SeqTrainingArguments subclass, a ZeRO-2 config with CPU optimizer offload, 'auto' values and the legacy 'bfloat16' key; instruction tuning of the T5-XL encoder-decoder LLM on Super-NaturalInstructions). Not labelled: world size, nodes and global batch (deepspeed with no --num_gpus/--include/hostfile: every GPU of the machine) and sequence length (an encoder-decoder with 1024 source and 128 target tokens, "+tks+":14-15: which one is meant is ambiguous)")
PCP=("Pointcept/Pointcept","d74c646db6abec569d0f23e0c34e7ddfce142789")
pcc="configs/scannet/semseg-pt-v3m1-0-base.py"
J("pointcept-ptv3-scannet-getopts-script-spawn-4gpu",*PCP,["."],".",["scripts/train.sh","--","-g","4","-d","scannet","-c","semseg-pt-v3m1-0-base","-n","semseg-pt-v3m1-0-base"],{
 "model.num_parameters":T(46200000,pcc+":15-47 PT-v3m1 (encoder depths 2-2-2-6-2 over 32-512 channels, decoder 2-2-2-2, mlp_ratio 4) + a 64 -> 20 head: the Point Transformer V3 of README.md:751 (arXiv 2312.10035), 46.2M parameters",rel_tol=0.1),
 "dist.world_size":T(4,"README.md:760 -g 4 -> scripts/train.sh:39-40,99-101 tools/train.py --num-gpus 4 -> pointcept/engines/launch.py:73-75 mp.spawn(nprocs=4)"),
 "dist.nodes":T(1,"scripts/train.sh:15 NUM_MACHINE default 1"),
 "dist.devices_per_node":T(4,"-g 4"),
 "dist.sharding":T("ddp","pointcept/engines/train.py:262 create_ddp_model -> pointcept/engines/defaults.py:38 DistributedDataParallel"),
 "batch.micro":T(3,pcc+":4 batch_size 12 (total in all GPUs) -> pointcept/engines/defaults.py:138 12 // 4 = 3"),
 "batch.grad_accum":T(1,"configs/_base_/default_runtime.py:10 gradient_accumulation_steps 1"),
 "batch.global":T(12,pcc+":4"),
 "precision.mode":T("amp_fp16",pcc+":8 enable_amp True, configs/_base_/default_runtime.py:19 amp_dtype float16 -> pointcept/engines/train.py:203 autocast + :351-354 GradScaler over fp32 weights"),
 "optimizer.name":T("AdamW",pcc+":56 optimizer type AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(6,pcc+":5 num_worker 24 (total) -> pointcept/engines/defaults.py:134 24 // 4 = 6 per GPU"),
 "data.pin_memory":T(True,"pointcept/engines/train.py:310"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in the PT-v3m1 backbone config"),
 "model.attn_implementation":T("flash_attention_2",pcc+":37 enable_flash True -> pointcept/models/point_transformer_v3/point_transformer_v3m1_base.py:208 flash_attn_varlen_qkvpacked_func"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H25+"; README.md:760 sh scripts/train.sh -g 4 -d scannet -c semseg-pt-v3m1-0-base -n semseg-pt-v3m1-0-base (a launch script that cds to the repository root, parses its options with getopts, copies scripts/, tools/ and pointcept/ into exp/DATASET/NAME/code and runs that copy's tools/train.py with --config-file configs/DATASET/CONFIG.py --num-gpus 4; an mmengine-style Python config with _base_ inheritance, totals for batch and workers divided by the world size in code; Point Transformer V3 semantic segmentation on ScanNet, 3D point clouds)")

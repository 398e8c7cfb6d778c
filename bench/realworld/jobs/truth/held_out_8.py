"""The eighth held-out set of the jobs benchmark (run.py --set held-out-8): expert truth
written by hand, one J(...) per job."""
from .core import J, T

H8="eighth held-out set"
GL=("jiaweizzhao/GaLore","2cc66f88cce189e505affbb91042a8e77f5bf4e9")
gls="scripts/benchmark_c4/llama_350m.sh"
glm="torchrun_main.py"
J("galore-llama-350m-c4-ddp",*GL,["scripts","configs","torchrun_main.py","peft_pretraining","galore_torch","requirements.txt","setup.py"],".",[gls],{
 "model.num_parameters":T(367969280,gls+":3 configs/llama_350m.json:8-15 (hidden 1024, intermediate 2736, 24 layers, vocab 32000, untied head) -> "+glm+":202 LlamaForCausalLM(model_config): 368.0M",rel_tol=0.1),
 "dist.world_size":T(4,gls+":2 torchrun --standalone --nproc_per_node 4"),
 "dist.sharding":T("ddp",glm+":383-388 DistributedDataParallel (no --single_gpu)"),
 "batch.micro":T(128,gls+":8 --batch_size"),
 "batch.global":T(512,gls+":9 --total_batch_size"),
 "batch.grad_accum":T(1,glm+":147-150 512 // (128 * 4 processes)"),
 "data.seq_len":T(256,glm+":42 --max_length default 256, not given -> :183-195"),
 "precision.mode":T("bf16",gls+":13 --dtype bfloat16 -> "+glm+":238-239 model.to(dtype=bfloat16), no autocast, optimizer on bf16 weights"),
 "memory.gradient_checkpointing":T(False,glm+":47 store_true --activation_checkpointing absent from "+gls),
 "optimizer.name":T("galore_adamw",gls+":15 --optimizer galore_adamw -> "+glm+":294-296 GaLoreAdamW",any_of=["galore_adamw","GaLoreAdamW"]),
 "data.num_workers":T(8,glm+":61 --workers default 8 -> :196"),
 "data.pin_memory":T(False,glm+":196 DataLoader default"),
 "peft.method":T("none","GaLore projects optimizer states; all weights train (no LoRA/PEFT in "+glm+")"),
},held_out=True,note=H8+"; bash scripts/benchmark_c4/llama_350m.sh from the repository root")
OC=("mlfoundations/open_clip","89fb801f1e6087880e951fc8354b8a2077b79c6d")
ocs="docs/script_examples/stability_example.sh"
J("openclip-vit-b32-laion-sbatch",*OC,[ocs,"src","pyproject.toml","requirements-training.txt"],".",[ocs],{
 "model.ref":T("ViT-B-32",ocs+":51 --model ViT-B-32 (src/open_clip/model_configs/ViT-B-32.json)"),
 "model.num_parameters":T(151277313,"ViT-B-32.json: vision 12 layers width 768 patch 32, text 12 layers width 512 vocab 49408: CLIP ViT-B/32 151.3M",rel_tol=0.1),
 "dist.nodes":T(30,ocs+":4 #SBATCH --nodes 30"),
 "dist.devices_per_node":T(8,ocs+":5 --ntasks-per-node=8, one GPU per srun task (:37)"),
 "dist.world_size":T(240,ocs+":4-5 30 nodes x 8 tasks -> src/open_clip_train/distributed.py:72 SLURM_NTASKS"),
 "dist.sharding":T("ddp","src/open_clip_train/main.py:439-444 task.prepare_distributed -> src/open_clip/task/base_task.py:227 DistributedDataParallel (--fsdp not given, params.py:591)"),
 "batch.micro":T(375,ocs+":44 --batch-size=375 (per GPU, params.py:272)"),
 "batch.grad_accum":T(1,"src/open_clip_train/params.py:535 --accum-freq default 1, not given"),
 "precision.mode":T("amp_bf16",ocs+":57 --precision amp_bfloat16 -> src/open_clip_train/precision.py:12-13 autocast bf16"),
 "memory.gradient_checkpointing":T(True,ocs+":56 -> main.py:328-336 set_grad_checkpointing"),
 "optimizer.name":T("adamw","params.py:291 --opt default adamw, not given",any_of=["adamw","AdamW"]),
 "data.num_workers":T(8,ocs+":47 --workers=8"),
 "data.image_size":T(224,"src/open_clip/model_configs/ViT-B-32.json:4 vision_cfg image_size"),
 "peft.method":T("none","contrastive pretraining from scratch, no PEFT"),
},held_out=True,note=H8+"; sbatch docs/script_examples/stability_example.sh (srun python -m open_clip_train.main, no torchrun)")
TM=("huggingface/pytorch-image-models","aa4b5850c1543fa488abf260f18390eda46cf85d")
tmd="hfdocs/source/training_script.mdx"
J("timm-efficientnet-b2-rmsprop-2gpu",*TM,["distributed_train.sh","train.py","timm",tmd,"pyproject.toml","requirements.txt"],".",
 ["distributed_train.sh","--","2","--data-dir","/imagenet/","--model","efficientnet_b2","-b","128","--sched","step","--epochs","450",
  "--decay-epochs","2.4","--decay-rate",".97","--opt","rmsproptf","--opt-eps",".001","-j","8","--warmup-lr","1e-6",
  "--weight-decay","1e-5","--drop","0.3","--drop-path","0.2","--model-ema","--model-ema-decay","0.9999",
  "--aa","rand-m9-mstd0.5","--remode","pixel","--reprob","0.2","--amp","--lr",".016"],{
 "model.ref":T("efficientnet_b2",tmd+":46 --model efficientnet_b2"),
 "model.num_parameters":T(9110000,"timm/models/efficientnet.py:2093-2097 EfficientNet-B2 (width 1.1, depth 1.2, 1000 classes): 9.1M",rel_tol=0.1),
 "dist.world_size":T(2,tmd+":46 NUM_PROC=2 -> distributed_train.sh:2-4 torchrun --nproc_per_node=$NUM_PROC"),
 "dist.sharding":T("ddp","train.py:1025-1028 task.prepare_distributed (DistributedDataParallel)"),
 "batch.micro":T(128,tmd+":46 -b 128 (train.py:142, per process)"),
 "batch.grad_accum":T(1,"train.py:150 --grad-accum-steps default 1"),
 "precision.mode":T("amp_fp16",tmd+":46 --amp -> train.py:177 --amp-dtype default float16, :631 autocast + :634 NativeScaler (float16 only)"),
 "memory.gradient_checkpointing":T(False,"train.py:152 --grad-checkpointing not given"),
 "optimizer.name":T("rmsproptf",tmd+":46 --opt rmsproptf (train.py:191)",any_of=["rmsproptf","RMSpropTF"]),
 "data.num_workers":T(8,tmd+":46 -j 8 (train.py:377)"),
 "data.pin_memory":T(False,"train.py:381 --pin-mem not given -> :692"),
 "data.image_size":T(256,"train.py:587 resolve_data_config from the model's default cfg: timm/models/efficientnet.py:1416-1419 efficientnet_b2.ra_in1k input_size (3, 256, 256)"),
 "compile.enabled":T(False,"train.py:168 --torchcompile not given"),
 "peft.method":T("none","ImageNet training from scratch, no PEFT"),
},held_out=True,note=H8+"; ./distributed_train.sh 2 ... as "+tmd+":46")
TX=("CarperAI/trlx","3340c2f3a56d1d14fdd5f13ad575121fa26b6d92")
txz="../../configs/accelerate/zero2-bf16.yaml"
txp="ppo_hh.py"
J("trlx-ppo-hh-gptj-zero2",*TX,["examples/hh","configs/accelerate","trlx","setup.cfg","setup.py","requirements.txt"],"examples/hh",
 ["--","accelerate","launch","--num_processes","7","--config_file",txz,txp],{
 "model.ref":T("EleutherAI/gpt-j-6B",txp+":39 ModelConfig(model_path=...) (CONFIG_NAME unset, :70)"),
 "dist.world_size":T(7,"examples/hh/README.md:7 --num_processes 7 (overrides zero2-bf16.yaml:19 num_processes 8)"),
 "dist.sharding":T("zero2","configs/accelerate/zero2-bf16.yaml:9-10 zero_stage 2 under DEEPSPEED"),
 "dist.offload_optimizer":T("none","configs/accelerate/zero2-bf16.yaml:6"),
 "dist.offload_params":T("none","configs/accelerate/zero2-bf16.yaml:7"),
 "batch.micro":T(4,txp+":32 TrainConfig(batch_size=4) -> trlx/trainer/accelerate_ppo_trainer.py:231 create_loader(batch_size) per process"),
 "batch.grad_accum":T(1,"configs/accelerate/zero2-bf16.yaml:4"),
 "data.seq_len":T(1024,txp+":29 seq_length (prompt + generation)"),
 "precision.mode":T("bf16","configs/accelerate/zero2-bf16.yaml:17 mixed_precision bf16 under DeepSpeed: DeepSpeed bf16 (16-bit weights, fp32 master)"),
 "memory.gradient_checkpointing":T(False,"no gradient_checkpointing_enable in trlx/trainer"),
 "optimizer.name":T("adamw",txp+":41 OptimizerConfig(name='adamw') -> trlx/utils/__init__.py:102-103 torch.optim.AdamW",any_of=["adamw","AdamW"]),
 "peft.method":T("none",txp+":39 no peft_config (trlx/trainer/accelerate_base_trainer.py:157)"),
},held_out=True,note=H8+"; examples/hh/README.md:7 (GPT-J, all but the last 2 layers frozen: "+txp+":39 num_layers_unfrozen=2)")
MAE=("facebookresearch/mae","efb2a8062c206524e35e47d04501ed4f544c0ae8")
maf="main_finetune.py"
J("mae-vit-base-finetune-8gpu",*MAE,["."],".",
 ["--","python","-m","torch.distributed.launch","--nproc_per_node=8",maf,"--accum_iter","4","--batch_size","32",
  "--model","vit_base_patch16","--finetune","mae_pretrain_vit_base.pth","--epochs","100","--blr","5e-4","--layer_decay","0.65",
  "--weight_decay","0.05","--drop_path","0.1","--mixup","0.8","--cutmix","1.0","--reprob","0.25","--dist_eval",
  "--data_path","/data/imagenet"],{
 "model.ref":T("vit_base_patch16","FINETUNE.md:118 --model vit_base_patch16 -> "+maf+":227 models_vit.__dict__[args.model]"),
 "model.num_parameters":T(86600000,"models_vit.py:56-59 ViT-B/16 (depth 12, dim 768) + 1000-class head: 86.6M",rel_tol=0.1),
 "dist.world_size":T(8,"FINETUNE.md:115 --nproc_per_node=8"),
 "dist.sharding":T("ddp",maf+":279 DistributedDataParallel"),
 "batch.micro":T(32,"FINETUNE.md:117 --batch_size 32 (per GPU)"),
 "batch.grad_accum":T(4,"FINETUNE.md:116 --accum_iter 4"),
 "precision.mode":T("amp_fp16","engine_finetune.py:55 torch.cuda.amp.autocast() (fp16) + "+maf+":288 NativeScaler (GradScaler)"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models_vit.py"),
 "optimizer.name":T("AdamW",maf+":287 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(10,maf+":141 default 10"),
 "data.pin_memory":T(True,maf+":145 set_defaults(pin_mem=True) -> :206"),
 "data.image_size":T(224,maf+":54 --input_size default 224"),
 "peft.method":T("none","full fine-tuning (layer-wise lr decay), no PEFT"),
},held_out=True,note=H8+"; FINETUNE.md:115-124 (OMP_NUM_THREADS=1 prefix dropped, checkpoint and data paths filled in)")
LMF=("OptimalScale/LMFlow","f3597dba134e8bb3d2cfedeaaae6fc7296ace924")
lms="scripts/run_finetune_with_lora.sh"
lmc="configs/accelerate_fsdp_config.yaml"
J("lmflow-llama3.2-3b-lora-fsdp",*LMF,["scripts/run_finetune_with_lora.sh","configs","examples/finetune.py","src/lmflow","setup.py","requirements.txt"],".",[lms],{
 "model.ref":T("meta-llama/Llama-3.2-3B-Instruct",lms+":2 -> :19"),
 "dist.world_size":T(8,lmc+":22 num_processes 8 ("+lms+":17)"),
 "dist.nodes":T(1,lmc+":21 num_machines 1"),
 "dist.sharding":T("fsdp_full",lmc+":3,12 FSDP FULL_SHARD"),
 "dist.offload_params":T("none",lmc+":11 fsdp_offload_params false"),
 "batch.micro":T(1,lms+":31"),
 "batch.grad_accum":T(1,lms+":32"),
 "data.seq_len":T(512,lms+":30 --block_size (src/lmflow/args.py:513)"),
 "precision.mode":T("amp_bf16",lms+":35-36 --bf16 --torch_dtype bfloat16 with "+lmc+":20 mixed_precision bf16: Trainer bf16 autocast, LoRA adapters trainable",any_of=["amp_bf16","bf16"]),
 "memory.gradient_checkpointing":T(False,lms+":43 --gradient_checkpointing 0"),
 "peft.method":T("lora",lms+":24 --use_lora 1 -> src/lmflow/models/hf_model_mixin.py:253-272 LoraConfig, :361-363 get_peft_model"),
 "peft.rank":T(8,lms+":8 lora_r=8 -> :25"),
 "task.mode":T("lora","src/lmflow/args.py:210-213 use_qlora default False: LoRA without quantization"),
 "optimizer.name":T("adamw_torch","TrainingArguments default optim (src/lmflow/args.py:626 FinetunerArguments; use_customized_optim default False, :651)",any_of=["adamw_torch","adamw_hf","adamw_torch_fused","AdamW","adamw"]),
 "data.num_workers":T(8,lms+":44 --dataloader_num_workers 8"),
},held_out=True,note=H8+"; bash scripts/run_finetune_with_lora.sh from the repository root")
BL=("LianjiaTech/BELLE","645084d36454cdeb4e7f1ce9b2f3426bac39f1f9")
bls="scripts/run_sft.sh"
blz="configs/deepspeed_config_stage3.json"
blp="src/entry_point/sft_train.py"
J("belle-llama-7b-lora-zero3-offload",*BL,["train/scripts","train/configs","train/src","train/requirements.txt"],"train",[bls],{
 "dist.world_size":T(8,bls+":83 torchrun --nproc_per_node 8 (CUDA_VISIBLE_DEVICES 0-7, :2)"),
 "dist.sharding":T("zero3",bls+":88 --deepspeed "+blz+" -> "+blz+":3 stage 3"),
 "dist.offload_optimizer":T("cpu",blz+":19-21"),
 "dist.offload_params":T("cpu",blz+":16-18"),
 "dist.stage3_max_live_parameters":T(0,blz+":13"),
 "dist.stage3_prefetch_bucket_size":T(0,blz+":11"),
 "batch.micro":T(1,bls+":92"),
 "batch.grad_accum":T(1,bls+":94"),
 "data.seq_len":T(1024,bls+":17 cutoff_len=1024 -> :96 --model_max_length -> "+blp+":339"),
 "precision.mode":T("bf16",blz+":41-43 bf16 enabled + "+bls+":105-106 --torch_dtype bfloat16 --bf16: DeepSpeed bf16"),
 "memory.gradient_checkpointing":T(True,bls+":108 -> "+blp+":313-314"),
 "optimizer.name":T("AdamW",blz+":44-45 optimizer AdamW",any_of=["AdamW","adamw"]),
 "peft.method":T("lora",bls+":87 --use_lora -> "+blp+":276-310 LoraConfig + get_peft_model"),
 "peft.rank":T(16,bls+":89 configs/lora_config_llama.json:2 lora_r 16 -> "+blp+":292"),
 "task.mode":T("lora",bls+":86-89 --use_int8_training not given ("+blp+":221): LoRA without quantization"),
},held_out=True,note=H8+"; bash scripts/run_sft.sh from train/ (PYTHONPATH .../BELLE/train, :7); the model path is a placeholder (:8 /path_to_llm/hf_llama_7b/): model not knowable")
S4=("state-spaces/s4","e757cef57d89e448c413de7325ed5601aceaac13")
s4e="configs/experiment/lm/s4-wt103.yaml"
J("s4-wt103-lm-hydra-lightning",*S4,["train.py","configs","src","requirements.txt","README.md"],".",
 ["--","python","-m","train","experiment=lm/s4-wt103"],{
 "dist.world_size":T(8,s4e+":3 pipeline wt103 -> configs/pipeline/wt103.yaml:3 trainer lm -> configs/trainer/lm.yaml:2 devices 8 (one node)"),
 "dist.devices_per_node":T(8,"configs/trainer/lm.yaml:2 devices 8"),
 "dist.sharding":T("ddp","train.py:657-659 devices > 1 -> strategy ddp"),
 "batch.micro":T(1,s4e+":11 loader.batch_size 1 (overrides configs/loader/lm.yaml:2)"),
 "batch.grad_accum":T(1,"configs/trainer/lm.yaml:3 accumulate_grad_batches"),
 "data.seq_len":T(8192,s4e+":12 loader.l_max (README.md:201 receptive field 8192)"),
 "precision.mode":T("amp_fp16","configs/trainer/lm.yaml:8 precision 16 -> Lightning 16-mixed (autocast fp16 + GradScaler)"),
 "optimizer.name":T("adamw","configs/pipeline/wt103.yaml:6 -> configs/optimizer/adamw.yaml:2 -> src/utils/registry.py:3 torch.optim.AdamW",any_of=["adamw","AdamW"]),
 "peft.method":T("none","language-model pretraining from scratch, no PEFT"),
},held_out=True,note=H8+"; README.md:201 python -m train experiment=lm/s4-wt103 (an S4 model, no HF checkpoint: model size not labelled)")

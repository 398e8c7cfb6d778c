"""The eleventh held-out set of the jobs benchmark (run.py --set held-out-11): expert truth
written by hand, one J(...) per job."""
from .core import J, T

H11="eleventh held-out set"
DT=("facebookresearch/detr","29901c51d7fe8712168b8d0d64351170bc0f83e0")
J("detr-r50-coco-8gpu-ddp",*DT,["main.py","engine.py","models","datasets","util","hubconf.py","requirements.txt","README.md"],".",
 ["--","python","-m","torch.distributed.launch","--nproc_per_node=8","--use_env","main.py","--coco_path","/data/coco"],{
 "model.num_parameters":T(41524000,"main.py:35 backbone resnet50 (FrozenBatchNorm2d: BN weights are buffers, models/backbone.py:91) 23.45M + main.py:43-55 transformer 6+6 layers, d 256, ffn 2048, 100 queries, models/detr.py:313 91 classes (+1), input_proj 2048->256, box MLP: 41.5M (README.md:55 the R50 checkpoint is 159 MB = ~41.7M fp32 values)",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:196 --nproc_per_node=8 (one node)"),
 "dist.nodes":T(1,"README.md:194-196 single node"),
 "dist.sharding":T("ddp","main.py:124-126 DistributedDataParallel (util/misc.py:408-411 env:// from the launcher, --use_env)"),
 "batch.micro":T(2,"main.py:24 --batch_size default 2 (not given) -> main.py:145-156 BatchSampler over a per-process DistributedSampler"),
 "batch.grad_accum":T(1,"engine.py:52-56 zero_grad, backward, step every batch"),
 "precision.mode":T("fp32","no autocast, GradScaler or .half() anywhere in main.py/engine.py/models: fp32 weights and activations"),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in models/ (run_with_submitit.py:52 `checkpoint` is a submitit requeue hook)"),
 "optimizer.name":T("AdamW","main.py:137-138 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(2,"main.py:96 --num_workers default 2 -> main.py:155-156"),
 "data.pin_memory":T(False,"main.py:155-156 DataLoader without pin_memory (default False)"),
 "compile.enabled":T(False,"no torch.compile in the repository"),
 "peft.method":T("none","full training (ImageNet-pretrained backbone, lr_backbone 1e-5, main.py:23)"),
},held_out=True,note=H11+"; README.md:196 python -m torch.distributed.launch --use_env main.py (raw PyTorch DDP, detection), COCO path filled. data.image_size not labelled: random multi-scale resize, shorter side 480-800 up to 1333 (datasets/coco.py)")
FQ=("AnswerDotAI/fsdp_qlora","05ed9f2a60f96a0795cb082bceab70a9b19fd213")
J("fsdp-qlora-llama2-70b-plain-python",*FQ,["train.py","scripts","README.md"],".",
 ["--","python","train.py","--model_name","meta-llama/Llama-2-70b-hf","--batch_size","2","--context_length","512","--precision","bf16",
  "--train_type","qlora","--use_gradient_checkpointing","true","--use_cpu_offload","true","--dataset","alpaca","--reentrant_checkpointing","true"],{
 "model.ref":T("meta-llama/Llama-2-70b-hf","README.md:32 --model_name -> train.py:1204 fastcore call_parse kwarg"),
 "batch.micro":T(2,"README.md:33 --batch_size -> train.py:410 DataLoader over a DistributedSampler (per GPU, train.py:1190)"),
 "batch.grad_accum":T(1,"train.py:1192 gradient_accumulation_steps default 1 (not given)"),
 "data.seq_len":T(512,"README.md:34 --context_length 512 -> train.py:397 truncation in the collate function"),
 "dist.nodes":T(1,"train.py:1146-1147,1179 mp.spawn on one machine"),
 "dist.sharding":T("fsdp_full","train.py:1196 sharding_strategy default full_shard -> train.py:740-741,753-766 FSDP FULL_SHARD"),
 "dist.offload_params":T("cpu","README.md:38 --use_cpu_offload true -> train.py:759 CPUOffload(offload_params=True)"),
 "precision.mode":T("bf16","README.md:35 --precision bf16 -> train.py:538-539 torch_dtype bfloat16, no MixedPrecision policy, train.py:826 no autocast: pure bf16"),
 "precision.weights_bits":T(4,"README.md:36 --train_type qlora -> train.py:615-616 bnb Linear4bit"),
 "precision.quant_type":T("nf4","train.py:616 quant_type='nf4'"),
 "precision.double_quant":T(True,"train.py:615-616 Linear4bit without compress_statistics: bitsandbytes default True"),
 "memory.gradient_checkpointing":T(True,"README.md:37 -> train.py:778-792 apply_activation_checkpointing on decoder layers"),
 "optimizer.name":T("AdamW","train.py:1217 optimizer default adamw -> train.py:459-461 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "model.attn_implementation":T("sdpa","train.py:566 attn_impl = 'sdpa'"),
 "data.num_workers":T(0,"train.py:410 DataLoader without num_workers (default 0)"),
 "data.pin_memory":T(False,"train.py:410 DataLoader without pin_memory (default False)"),
 "peft.method":T("lora","train.py:669-684 peft LoraConfig + get_peft_model for train_type qlora"),
 "peft.rank":T(64,"train.py:1207 lora_rank default 64 (not given) -> train.py:674"),
 "task.mode":T("qlora","4-bit nf4 base (train.py:615-616) + LoRA (train.py:672-684)"),
},held_out=True,note=H11+"; README.md:31-41 python train.py from the repository root (fastcore call_parse, mp.spawn + FSDP + bitsandbytes QLoRA). World size not labelled: world_size -1 = torch.cuda.device_count() at run time (train.py:1146-1147); model size needs the hub config")
NC=("karpathy/nanochat","92d63d4e8bb4df75c3b71618f31ddde2378b2bcd")
ncs="runs/speedrun.sh"
nct="scripts/base_train.py"
J("nanochat-d24-speedrun-torchrun-m",*NC,["runs","scripts","nanochat","pyproject.toml","README.md"],".",
 [ncs],{
 "model.num_parameters":T(1384122000,ncs+":67 --depth=24 -> "+nct+":129-140 model_dim 24*64 = 1536, 12 heads of 128 -> nanochat/gpt.py:77-80,134-135 (12*1536^2 per layer), :174,177 wte + lm_head, :192 value embeddings on alternating layers (nanochat/gpt.py:53-55: 12 of 24) with the vocab 32768 of scripts/tok_train.py:19 ("+ncs+":57): 1.384B",rel_tol=0.1),
 "dist.world_size":T(8,ncs+":67 torchrun --standalone --nproc_per_node=8"),
 "dist.nodes":T(1,ncs+":67 --standalone"),
 "dist.devices_per_node":T(8,ncs+":67"),
 "batch.micro":T(16,ncs+":67 --device-batch-size=16 -> "+nct+":331 per-rank loader of 16 x 2048 tokens"),
 "data.seq_len":T(2048,nct+":53 --max-seq-len default 2048 (not given) -> "+nct+":331"),
 "batch.grad_accum":T(4,nct+":279-283 total batch auto: target tokens 8 x 729.8M scaling params (d24) vs 8 x 110.1M (d12 reference, "+nct+":272-274) -> 2^19 x 6.63^0.383 = 1.08M -> 2^20 tokens; "+nct+":407-410 2^20 / (16 x 2048 x 8) = 4"),
 "batch.global":T(512,nct+":283 2^20 tokens per step / 2048 = 512 sequences"),
 "compile.enabled":T(True,nct+":246 torch.compile(model, dynamic=False)"),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in nanochat/gpt.py"),
 "optimizer.name":T("MuonAdamW",nct+":308 model.setup_optimizer -> nanochat/gpt.py:454 MuonAdamW (Muon for matrices, AdamW for embeddings/scalars, nanochat/optim.py:184)",any_of=["MuonAdamW","muon","Muon"]),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H11+"; bash runs/speedrun.sh from the repository root; the job labelled is the pretraining line "+ncs+":67 (torchrun -m scripts.base_train -- ...; raw PyTorch, no DDP wrapper: the optimizer reduces and shards itself). Not labelled: precision (--fp8 Float8Linear on top of a compute dtype auto-detected from the GPU, nanochat/common.py:17-32), sharding (no DDP/FSDP wrapper; the MuonAdamW optimizer reduce-scatters gradients and shards optimizer work, nanochat/optim.py:274-303: no plan value fits)")
ST=("yl4579/StyleTTS2","5cedc71c333f8d8b8551ca59378bdcc7af4c9529")
stt="train_finetune_accelerate.py"
J("styletts2-finetune-accelerate-1gpu",*ST,[stt,"meldataset.py","models.py","optimizers.py","losses.py","utils.py","text_utils.py","Configs","Modules","Utils","README.md","requirements.txt"],".",
 ["--","accelerate","launch","--mixed_precision=fp16","--num_processes=1",stt,"--config_path","./Configs/config_ft.yml"],{
 "dist.world_size":T(1,"README.md:86 --num_processes=1"),
 "dist.sharding":T("none","one process ("+stt+":246 accelerator.prepare on one GPU)"),
 "batch.micro":T(8,"Configs/config_ft.yml:6 batch_size 8 -> "+stt+":71,97-104 -> meldataset.py:246-247"),
 "batch.grad_accum":T(1,stt+":416-418,464-474 accelerator.backward and optimizer.step every batch"),
 "precision.mode":T("fp32",stt+":246-248 accelerator.prepare(model, optimizer, dataloader) gets a Munch dict of nets (models.py:672) and a MultiOptimizer, which Accelerate returns unprepared: no autocast wraps a forward, so README.md:86 --mixed_precision=fp16 only scales the loss in accelerator.backward; weights fp32 ("+stt+":133), activations fp32"),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in models.py or Modules/"),
 "optimizer.name":T("AdamW","optimizers.py:65-66 torch.optim.AdamW per sub-network",any_of=["AdamW","adamw"]),
 "data.num_workers":T(2,stt+":102"),
 "data.pin_memory":T(True,"meldataset.py:252 pin_memory=(device != 'cpu'), device = accelerator.device (cuda)"),
 "peft.method":T("none","full fine-tuning of all sub-networks from the LibriTTS checkpoint (Configs/config_ft.yml:8)"),
},held_out=True,note=H11+"; README.md:86 accelerate launch --mixed_precision=fp16 --num_processes=1 train_finetune_accelerate.py (speech, Accelerate). Not labelled: model size (several networks + PL-BERT from Utils/), sequence lengths (audio frames)")
FS=("fishaudio/fish-speech","3dd1f85c402ee6f0a17c2971d3b0dd8d881ca139")
fsc="fish_speech/configs/text2semantic_finetune.yaml"
fsb="fish_speech/configs/base.yaml"
J("fish-speech-lora-hydra-lightning",*FS,["fish_speech","tools","docs/en","pyproject.toml","README.md"],".",
 ["--","python","fish_speech/train.py","--config-name","text2semantic_finetune","project=myproject","+lora@model.model.lora_config=r_8_alpha_16"],{
 "model.ref":T("checkpoints/openaudio-s1-mini",fsc+":7,62 pretrained_ckpt_path (docs/en/finetune.md:95 downloaded from fishaudio/openaudio-s1-mini)",any_of=["checkpoints/openaudio-s1-mini","fishaudio/openaudio-s1-mini"]),
 "dist.nodes":T(1,fsb+":16 num_nodes 1"),
 "dist.sharding":T("ddp",fsb+":18-20 DDPStrategy"),
 "batch.micro":T(4,fsc+":53 data.batch_size 4 -> fish_speech/datasets/semantic.py:596-600 per-process DataLoader"),
 "batch.grad_accum":T(1,fsc+":11 accumulate_grad_batches 1"),
 "data.seq_len":T(4096,fsc+":6,55 max_length 4096 -> fish_speech/datasets/semantic.py:529 collator caps each batch at max_length"),
 "precision.mode":T("bf16",fsc+":15 trainer.precision bf16-true (overrides "+fsb+":22 bf16-mixed): bf16 weights, no fp32 master"),
 "optimizer.name":T("AdamW",fsc+":67-73 torch.optim.AdamW (Hydra _partial_)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,fsc+":52"),
 "peft.method":T("lora","docs/en/finetune.md:103 +lora@model.model.lora_config=r_8_alpha_16 -> fish_speech/models/text2semantic/llama.py:590-591 setup_lora (own LoRA, fish_speech/models/text2semantic/lora.py:32)"),
 "peft.rank":T(8,"fish_speech/configs/lora/r_8_alpha_16.yaml:2"),
 "task.mode":T("lora","LoRA on a bf16 base"),
},held_out=True,note=H11+"; docs/en/finetune.md:101-104 python fish_speech/train.py --config-name text2semantic_finetune with Hydra overrides ($project filled), Lightning + Hydra (speech LM). Not labelled: world size (trainer.devices auto), gradient checkpointing (use_gradient_checkpointing read from the downloaded checkpoint's config, fish_speech/models/text2semantic/llama.py:122, default True), model size (downloaded config)")
BC=("baichuan-inc/Baichuan-7B","6f3ef4633a90c2d8a3e0763d0dec1b8dc11588f5")
bcd="config/deepspeed.json"
J("baichuan-7b-pretrain-deepspeed-launcher",*BC,["scripts","config","train.py","models","README.md","requirements.txt"],".",
 ["scripts/train.sh"],{
 "model.num_parameters":T(7000559616,"train.py:114 BaiChuanConfig() defaults models/configuration_baichuan.py:47-51,60 (vocab 64000, hidden 4096, ffn 11008, 32 layers, untied) -> models/modeling_baichuan.py:164-166,189-190,558: 7.0B",rel_tol=0.1),
 "dist.devices_per_node":T(8,"scripts/train.sh:2 --hostfile config/hostfile -> config/hostfile:1-2 slots=8"),
 "dist.sharding":T("zero2",bcd+":23-24 stage 2 (train.py:110-114 also builds the model inside deepspeed.zero.Init)"),
 "dist.offload_optimizer":T("none",bcd+":23-30 no offload_optimizer"),
 "dist.offload_params":T("none",bcd+":23-30 no offload_param"),
 "dist.allgather_bucket_size":T(100000000,bcd+":26 1e8"),
 "dist.reduce_bucket_size":T(100000000,bcd+":27 1e8"),
 "dist.overlap_comm":T(True,bcd+":28"),
 "dist.contiguous_gradients":T(False,bcd+":25"),
 "batch.micro":T(1,bcd+":3 -> train.py:102,92 reshape(micro_batch_size, max_length + 1)"),
 "batch.grad_accum":T(1,bcd+":2"),
 "data.seq_len":T(4096,"train.py:38 --max_length default 4096 -> train.py:92 rows of 4097 tokens fed whole (labels=data, :129)",any_of=[4096,4097]),
 "precision.mode":T("bf16",bcd+":34-36 DeepSpeed bf16 (16-bit weights, fp32 master copies in the optimizer)"),
 "memory.gradient_checkpointing":T(False,"models/modeling_baichuan.py:391 gradient_checkpointing False, never enabled in train.py"),
 "optimizer.name":T("AdamW",bcd+":6-7 DeepSpeed optimizer AdamW",any_of=["AdamW","adamw"]),
 "compile.enabled":T(False,"no torch.compile in the repository"),
 "peft.method":T("none","pretraining from scratch (train.py:114 random init)"),
},held_out=True,note=H11+"; bash scripts/train.sh from the repository root (deepspeed --hostfile launcher, raw deepspeed.initialize loop, pretraining). World size and nodes not labelled: config/hostfile:1-3 is a template ([master address] slots=8, [worker address] slots=8, ...)")
LF=("rasbt/LLMs-from-scratch","28c65cdfbc3338e2e040016eea4b7fdf556e4d57")
lfd="ch05/10_llm-training-speed"
lfs="02_opt_multi_gpu_ddp.py"
J("llms-from-scratch-gpt124m-torchrun-ddp",*LF,[lfd],lfd,
 ["--","torchrun","--nproc_per_node=4",lfs],{
 "model.num_parameters":T(163081728,lfs+":560-568 GPT_CONFIG_124M (vocab 50304, ctx 1024, emb 768, 12 heads, 12 layers, no qkv bias) -> "+lfs+":117-118,158-160,177-178,202-210 untied out_head: 163.1M",rel_tol=0.1),
 "dist.world_size":T(4,"README.md:16 torchrun --nproc_per_node=4"),
 "dist.nodes":T(1,"README.md:16 single-node torchrun"),
 "dist.sharding":T("ddp",lfs+":491 DDP(model, device_ids=[rank])"),
 "batch.micro":T(32,lfs+":573 batch_size 32 -> "+lfs+":507,93,99 per-process DataLoader with DistributedSampler"),
 "batch.grad_accum":T(1,lfs+":344-350 zero_grad, backward, step every batch"),
 "data.seq_len":T(1024,lfs+":562 context_length 1024 -> "+lfs+":508 max_length"),
 "precision.mode":T("bf16",lfs+":489 model.to(torch.bfloat16), no autocast: pure bf16 weights"),
 "compile.enabled":T(True,lfs+":487 torch.compile(model)"),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in "+lfs),
 "optimizer.name":T("AdamW",lfs+":492-495 torch.optim.AdamW(fused=True)",any_of=["AdamW","adamw"]),
 "model.attn_implementation":T("sdpa",lfs+":138 scaled_dot_product_attention"),
 "data.num_workers":T(4,lfs+":511"),
 "data.pin_memory":T(True,lfs+":97"),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H11+"; "+lfd+"/README.md:16 torchrun --nproc_per_node=4 02_opt_multi_gpu_ddp.py from "+lfd+" (raw PyTorch DDP, single-file GPT pretraining)")
G4=("nomic-ai/gpt4all","cd70db29edaf0f02a567f5eea94f5e52240be3e9")
g4y="configs/train/finetune_gptj.yaml"
g4d="configs/deepspeed/ds_config_gptj.json"
J("gpt4all-j-accelerate-deepspeed-zero2",*G4,["gpt4all-training"],"gpt4all-training",
 ["--","accelerate","launch","--dynamo_backend=inductor","--num_processes=8","--num_machines=1","--machine_rank=0",
  "--deepspeed_multinode_launcher","standard","--mixed_precision=bf16","--use_deepspeed","--deepspeed_config_file="+g4d,
  "train.py","--config",g4y],{
 "model.ref":T("EleutherAI/gpt-j-6B",g4y+":2 model_name -> train.py:58 (the YAML is read by read.py:4-8, train.py:229)"),
 "dist.world_size":T(8,"README.md:44 --num_processes=8 --num_machines=1"),
 "dist.nodes":T(1,"README.md:44 --num_machines=1"),
 "dist.devices_per_node":T(8,"README.md:44 --num_processes=8 on one machine"),
 "dist.sharding":T("zero2",g4d+":16-17 stage 2 (README.md:44 --use_deepspeed --deepspeed_config_file)"),
 "dist.offload_optimizer":T("none",g4d+":21-23 device none"),
 "dist.offload_params":T("none",g4d+":18-20 device none (and stage 2)"),
 "dist.allgather_bucket_size":T(500000000,g4d+":25 5e8"),
 "dist.contiguous_gradients":T(True,g4d+":26"),
 "batch.micro":T(32,g4y+":12 batch_size 32 -> data.py:110-114 DataLoader (per process; "+g4d+":4 train_micro_batch_size_per_gpu auto is filled from it by Accelerate's DeepSpeed preparation)"),
 "batch.grad_accum":T(1,g4d+":3 auto and no --gradient_accumulation_steps on README.md:44 (accelerate launch: defaults to 1)"),
 "data.seq_len":T(1024,g4y+":11 max_length 1024 -> data.py:37 truncation, data.py:52 padding='max_length'"),
 "precision.mode":T("bf16","README.md:44 --mixed_precision=bf16 fills "+g4d+":12-14 bf16 auto (fp16 auto stays off): DeepSpeed bf16, 16-bit weights with fp32 master copies"),
 "memory.gradient_checkpointing":T(True,g4y+":4 -> train.py:56,61-62 gradient_checkpointing_enable()"),
 "optimizer.name":T("AdamW",g4d+":28-29 DeepSpeed optimizer AdamW (train.py:72-77 DummyOptim because the config has one)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(0,"data.py:110-115 DataLoader without num_workers (default 0)"),
 "data.pin_memory":T(False,"data.py:110-115 DataLoader without pin_memory (default False)"),
 "peft.method":T("none",g4y+":24 lora false -> train.py:64"),
},held_out=True,note=H11+"; gpt4all-training/README.md:44 accelerate launch --use_deepspeed --deepspeed_config_file ... train.py --config (raw Accelerate loop, DeepSpeed ZeRO-2, own YAML read with yaml.safe_load). Not labelled: compile (--dynamo_backend=inductor: whether Accelerate compiles a model it hands to DeepSpeed depends on the accelerate/deepspeed versions), model size (hub config of EleutherAI/gpt-j-6B)")

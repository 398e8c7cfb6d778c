"""The eighteenth held-out set of the jobs benchmark (run.py --set held-out-18): expert truth
written by hand, one J(...) per job."""
from .core import J, T

H18="eighteenth held-out set"
DSM=("deepseek-ai/DeepSeek-MoE","66edeee5a4f75cbd76e0316229ad101805a90e01")
dsf="finetune/finetune.py"
dsz3="finetune/configs/ds_config_zero3.json"
dsz2="finetune/configs/ds_config_zero2_no_offload.json"
dsm_common=["--data_path","train.parquet","--output_dir","out","--num_train_epochs","3","--model_max_length","1024",
 "--per_device_train_batch_size","16","--per_device_eval_batch_size","1","--gradient_accumulation_steps","4",
 "--evaluation_strategy","no","--save_strategy","steps","--save_steps","100","--save_total_limit","100",
 "--learning_rate","2e-5","--warmup_steps","10","--logging_steps","1","--lr_scheduler_type","cosine",
 "--gradient_checkpointing","True","--report_to","tensorboard"]
J("deepseek-moe-16b-full-zero3-offload-8gpu",*DSM,["finetune","README.md","requirements.txt"],"finetune",
 ["--","deepspeed","--num_gpus","8","finetune.py","--model_name_or_path","deepseek-ai/deepseek-moe-16b-base",*dsm_common,
  "--deepspeed","configs/ds_config_zero3.json","--bf16","True","--use_lora","False"],{
 "model.ref":T("deepseek-ai/deepseek-moe-16b-base","README.md:202,206 MODEL_PATH placeholder filled with the base model -> "+dsf+":185 AutoModelForCausalLM.from_pretrained"),
 "dist.world_size":T(8,"README.md:197 'we run it on eight A100 40 GPUs' -> deepspeed --num_gpus 8"),
 "dist.nodes":T(1,"deepspeed launcher without a hostfile"),
 "batch.micro":T(16,"README.md:211 --per_device_train_batch_size 16 (ds json 'auto')"),
 "batch.grad_accum":T(4,"README.md:213"),
 "batch.global":T(512,"16 x 4 x 8 ranks"),
 "data.seq_len":T(1024,"README.md:210 --model_max_length 1024 -> "+dsf+":264-265 tokenizer model_max_length -> :121-122 truncation at max_length"),
 "dist.sharding":T("zero3",dsz3+":24 stage 3"),
 "dist.offload_optimizer":T("cpu",dsz3+":25-28"),
 "dist.offload_params":T("cpu",dsz3+":29-32"),
 "dist.stage3_max_live_parameters":T(1000000000,dsz3+":40 1e9"),
 "dist.overlap_comm":T(True,dsz3+":33"),
 "dist.contiguous_gradients":T(True,dsz3+":34"),
 "dist.save_16bit_weights":T(True,dsz3+":42"),
 "precision.mode":T("bf16","README.md:225 --bf16 True -> "+dsz3+":2-4 bf16 auto (DeepSpeed bf16: 16-bit weights, fp32 master); "+dsf+":184,198 torch_dtype bf16"),
 "precision.weights_bits":T(16,dsf+":49-52 bits default 16; :183 asserted 16/32 without LoRA"),
 "optimizer.name":T("AdamW",dsz3+":5-13 DeepSpeed optimizer AdamW (replaces TrainingArguments optim; with CPU offload DeepSpeed runs DeepSpeedCPUAdam)",any_of=["AdamW","adamw","cpu_adam","DeepSpeedCPUAdam"]),
 "memory.gradient_checkpointing":T(True,"README.md:222 --gradient_checkpointing True"),
 "peft.method":T("none","README.md:226 --use_lora False -> "+dsf+":215 no LoRA"),
},held_out=True,note=H18+"; README.md:199-227 cd finetune && deepspeed finetune.py ... --deepspeed configs/ds_config_zero3.json --bf16 True --use_lora False on the 8 GPUs the README names (HfArgumentParser with a TrainingArguments subclass, a ZeRO-3 JSON with CPU offload and 'auto' values, a trust_remote_code MoE model; the attn_implementation field is declared but never passed to from_pretrained, so it is not labelled)")
J("deepseek-moe-16b-qlora-zero2-1gpu",*DSM,["finetune","README.md","requirements.txt"],"finetune",
 ["--","deepspeed","--num_gpus","1","finetune.py","--model_name_or_path","deepseek-ai/deepseek-moe-16b-base",*dsm_common,
  "--deepspeed","configs/ds_config_zero2_no_offload.json","--bf16","True","--use_lora","True","--bits","4",
  "--max_grad_norm","0.3","--double_quant","--lora_r","64","--lora_alpha","16","--quant_type","nf4"],{
 "model.ref":T("deepseek-ai/deepseek-moe-16b-base","README.md:233,237 MODEL_PATH placeholder filled"),
 "dist.world_size":T(1,"README.md:229 'possible to run on a single A100 80G GPU' -> deepspeed --num_gpus 1"),
 "batch.micro":T(16,"README.md:242"),
 "batch.grad_accum":T(4,"README.md:244"),
 "data.seq_len":T(1024,"README.md:241 --model_max_length 1024 -> "+dsf+":121-122"),
 "dist.sharding":T("zero2",dsz2+":6 stage 2"),
 "dist.allgather_bucket_size":T(100000000,dsz2+":8 1e8"),
 "dist.reduce_bucket_size":T(100000000,dsz2+":11 1e8"),
 "dist.offload_optimizer":T("none",dsz2+" no offload_optimizer"),
 "precision.mode":T("bf16","README.md:256 --bf16 True + "+dsz2+":2-4 bf16 enabled; "+dsf+":240-241 LoRA layers cast to bf16"),
 "precision.weights_bits":T(4,"README.md:258 --bits 4 -> "+dsf+":187-197 BitsAndBytesConfig(load_in_4bit)"),
 "precision.quant_type":T("nf4","README.md:263 --quant_type nf4 -> "+dsf+":196"),
 "precision.double_quant":T(True,"README.md:260 --double_quant (bool field, flag form = True) -> "+dsf+":195"),
 "peft.method":T("lora","README.md:257 --use_lora True -> "+dsf+":229-236 LoraConfig + get_peft_model"),
 "peft.rank":T(64,"README.md:261 --lora_r 64: argparse prefix of --lora_rank ("+dsf+":34; HfArgumentParser keeps allow_abbrev) -> :226,233"),
 "task.mode":T("qlora","4-bit base + LoRA (modules_to_save embed_tokens,lm_head trained in full, "+dsf+":37)",any_of=["qlora","lora"]),
 "memory.gradient_checkpointing":T(True,"README.md:253 --gradient_checkpointing True -> "+dsf+":213 prepare_model_for_kbit_training(use_gradient_checkpointing=True)"),
 "optimizer.name":T("adamw_torch",dsf+":63 optim default adamw_torch; no optimizer block in "+dsz2,any_of=["adamw_torch","AdamW","adamw"]),
},held_out=True,note=H18+"; README.md:229-264 the 4-bit QLoRA command with configs/ds_config_zero2_no_offload.json on one GPU (flag spelled --lora_r on the command line while the dataclass field is lora_rank: argparse prefix matching; --double_quant as a bare flag; quantization config built only when use_lora)")
PCT=("huggingface/picotron","59714b1bf25541dbeb6f5a721ed15f6d0768e786")
pcc="template/base_config.json"
J("picotron-smollm-16layer-template-torchrun-1gpu",*PCT,["."],".",["--","torchrun","--nproc_per_node","1","train.py","--config",pcc],{
 "model.num_parameters":T(249200000,pcc+":12-15 HuggingFaceTB/SmolLM-360M-Instruct config (hidden 960, intermediate 2560, vocab 49152) with 16 layers, 16 heads / 4 kv heads -> train.py:154-159 overrides -> picotron/model.py:271-273 untied embedding + final_proj: 16 x 9.68M + 2 x 47.2M ~ 249M",rel_tol=0.1),
 "dist.world_size":T(1,"torchrun --nproc_per_node 1; "+pcc+":3-6 tp/cp/pp/dp all 1 (train.py:86 asserts world_size equals their product)"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("none","dp_size 1: train.py:192 DataParallelBucket only when dp_world_size > 1",any_of=["none","ddp"]),
 "batch.micro":T(32,pcc+":25 micro_batch_size"),
 "batch.grad_accum":T(1,pcc+":26"),
 "batch.global":T(32,"picotron/data.py:17 micro 32 x accumulation 1 x dp 1"),
 "data.seq_len":T(1024,pcc+":24 seq_length"),
 "precision.mode":T("bf16","train.py:76 dtype bfloat16 on a bf16 GPU -> :190 model.to(dtype): bf16 weights, bf16 AdamW states, no autocast, no fp32 master"),
 "optimizer.name":T("AdamW","train.py:204-209 torch AdamW(fused=True) ("+pcc+":18 use_fused_adam)",any_of=["AdamW","adamw","adamw_torch_fused","adamw_torch"]),
 "model.attn_implementation":T("flash_attention_2",pcc+":49 FLASH_ATTEN 1 -> picotron/model.py:152-154 flash_attn_func",any_of=["flash_attention_2","flash_attn"]),
 "data.num_workers":T(0,pcc+":33"),
 "data.pin_memory":T(True,"picotron/data.py:13 pin_memory=True default -> :51"),
 "compile.enabled":T(False,"no torch.compile"),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in picotron/model.py"),
 "peft.method":T("none","pretraining"),
},held_out=True,note=H18+"; README.md:26-30 torchrun --nproc_per_node N train.py --config <json>, here with the repository's own template/base_config.json on one GPU (a nested JSON config read by json.load, a HF AutoConfig whose layers/heads are overridden from the JSON, a hand-written Llama with flash-attn kernels, the whole model cast to bf16 with no master copy)")
CNV=("facebookresearch/ConvNeXt-V2","2553895753323c6fe0b2bf390683f5ea358a42b9")
cmf="main_finetune.py"
J("convnextv2-base-in1k-finetune-8gpu",*CNV,["."],".",["--","python","-m","torch.distributed.launch","--nproc_per_node=8",cmf,
 "--model","convnextv2_base","--batch_size","32","--update_freq","4","--blr","6.25e-4","--epochs","100","--warmup_epochs","20",
 "--layer_decay_type","group","--layer_decay","0.6","--weight_decay","0.05","--drop_path","0.1","--reprob","0.25","--mixup","0.8",
 "--cutmix","1.0","--smoothing","0.1","--model_ema","True","--model_ema_eval","True","--use_amp","True",
 "--finetune","/ckpt/convnextv2_base_1k_224_fcmae.pt","--data_path","/data/imagenet-1k","--output_dir","out"],{
 "model.num_parameters":T(88700000,"TRAINING.md:70 --model convnextv2_base -> models/convnextv2.py:128-129 depths 3,3,27,3 dims 128..1024 with a 1000-class head -> ~89M (README: 89M)",rel_tol=0.1),
 "dist.world_size":T(8,"TRAINING.md:69 --nproc_per_node=8"),
 "dist.nodes":T(1,"single machine"),
 "dist.sharding":T("ddp",cmf+":330 DistributedDataParallel"),
 "batch.micro":T(32,"TRAINING.md:71 --batch_size 32 (per GPU)"),
 "batch.grad_accum":T(4,"TRAINING.md:71 --update_freq 4 -> engine_finetune.py:61-66 step every 4 iterations"),
 "batch.global":T(1024,"32 x 4 x 8"),
 "data.image_size":T(224,cmf+":45 --input_size default 224"),
 "precision.mode":T("amp_fp16","TRAINING.md:84 --use_amp True -> engine_finetune.py:46-48 torch.cuda.amp.autocast() (fp16) + NativeScaler; fp32 weights"),
 "optimizer.name":T("AdamW",cmf+":76 --opt default adamw -> optim_factory.py:174-175 optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(10,cmf+":165 --num_workers default 10"),
 "data.pin_memory":T(True,cmf+":166 --pin_mem default True -> :228"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models/convnextv2.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tune from the FCMAE checkpoint"),
},held_out=True,note=H18+"; TRAINING.md:66-88 the single-machine ImageNet-1K fine-tuning of ConvNeXt V2-Base (python -m torch.distributed.launch, argparse with str2bool flags, a timm-style layer-decay optimizer factory, update_freq as the accumulation, model EMA, fp16 autocast with a scaler)")
MC3=("facebookresearch/moco-v3","c349e6e24f40d3fedb22d973f92defa4cedf37a7")
mcm="main_moco.py"
J("moco-v3-vit-small-1node-8gpu",*MC3,["."],".",[mcm,"--","-a","vit_small","-b","1024","--optimizer=adamw","--lr=1.5e-4","--weight-decay=.1",
 "--epochs=300","--warmup-epochs=40","--stop-grad-conv1","--moco-m-cos","--moco-t=.2","--dist-url","tcp://localhost:10001",
 "--multiprocessing-distributed","--world-size","1","--rank","0","/data/imagenet"],{
 "model.ref":T("vit_small","README.md:116 -a vit_small -> "+mcm+":180-183 vits.__dict__[args.arch]"),
 "dist.nodes":T(1,"README.md:121 --world-size 1 (nodes, multiplied by the GPUs per node at "+mcm+":147)"),
 "dist.world_size":T(8,"README.md:112 '1-node (8-GPU) training' -> mp.spawn one process per GPU ("+mcm+":143-147)"),
 "dist.sharding":T("ddp",mcm+":208 DistributedDataParallel"),
 "batch.global":T(1024,"README.md:116 -b 1024 (the total over all GPUs)"),
 "batch.micro":T(128,mcm+":206 batch_size = 1024 / 8 per process"),
 "batch.grad_accum":T(1,"no accumulation in the train loop"),
 "data.image_size":T(224,mcm+":263,275 RandomResizedCrop(224) (two crops per image)"),
 "precision.mode":T("amp_fp16",mcm+":352 torch.cuda.amp.autocast(True) (fp16) + :232 GradScaler; fp32 weights"),
 "optimizer.name":T("AdamW","README.md:117 --optimizer=adamw -> "+mcm+":229 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,mcm+":54 --workers default 32 -> :207 (32 + 8 - 1) / 8 = 4 per process"),
 "data.pin_memory":T(True,mcm+":299"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in vits.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","self-supervised pretraining from scratch"),
},held_out=True,note=H18+"; README.md:112-123 python main_moco.py -a vit_small -b 1024 ... --multiprocessing-distributed --world-size 1 --rank 0 (pytorch/examples-style argparse with mp.spawn, the batch and workers divided per process in code, a MoCo wrapper holding a base and a momentum ViT-S; self-supervised vision). Not labelled: parameter count (two encoders, one without gradients, plus projector/predictor MLPs)")
SGR=("lsdefine/simple_GRPO","4ab94c64765a33f73a2c285d1285f935fd299ef2")
sgv="grpo_vllm_one.py"
J("simple-grpo-qwen25-7b-zero2-offload-deepspeed",*SGR,["."],".",["--","deepspeed","--include","localhost:2,3,4,5,6",sgv],{
 "model.ref":T("Qwen/Qwen2.5-7B",sgv+":11 model_path '/data2/Qwen/Qwen2.5-7B' (a local copy of the hub model) -> :220-221 from_pretrained",any_of=["Qwen/Qwen2.5-7B","/data2/Qwen/Qwen2.5-7B"]),
 "dist.world_size":T(5,"README.md:73 CUDA_VISIBLE_DEVICES=2,3,4,5,6 deepspeed "+sgv+" (written here as the launcher's equivalent --include localhost:2,3,4,5,6): five training ranks; the vLLM generator (:217) and the reference server (README.md:65) run outside them"),
 "dist.nodes":T(1,"deepspeed launcher on localhost"),
 "dist.sharding":T("zero2",sgv+":33-34 zero_optimization stage 2"),
 "dist.offload_optimizer":T("cpu",sgv+":42 offload_optimizer cpu"),
 "dist.allgather_bucket_size":T(200000000,sgv+":36 2e8"),
 "dist.reduce_bucket_size":T(200000000,sgv+":39 2e8"),
 "dist.overlap_comm":T(True,sgv+":37"),
 "dist.contiguous_gradients":T(True,sgv+":40"),
 "batch.micro":T(8,sgv+":17,26 train_micro_batch_size_per_gpu = train_batch_size = 8 (each engine() call gets a group slice of 8 completions, :183-185)"),
 "batch.grad_accum":T(4,sgv+":27 gradient_accumulation_steps 4 (engine.step at :236 steps the optimizer every 4th call)"),
 "precision.mode":T("bf16",sgv+":32 DeepSpeed bf16 enabled (16-bit weights, fp32 master) and :221 torch_dtype bf16"),
 "optimizer.name":T("AdamW",sgv+":28-31 DeepSpeed optimizer AdamW (with CPU offload DeepSpeed runs DeepSpeedCPUAdam)",any_of=["AdamW","adamw","cpu_adam","DeepSpeedCPUAdam"]),
 "model.attn_implementation":T("sdpa",sgv+":221 _attn_implementation='sdpa'"),
 "memory.gradient_checkpointing":T(False,"gradient_checkpointing_enable never called; no activation_checkpointing in ds_config"),
 "peft.method":T("none","full-parameter GRPO"),
},held_out=True,note=H18+"; README.md:62-73 the training half of the job: CUDA_VISIBLE_DEVICES=2,3,4,5,6 deepspeed grpo_vllm_one.py (a module-level script with constants and a DeepSpeed config dict passed to deepspeed.initialize(config=...), a hand-written GRPO loss, vLLM generation in a spawned process, the reference model in a separate HTTP server). Not labelled: sequence length (prompt plus up to 700 generated tokens, :101)")
SIT=("willisma/SiT","947f95bd3a510e9af441d38c1e9f72e0eee873c5")
J("sit-xl2-imagenet256-torchrun-8gpu",*SIT,["."],".",["--","torchrun","--nnodes=1","--nproc_per_node=8","train.py","--model","SiT-XL/2","--data-path","/data/imagenet/train"],{
 "model.num_parameters":T(675000000,"README.md:96 --model SiT-XL/2 -> models.py:327-328 depth 28, hidden 1152, patch 2, 16 heads (the DiT-XL/2 backbone, ~675M)",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:96 --nproc_per_node=N with N=8"),
 "dist.nodes":T(1,"README.md:96 --nnodes=1"),
 "dist.sharding":T("ddp","train.py:168 DDP(model)"),
 "batch.global":T(256,"train.py:325 --global-batch-size default 256"),
 "batch.micro":T(32,"train.py:125 local_batch_size = 256 // world size 8"),
 "batch.grad_accum":T(1,"train.py:249-252 zero_grad/backward/step every batch"),
 "data.image_size":T(256,"train.py:322 --image-size default 256 (the model sees 32x32x4 VAE latents, :149)"),
 "precision.mode":T("fp32","no autocast or half anywhere in train.py; fp32 weights"),
 "optimizer.name":T("AdamW","train.py:181 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,"train.py:328 --num-workers default 4"),
 "data.pin_memory":T(True,"train.py:204"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H18+"; README.md:93-97 torchrun --nnodes=1 --nproc_per_node=N train.py --model SiT-XL/2 --data-path ... with N=8 (argparse, the per-rank batch derived from a global batch divided by the world size, a frozen VAE encoding images to latents under no_grad, an EMA copy; class-conditional latent flow/diffusion transformer)")
MLO=("myshell-ai/MeloTTS","209145371cff8fc3bd60d7be902ea69cbdb7965a")
mtp="train.py"
J("melotts-vits2-train-sh-2gpu",*MLO,["melo","docs","requirements.txt","setup.py"],"melo",["train.sh","--","configs/config.json","2"],{
 "dist.world_size":T(2,"docs/training.md:31 bash train.sh <config> <num_of_gpus> with 2 -> train.sh:2,9 torchrun --nproc_per_node=$GPUS"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("ddp",mtp+":166-167,191 DDP(net_g), DDP(net_d), DDP(net_dur_disc) (gloo backend, :52-56)"),
 "batch.micro":T(6,"configs/config.json:13 train.batch_size 6 -> "+mtp+":70-77 DistributedBucketSampler(batch_size) per rank"),
 "batch.grad_accum":T(1,"one optimizer step per batch in train_and_evaluate"),
 "precision.mode":T("fp32","configs/config.json:14 fp16_run false -> "+mtp+":252 GradScaler(enabled=False), :342,420 autocast(enabled=False); fp32 weights"),
 "optimizer.name":T("AdamW",mtp+":145-163 torch.optim.AdamW for generator, discriminator and duration discriminator",any_of=["AdamW","adamw"]),
 "data.num_workers":T(16,mtp+":81"),
 "data.pin_memory":T(True,mtp+":83"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full training of the VITS2-style generator and discriminators"),
},held_out=True,note=H18+"; docs/training.md:5-32 cd melo && bash train.sh <path/to/config.json> <num_of_gpus>, here with the repository's configs/config.json (the template preprocess_text.py copies) and 2 GPUs (positional shell arguments, an auto-restart while loop around torchrun, a JSON hparams file read by a helper given -c, a GAN with three DDP-wrapped networks and three optimizers, a bucket batch sampler; speech synthesis). Not labelled: model size (VITS2 generator + BERT features), segment length (configs/config.json:16 segment_size 16384 samples)")
ADM=("zyushun/Adam-mini","402aadfed23719f3b92c8e78b5d49ad499ff7ada")
agp="train_gpt2.py"
agc="config/train_gpt2_small.py"
J("adam-mini-gpt2-small-torchrun-4gpu",*ADM,["examples/gpt2","adam_mini","README.md","setup.py"],"examples/gpt2",["run_gpt2.sh"],{
 "model.num_parameters":T(124000000,agc+":7-9 n_layer 12 n_head 12 n_embd 768, :11 bias False; "+agp+":199 vocab 50304; model.py:166 tied embeddings -> ~124M",rel_tol=0.1),
 "dist.world_size":T(4,"run_gpt2.sh:4 torchrun --standalone --nproc_per_node=4"),
 "dist.nodes":T(1,"--standalone"),
 "dist.sharding":T("ddp",agp+":272 DDP(model)"),
 "batch.micro":T(60,agc+":3 batch_size = 60 (read by configurator.py exec)"),
 "batch.grad_accum":T(2,agc+":5 gradient_accumulation_steps = 8 -> "+agp+":128-129 divided by world size 4 = 2"),
 "batch.global":T(480,"60 x 2 x 4 ranks (labelled 240 by an arithmetic slip before the first scoring; corrected after it, see docs/realworld.md Set 18)"),
 "data.seq_len":T(1024,agc+":4 block_size"),
 "precision.mode":T("amp_bf16",agp+":87 dtype bfloat16 on a bf16 GPU -> :146 torch.amp.autocast(bfloat16); :246 GradScaler off; fp32 weights"),
 "optimizer.name":T("adam_mini",agc+":27 algorithm = 'adam_mini' -> "+agp+":251-260 Adam_mini(named_parameters, ...)",any_of=["adam_mini","Adam_mini","adam-mini","adammini"]),
 "model.attn_implementation":T("sdpa",agp+":82 flash_attn True -> model.py:85-87 F.scaled_dot_product_attention",any_of=["sdpa","flash_attention_2"]),
 "compile.enabled":T(False,"no torch.compile in "+agp+" (only a docstring mention at :6)"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in model.py"),
 "peft.method":T("none","pretraining from scratch ("+agp+":53 init_from scratch)"),
},held_out=True,note=H18+"; examples/gpt2/run_gpt2.sh (conda activate, then torchrun --standalone --nproc_per_node=4 train_gpt2.py config/train_gpt2_small.py: a nanoGPT fork whose config override file is exec'd, the accumulation divided by the world size in code, and the Adam-mini optimizer in place of AdamW)")
FQV=("zhangfaen/finetune-Qwen2-VL","c5385c5ee8cacf141a1aa4555184f1f56fe750cf")
fqd="finetune_distributed.py"
J("finetune-qwen2-vl-2b-accelerate-deepspeed-zero3-2gpu",*FQV,["."],".",["finetune_distributed.sh"],{
 "model.ref":T("Qwen/Qwen2-VL-2B-Instruct",fqd+":194-196 Qwen2VLForConditionalGeneration.from_pretrained"),
 "dist.world_size":T(2,"finetune_distributed.sh:3 accelerate launch --num_processes=2"),
 "dist.nodes":T(1,"finetune_distributed.sh:3 --num_machines=1"),
 "dist.sharding":T("zero3","finetune_distributed.sh:3 --use_deepspeed + "+fqd+":18-19 DeepSpeedPlugin(zero_stage=3) passed to Accelerator (:33)"),
 "dist.offload_optimizer":T("none","DeepSpeedPlugin without offload_optimizer_device (the generated config quoted at "+fqd+":45-48: device none)"),
 "dist.offload_params":T("none",fqd+":49-52 device none"),
 "dist.save_16bit_weights":T(True,fqd+":26 zero3_save_16bit_model=True"),
 "batch.micro":T(1,fqd+":220 DataLoader batch_size=1"),
 "batch.grad_accum":T(2,fqd+":25 DeepSpeedPlugin gradient_accumulation_steps=2 (+ :232 accelerator.accumulate)"),
 "batch.global":T(4,"1 x 2 x 2 ranks ("+fqd+":40 train_batch_size 4)"),
 "precision.mode":T("bf16","finetune_distributed.sh:3 --mixed_precision=bf16 under DeepSpeed -> bf16 enabled (16-bit weights, fp32 master, "+fqd+":57-59,69-71); :195 torch_dtype bfloat16"),
 "optimizer.name":T("AdamW",fqd+":9,226 torch.optim.AdamW passed through accelerator.prepare (zero_allow_untested_optimizer, :63)",any_of=["AdamW","adamw","adamw_torch"]),
 "model.attn_implementation":T("flash_attention_2",fqd+":195"),
 "memory.gradient_checkpointing":T(False,"gradient_checkpointing_enable never called"),
 "compile.enabled":T(False,"finetune_distributed.sh:3 --dynamo_backend=no"),
 "data.num_workers":T(0,fqd+":218-222 DataLoader without num_workers"),
 "peft.method":T("none","full fine-tune of the whole VLM"),
},held_out=True,note=H18+"; README.md:51-53 ./finetune_distributed.sh (CUDA_VISIBLE_DEVICES=\"0,1\" accelerate launch --mixed_precision=bf16 --dynamo_backend=no --num_machines=1 --num_processes=2 --use_deepspeed finetune_distributed.py: accelerate flags on the launch line with a DeepSpeedPlugin built in code instead of a config file, a plain Accelerate loop with accelerator.accumulate, vision-language model). Not labelled: sequence length (images of 256-512 x 28x28 pixels become variable visual tokens, no truncation)")
WSF=("vasistalodagala/whisper-finetune","718ad18b669d7ed5290a4c1c3577b0b141621555")
wft="train/fine-tune_on_hf_dataset.py"
J("whisper-finetune-hindi-base-hf-torchrun-4gpu",*WSF,["."],".",["--","torchrun","--nproc_per_node=4",wft,
 "--model_name","vasista22/whisper-hindi-base","--language","Hindi","--sampling_rate","16000","--num_proc","2",
 "--train_strategy","steps","--learning_rate","3e-3","--warmup","1000","--train_batchsize","16","--eval_batchsize","8",
 "--num_steps","10000","--resume_from_ckpt","None","--output_dir","op_dir_steps",
 "--train_datasets","mozilla-foundation/common_voice_11_0","mozilla-foundation/common_voice_11_0",
 "--train_dataset_configs","hi","hi","--train_dataset_splits","train","validation",
 "--train_dataset_text_columns","sentence","sentence","--eval_datasets","google/fleurs",
 "--eval_dataset_configs","hi_in","--eval_dataset_splits","test","--eval_dataset_text_columns","transcription"],{
 "model.ref":T("vasista22/whisper-hindi-base","README.md:116 --model_name -> "+wft+":214 WhisperForConditionalGeneration.from_pretrained(args.model_name)"),
 "dist.world_size":T(4,"README.md:113-115 ngpu=4, torchrun --nproc_per_node=${ngpu}"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("ddp","Seq2SeqTrainer under torchrun, no DeepSpeed/FSDP"),
 "batch.micro":T(16,"README.md:123 --train_batchsize 16 -> "+wft+":382 per_device_train_batch_size"),
 "batch.grad_accum":T(1,wft+":383"),
 "batch.global":T(64,"16 x 1 x 4"),
 "precision.mode":T("amp_fp16",wft+":387 fp16=True (Trainer autocast fp16 + GradScaler, fp32 weights)"),
 "optimizer.name":T("adamw_bnb_8bit",wft+":402 optim",any_of=["adamw_bnb_8bit","adamw8bit","AdamW8bit"]),
 "memory.gradient_checkpointing":T(True,wft+":199 gradient_checkpointing = True -> :386"),
 "data.num_workers":T(0,"Seq2SeqTrainingArguments dataloader_num_workers default 0"),
 "compile.enabled":T(False,"torch_compile not set"),
 "peft.method":T("none",wft+":200-201 nothing frozen; full fine-tune"),
},held_out=True,note=H18+"; README.md:112-136 ngpu=4; torchrun --nproc_per_node=${ngpu} train/fine-tune_on_hf_dataset.py ... (a shell variable on the launch line, argparse with nargs='+' lists, module-level constants passed into Seq2SeqTrainingArguments built in one of two branches chosen by --train_strategy; speech recognition, encoder-decoder). Not labelled: sequence length (audio up to 30 s, :281, labels up to the model's max_length, :279)")

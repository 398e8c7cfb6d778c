"""The twelfth held-out set of the jobs benchmark (run.py --set held-out-12): expert truth
written by hand, one J(...) per job."""
from .core import J, T

H12="twelfth held-out set"
CN=("lllyasviel/ControlNet","ed85cd1e25a5ed592f7d8178495b4483de0331bf")
cnt="tutorial_train.py"
J("controlnet-sd15-lightning-1gpu",*CN,["."],".",[cnt],{
 "model.ref":T("./models/control_sd15_ini.ckpt",cnt+":11,21 resume_path loaded into the model built from ./models/cldm_v15.yaml (:20; the checkpoint is made by tool_add_control.py from SD 1.5, docs/train.md:132)",any_of=["./models/control_sd15_ini.ckpt","models/control_sd15_ini.ckpt"]),
 "dist.world_size":T(1,cnt+":31 pl.Trainer(gpus=1)"),
 "dist.devices_per_node":T(1,cnt+":31 gpus=1"),
 "dist.sharding":T("none",cnt+":31 one GPU, no strategy"),
 "batch.micro":T(4,cnt+":12 batch_size = 4 -> :29 DataLoader(batch_size=batch_size)"),
 "batch.grad_accum":T(1,cnt+":31 no accumulate_grad_batches (Lightning default 1)"),
 "precision.mode":T("fp32",cnt+":31 precision=32"),
 "memory.gradient_checkpointing":T(True,"models/cldm_v15.yaml:35,52 use_checkpoint: True (ControlNet and the locked UNet) -> ldm/modules/diffusionmodules/openaimodel.py:249 ResBlock and ldm/modules/attention.py:269 BasicTransformerBlock -> ldm/modules/diffusionmodules/util.py:112-114 CheckpointFunction"),
 "optimizer.name":T("AdamW","cldm/cldm.py:422 torch.optim.AdamW in configure_optimizers",any_of=["AdamW","adamw"]),
 "data.num_workers":T(0,cnt+":29 num_workers=0"),
 "data.pin_memory":T(False,cnt+":29 DataLoader without pin_memory (default False)"),
 "compile.enabled":T(False,"no torch.compile in the repository"),
 "peft.method":T("none","cldm/cldm.py:416-422 full training of the ControlNet copy (control_model); sd_locked True ("+cnt+":15) freezes the SD UNet, no adapter"),
},held_out=True,note=H12+"; python tutorial_train.py from the repository root (docs/train.md:148-184; PyTorch Lightning with everything literal in the script, model from an OmegaConf YAML with _target_-style 'target' keys). Not labelled: model size (SD 1.5 UNet + ControlNet copy + VAE + CLIP text encoder from the YAML; not computed by hand), image size (the fill50k images, data not in the repository)")
KS=("kohya-ss/sd-scripts","48d368fa557731ad0488c07304dfeba8c07910eb")
ksd="docs/train_network.md"
J("sd-scripts-lora-sd15-accelerate",*KS,["."],".",
 ["--","accelerate","launch","--num_cpu_threads_per_process","1","train_network.py",
  "--pretrained_model_name_or_path=stable-diffusion-v1-5/stable-diffusion-v1-5","--dataset_config=my_dataset_config.toml",
  "--output_dir=output","--output_name=my_lora","--save_model_as=safetensors","--network_module=networks.lora",
  "--network_dim=16","--network_alpha=1","--learning_rate=1e-4","--optimizer_type=AdamW8bit","--lr_scheduler=constant",
  "--sdpa","--max_train_epochs=10","--save_every_n_epochs=1","--mixed_precision=fp16","--gradient_checkpointing"],{
 "model.ref":T("stable-diffusion-v1-5/stable-diffusion-v1-5",ksd+":74 --pretrained_model_name_or_path (placeholder filled by the user)"),
 "peft.method":T("lora",ksd+":79 --network_module=networks.lora (the project's own LoRA module, networks/lora.py)"),
 "peft.rank":T(16,ksd+":80 --network_dim=16"),
 "task.mode":T("lora","LoRA on a frozen fp16 base (no quantisation)"),
 "optimizer.name":T("AdamW8bit",ksd+":83 --optimizer_type=AdamW8bit -> library/train_util.py:4896-4898 bnb.optim.AdamW8bit",any_of=["AdamW8bit","adamw8bit","adamw_8bit","adamw_bnb_8bit"]),
 "memory.gradient_checkpointing":T(True,ksd+":89 --gradient_checkpointing -> train_network.py:901"),
 "precision.mode":T("amp_fp16",ksd+":88 --mixed_precision=fp16 -> library/train_util.py:5507-5510 weight_dtype fp16 for the frozen U-Net/text encoder, train_network.py:286 accelerator.autocast(); the LoRA network stays fp32 (no --full_fp16, :814-819)"),
 "batch.grad_accum":T(1,"library/train_util.py:3975-3977 --gradient_accumulation_steps default 1, not given"),
 "model.attn_implementation":T("sdpa",ksd+":85 --sdpa -> train_network.py:183 replace_unet_modules(..., args.sdpa)"),
 "compile.enabled":T(False,"library/train_util.py:3914 --torch_compile absent"),
},held_out=True,note=H12+"; "+ksd+":73-89 accelerate launch --num_cpu_threads_per_process 1 train_network.py ... (placeholders filled; Accelerate, kohya's own LoRA for SD 1.5). Not labelled: micro batch and resolution (in the user's my_dataset_config.toml, not in the repository), world size and sharding (accelerate launch with no config file or --num_processes: the user's default accelerate config decides), workers (min(--max_data_loader_n_workers 8, os.cpu_count()) at run time)")
FG=("AI4Finance-Foundation/FinGPT","ec315843886de0906692782090127d37f5400d60")
fgd="fingpt/FinGPT_Forecaster"
J("fingpt-forecaster-llama2-deepspeed-lora",*FG,[fgd],fgd,["train.sh"],{
 "model.ref":T("meta-llama/Llama-2-7b-chat-hf","train.sh:10 --base_model llama2 -> train_lora.py:84 parse_model_name -> utils.py:51-52"),
 "dist.world_size":T(2,"train.sh:6-7 deepspeed --include localhost:2,3 (two GPUs of one host)"),
 "dist.nodes":T(1,"train.sh:7 localhost only"),
 "dist.devices_per_node":T(2,"train.sh:7 localhost:2,3"),
 "dist.sharding":T("ddp","config.json:30-32 zero_optimization stage 0 (train.sh:21 --ds_config config.json -> train_lora.py:141): data parallel"),
 "batch.micro":T(1,"train.sh:13 --batch_size 1 -> train_lora.py:130 per_device_train_batch_size"),
 "batch.grad_accum":T(16,"train.sh:14 -> train_lora.py:132"),
 "data.seq_len":T(4096,"train.sh:12 --max_length 4096 -> utils.py:21-32 truncation, and examples reaching it dropped (train_lora.py:117)"),
 "precision.mode":T("fp16","config.json:27-29 fp16 enabled + train_lora.py:140 fp16=True: DeepSpeed fp16 (16-bit weights, fp32 master copies)"),
 "memory.gradient_checkpointing":T(True,"train_lora.py:148 model.gradient_checkpointing_enable()"),
 "optimizer.name":T("ZeroOneAdam","config.json:5-6 DeepSpeed optimizer ZeroOneAdam",any_of=["ZeroOneAdam","zerooneadam"]),
 "peft.method":T("lora","train_lora.py:157-166 LoraConfig + get_peft_model"),
 "peft.rank":T(8,"train_lora.py:160 r=8"),
 "task.mode":T("lora","fp16 base, no quantisation (train_lora.py:89 load_in_8bit commented out)"),
 "data.num_workers":T(8,"train_lora.py:210 --num_workers default 8, not given -> :133 dataloader_num_workers"),
 "compile.enabled":T(False,"train_lora.py:187-188 model = torch.compile(model) rebinds the local name AFTER Trainer(model=model) at :169; trainer.train() (:191) runs the uncompiled module"),
},held_out=True,note=H12+"; bash train.sh from "+fgd+" (bare deepspeed launcher with --include, HF Trainer + DeepSpeed JSON with auto values, PEFT LoRA). Model size needs the hub config (Llama-2-7b-chat-hf)")
S1=("simplescaling/s1","77272c6e925d610257a50b520bad15330b513389")
s1s="train/sft.sh"
J("s1-qwen2.5-32b-sft-torchrun-fsdp",*S1,["train","README.md","requirements.txt"],".",[s1s],{
 "model.ref":T("Qwen/Qwen2.5-32B-Instruct",s1s+":4,23 --model_name -> train/sft.py:41 from_pretrained"),
 "dist.nodes":T(1,s1s+":15 single-node torchrun (no --nnodes)"),
 "dist.sharding":T("fsdp_full",s1s+":25 --fsdp=\"full_shard auto_wrap\""),
 "batch.micro":T(1,s1s+":9,18"),
 "batch.grad_accum":T(1,s1s+":10,20"),
 "data.seq_len":T(32768,s1s+":17 --block_size=32768 -> train/sft.py:68 args.max_seq_length"),
 "precision.mode":T("amp_bf16",s1s+":27 --bf16=True under FSDP; train/sft.py:41 loads the model without torch_dtype (fp32 weights, transformers 4.46.1 requirements.txt:5): FSDP mixed precision bf16"),
 "memory.gradient_checkpointing":T(False,s1s+":39 --gradient_checkpointing commented out; SFTConfig default False (trl 0.12.0, requirements.txt:13)"),
 "optimizer.name":T("adamw_torch","TrainingArguments optim default (transformers 4.46.1), not given",any_of=["adamw_torch","adamw_torch_fused","AdamW","adamw"]),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0, not given"),
 "peft.method":T("none","full fine-tuning (train/sft.py:41,69 no PEFT config)"),
},held_out=True,note=H12+"; bash train/sft.sh from the repository root (README.md:216; torchrun + TRL SFTTrainer parsed by HfArgumentParser((TrainingConfig, trl.SFTConfig)), FSDP with a JSON fsdp_config). World size not labelled: --nproc-per-node $(nvidia-smi -L | wc -l) at :12 is runtime; model size needs the hub config; attention implementation depends on the installed torch (sdpa when available)")
OF=("mlfoundations/open_flamingo","655f693fbfa04cd6e9a987d960654624d48917cf")
oft="open_flamingo/train/train.py"
ofs="open_flamingo/scripts/run_train.sh"
of_common={
 "model.ref":T("anas-awadalla/mpt-1b-redpajama-200b","--lm_path -> "+oft+":260-264 create_model_and_transforms (ViT-L-14 vision encoder, :54-55 defaults)"),
 "dist.nodes":T(1,"one node"),
 "dist.sharding":T("ddp",oft+":312,364-366 no --fsdp -> DDP(model)"),
 "batch.micro":T(32,"--batch_size_mmc4 32 and --batch_size_laion 64: each step takes one batch of each (open_flamingo/train/train_utils.py:95-171); mmc4's sets the step count ("+oft+":425-427)",any_of=[32,64]),
 "batch.grad_accum":T(1,oft+":90 --gradient_accumulation_steps default 1, not given"),
 "data.seq_len":T(256,"open_flamingo/train/data.py:76,145 mmc4 max_tokens 256 (padding max_length, :119-121); LAION captions 32 (:56)",any_of=[256,32]),
 "precision.mode":T("fp32",oft+":103-108 --precision default fp32, not given -> train_utils.py:34-43 get_autocast returns suppress"),
 "optimizer.name":T("AdamW",oft+":406-414 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,"--workers=4 -> open_flamingo/train/data.py:361,463 wds.WebLoader(num_workers=args.workers)"),
 "data.image_size":T(224,oft+":54-55 ViT-L-14 openai -> open_clip's 224x224 preprocessing (open_flamingo/src/factory.py:42)"),
 "compile.enabled":T(False,"no torch.compile in the repository"),
}
J("open-flamingo-3b-torchrun-ddp",*OF,["."],".",
 ["--","torchrun","--nnodes=1","--nproc_per_node=4",oft,"--lm_path","anas-awadalla/mpt-1b-redpajama-200b",
  "--tokenizer_path","anas-awadalla/mpt-1b-redpajama-200b","--cross_attn_every_n_layers","1","--dataset_resampled",
  "--batch_size_mmc4","32","--batch_size_laion","64","--train_num_samples_mmc4","125000","--train_num_samples_laion","250000",
  "--loss_multiplier_laion","0.2","--workers=4","--run_name","OpenFlamingo-3B-vitl-mpt1b","--num_epochs","480",
  "--warmup_steps","1875","--mmc4_textsim_threshold","0.24","--laion_shards","/path/to/shards/shard-{0000..0999}.tar",
  "--mmc4_shards","/path/to/shards/shard-{0000..0999}.tar","--report_to_wandb"],{
 **of_common,
 "dist.world_size":T(4,"README.md:202 torchrun --nnodes=1 --nproc_per_node=4"),
 "dist.devices_per_node":T(4,"README.md:202"),
 "memory.gradient_checkpointing":T(False,oft+":109-113 --gradient_checkpointing absent from README.md:202-219"),
},held_out=True,note=H12+"; README.md:202-219 torchrun ... open_flamingo/train/train.py from the repository root (raw DDP loop over two webdataset loaders, argparse)")
J("open-flamingo-3b-sbatch-srun",*OF,["."],".",[ofs],{
 **of_common,
 "dist.world_size":T(8,ofs+":2-4 --nodes 1, --ntasks-per-node=8, one GPU per task -> :14 srun python -> open_flamingo/train/distributed.py:64-68 SLURM_NTASKS"),
 "dist.devices_per_node":T(8,ofs+":3-4"),
 "memory.gradient_checkpointing":T(True,ofs+":31 --gradient_checkpointing -> "+oft+":369-381 apply_activation_checkpointing"),
},held_out=True,note=H12+"; sbatch open_flamingo/scripts/run_train.sh (srun python, one process per GPU; the script names open_flamingo/open_flamingo/train/train.py, a path from the clone's parent directory, and sets PYTHONPATH=open_flamingo: the job is audited from the repository root as the harness runs every job)")
VR=("FoundationVision/VAR","78b95394fc5896192e3a003e4b295f8ea743c48f")
vra="utils/arg_util.py"
J("var-d16-imagenet-torchrun",*VR,["."],".",
 ["--","torchrun","--nproc_per_node=8","--nnodes=1","--node_rank=0","--master_addr=127.0.0.1","--master_port=29500","train.py",
  "--depth=16","--bs=768","--ep=200","--fp16=1","--alng=1e-3","--wpe=0.1","--data_path=/data/imagenet"],{
 "model.num_parameters":T(310000000,"README.md:91 VAR-d16 310M (--depth=16 -> train.py:85-88 build_vae_var; the frozen VQVAE not counted)",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:133 --nproc_per_node=8 (--nnodes filled with 1)"),
 "dist.nodes":T(1,"--nnodes=1 (README.md:133 placeholder filled)"),
 "dist.devices_per_node":T(8,"README.md:133"),
 "dist.sharding":T("ddp","train.py:102 DDP(var_wo_ddp)"),
 "batch.micro":T(96,"README.md:134 --bs=768 is the GLOBAL batch ("+vra+":48) -> "+vra+":255-256 round(768 / ac 1 / 8 GPUs) = 96 per GPU -> train.py:54-59 DistInfiniteBatchSampler"),
 "batch.global":T(768,vra+":257 glb_batch_size = 96 x 8"),
 "batch.grad_accum":T(1,vra+":51 ac default 1, not given"),
 "precision.mode":T("amp_fp16","README.md:134 --fp16=1 -> train.py:124-125 AmpOptimizer(mixed_precision=1) -> utils/amp_sc.py:23-27 autocast fp16 + GradScaler"),
 "compile.enabled":T(False,vra+":30,32 vfast/tfast 0 -> :139-141 compile_model returns the module (train.py:100-101)"),
 "optimizer.name":T("AdamW",vra+":59 opt adamw -> train.py:117-119 torch.optim.AdamW(fused=True)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(0,vra+":76 workers default 0 -> :258 min(max(0, 0), 96) = 0 -> train.py:55"),
 "data.pin_memory":T(True,"train.py:55"),
 "data.image_size":T(256,vra+":68-69 pn 1_2_..._16 x patch_size 16 -> :250-252 data_load_reso 256"),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in models/"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H12+"; README.md:133-134 torchrun ... train.py --depth=16 --bs=768 ... (placeholders filled for one node; --data_path is required, "+vra+":223-224); raw DDP loop with a typed-argument-parser (tap) Args class. Attention not labelled: flash_attn_func when flash-attn is installed, else SDPA (models/basic_var.py:23-25,81)")
DP=("real-stanford/diffusion_policy","5ba07ac6661db573af695b419a7947ecb704690f")
dpy="image_pusht_diffusion_policy_cnn.yaml"
dpw="diffusion_policy/workspace/train_diffusion_unet_hybrid_workspace.py"
J("diffusion-policy-pusht-image-hydra",*DP,["train.py",dpy,"diffusion_policy","README.md","setup.py","conda_environment.yaml"],".",
 ["train.py","--","--config-dir=.","--config-name="+dpy,"training.seed=42","training.device=cuda:0",
  "hydra.run.dir=data/outputs/${now:%Y.%m.%d}/${now:%H.%M.%S}_${name}_${task_name}"],{
 "dist.world_size":T(1,dpy+":163 training.device cuda:0 (README.md:136) -> "+dpw+":132-133 one device, no DDP"),
 "dist.sharding":T("none","one process, no wrapper ("+dpw+":132-136)"),
 "batch.micro":T(64,dpy+":11 dataloader.batch_size -> "+dpw+":75 DataLoader(dataset, **cfg.dataloader)"),
 "batch.grad_accum":T(1,dpy+":164 gradient_accumulate_every 1 -> "+dpw+":171"),
 "precision.mode":T("fp32","no autocast or half cast in "+dpw+" or the policy: fp32"),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in diffusion_policy/model/"),
 "optimizer.name":T("AdamW",dpy+":46-47 optimizer._target_ torch.optim.AdamW -> "+dpw+":54-55 hydra.utils.instantiate",any_of=["AdamW","adamw"]),
 "data.num_workers":T(8,dpy+":12"),
 "data.pin_memory":T(True,dpy+":14"),
 "data.image_size":T(96,dpy+":93-97 obs image 3x96x96 (random crop to 84x84 inside the policy, :58-60)",any_of=[96,84]),
 "compile.enabled":T(False,"no torch.compile in the repository"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H12+"; README.md:136 python train.py --config-dir=. --config-name=image_pusht_diffusion_policy_cnn.yaml with overrides (Hydra, a workspace class named by the config's _target_, raw loop). Model size not labelled (ConditionalUnet1D 512/1024/2048 + a ResNet-18 observation encoder with GroupNorm, not computed by hand)")
SA=("Stability-AI/stable-audio-tools","50049e379e2fe8e35bffc99e57f23ade1c3471b7")
sac="stable_audio_tools/configs/model_configs/autoencoders/stable_audio_2_0_vae.json"
J("stable-audio-vae-lightning",*SA,["."],".",
 ["train.py","--","--dataset-config","stable_audio_tools/configs/dataset_configs/local_training_example.json",
  "--model-config",sac,"--name","harmonai_train"],{
 "dist.nodes":T(1,"defaults.ini:21 num_nodes 1 -> train.py:151"),
 "batch.micro":T(4,"defaults.ini:11 batch_size 4 (prefigure defaults, not given) -> train.py:44 -> stable_audio_tools/data/dataset.py:852 DataLoader(train_set, batch_size)"),
 "batch.grad_accum":T(1,"defaults.ini:36 accum_batches 1 -> train.py:154"),
 "precision.mode":T("amp_fp16","defaults.ini:27 precision 16-mixed -> train.py:153 pl.Trainer(precision=...)"),
 "memory.gradient_checkpointing":T(True,sac+":9 oobleck encoder/decoder -> stable_audio_tools/models/autoencoders.py:233-240 ResidualUnit, whose forward checkpoints its layers whenever training (:77-79 torch.utils.checkpoint)"),
 "optimizer.name":T("AdamW",sac+":43-44 (and :62 for the discriminator) optimizer type AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(6,"defaults.ini:30 -> train.py:45 -> stable_audio_tools/data/dataset.py:853"),
 "data.pin_memory":T(True,"stable_audio_tools/data/dataset.py:853 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile in the training path (stable_audio_tools/models/blocks.py:295 commented out)"),
 "peft.method":T("none","autoencoder trained from scratch"),
},held_out=True,note=H12+"; README.md:66 python3 ./train.py --dataset-config ... --model-config ... --name harmonai_train with the repository's own example configs (PyTorch Lightning, prefigure: defaults.ini + argparse, JSON model config, manual optimisation of a VAE-GAN). Not labelled: world size and sharding (pl.Trainer(devices=\"auto\") with strategy \"auto\" from defaults.ini:24: every visible GPU, decided at run time), model size (oobleck VAE + discriminator, not computed by hand), audio lengths")

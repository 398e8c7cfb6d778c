"""The twenty-second held-out set of the jobs benchmark (run.py --set held-out-22): expert truth
written by hand, one J(...) per job."""
from .core import J, T

H22="twenty-second held-out set"
REPA=("sihyun-yu/REPA","67f714503e3892f993844aab088ffc5791c92613")
J("repa-sit-xl2-imagenet256-accelerate",*REPA,["."],".",["--","accelerate","launch","train.py","--report-to=wandb","--allow-tf32",
 "--mixed-precision=fp16","--seed=0","--path-type=linear","--prediction=v","--weighting=uniform","--model=SiT-XL/2",
 "--enc-type=dinov2-vit-b","--proj-coeff=0.5","--encoder-depth=8","--output-dir=exps","--exp-name=linear-dinov2-b-enc8",
 "--data-dir=data/imagenet256"],{
 "model.num_parameters":T(683000000,"train.py:165 SiT_models[args.model] -> models/sit.py:349-350 SiT-XL/2 depth 28, hidden 1152, patch 2 (the DiT/SiT-XL/2 backbone, 675M) + models/sit.py:16-23,206-208 one projector MLP 1152->2048->2048->768 for the dinov2-vit-b target (8.1M): about 683M (the frozen DINOv2 encoder and SD VAE not trained)",rel_tol=0.1),
 "batch.global":T(256,"train.py:407 --batch-size default 256 -> :214 divided by accelerator.num_processes into the per-process loader batch"),
 "batch.grad_accum":T(1,"train.py:417 --gradient-accumulation-steps default 1 -> :128"),
 "data.image_size":T(256,"train.py:406 --resolution default 256 (latents 32x32, :155)"),
 "precision.mode":T("amp_fp16","README.md:44 --mixed-precision=fp16 -> train.py:129 Accelerator(mixed_precision) autocast fp16 + GradScaler over fp32 weights"),
 "optimizer.name":T("AdamW","train.py:204 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,"train.py:429 --num-workers default 4 -> :219"),
 "data.pin_memory":T(True,"train.py:220"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models/sit.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H22+"; README.md:41-56 accelerate launch train.py --report-to=wandb --allow-tf32 --mixed-precision=fp16 ... --model=SiT-XL/2 ... --data-dir=[YOUR_DATA_PATH] with the data path filled (argparse, the model a key into a dict of constructors sized by name plus projector heads sized by the frozen encoder's width, a global batch divided by the process count in code; representation-aligned latent diffusion, vision). Not labelled: world size and per-process batch (accelerate launch with no config file and no --num_processes: the machine's default accelerate config decides)")
VOC=("gemelo-ai/vocos","c859e3b7b534f3776a357983029d34170ddd6fc3")
voy="configs/vocos.yaml"
J("vocos-mel-24khz-lightning-cli-1gpu",*VOC,["."],".",["train.py","--","-c",voy],{
 "model.num_parameters":T(13500000,"README.md:87 vocos-mel-24khz 13.5M: "+voy+":21-60 class_path/init_args of the LightningCLI (MelSpectrogramFeatures, VocosBackbone dim 512, intermediate 1536, 8 ConvNeXt layers, ISTFTHead n_fft 1024); the generator only, the discriminators (vocos/experiment.py) not counted",rel_tol=0.1),
 "dist.world_size":T(1,voy+":86 trainer.devices [0] (one GPU)"),
 "dist.nodes":T(1,"no num_nodes"),
 "dist.sharding":T("ddp",voy+":85 strategy ddp (PL 1.8.6 DDPStrategy over the one device)",any_of=["ddp","none"]),
 "batch.micro":T(16,voy+":11 train_params.batch_size -> vocos/dataset.py:29-30"),
 "batch.grad_accum":T(1,"no accumulate_grad_batches"),
 "batch.global":T(16,"16 x 1 x 1"),
 "precision.mode":T("fp32","no trainer.precision (PL 1.8.6 default 32)"),
 "optimizer.name":T("AdamW","vocos/experiment.py:81-82 torch.optim.AdamW for generator and discriminators",any_of=["AdamW","adamw"]),
 "data.num_workers":T(8,voy+":12 -> vocos/dataset.py:30"),
 "data.pin_memory":T(True,"vocos/dataset.py:30"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in vocos/models.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H22+"; README.md:99-103 python train.py -c configs/vocos.yaml (train.py is a bare LightningCLI(run=False) then trainer.fit; the data module, the model, its feature extractor, backbone and head all class_path/init_args in the YAML, the filelist paths left ??? for the user; a GAN neural vocoder with two optimizers, speech). Not labelled: audio segment length (num_samples 16384 samples, "+voy+":10)")
ODL=("PrimeIntellect-ai/OpenDiloco","a5b7236b269da58276c819098015169d24c3e6d9")
odt="open_diloco/train_fsdp.py"
J("opendiloco-llama-1b-fsdp-hybrid-zero2-torchrun-8gpu",*ODL,["."],"open_diloco",["--","torchrun","--nproc_per_node=8","train_fsdp.py",
 "--sharding-strategy","_HYBRID_SHARD_ZERO2","--per-device-train-batch-size","16","--total-batch-size","8192","--precision","bf16-mixed",
 "--total-steps","88_000","--project","OpenDiLoCo","--lr","4e-4","--path_model","PrimeIntellect/llama-1b-fresh","--ckpt.path","1b_ckpt","--ckpt.interval","500"],{
 "model.ref":T("PrimeIntellect/llama-1b-fresh","README.md:184 --path_model -> "+odt+":105 Config.path_model (pydantic_config BaseConfig) -> :173-174 LlamaForCausalLM.from_pretrained"),
 "dist.world_size":T(8,"README.md:175 torchrun --nproc_per_node=8"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("fsdp_grad_op","README.md:177 --sharding-strategy _HYBRID_SHARD_ZERO2 -> "+odt+":229-244 FSDP with a (1 node x 8) device mesh: gradients and optimizer state sharded over the 8 GPUs of the node, parameters gathered (ZeRO-2 within the node, replicated across nodes; with one node a SHARD_GRAD_OP)",any_of=["fsdp_grad_op","fsdp_hybrid","zero2"]),
 "batch.micro":T(16,"README.md:178 --per-device-train-batch-size 16 -> "+odt+":166"),
 "batch.grad_accum":T(64,odt+":186-190 total 8192 // world 8 = 1024 per GPU, 1024 // 16 = 64 accumulation steps"),
 "batch.global":T(8192,"README.md:179 --total-batch-size 8192 ("+odt+":185 the total for all GPUs)"),
 "data.seq_len":T(1024,odt+":110 seq_length default 1024 -> :142 tokenizer max_length"),
 "precision.mode":T("amp_bf16","README.md:180 --precision bf16-mixed -> "+odt+":228-242 FSDP MixedPrecision(param_dtype bf16) over fp32 weights (no GradScaler for bf16)"),
 "optimizer.name":T("AdamW",odt+":250 torch.optim.AdamW (betas 0.9, 0.95)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,odt+":112 num_workers default 4 -> :167"),
 "data.pin_memory":T(False,odt+":163-168 StatefulDataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no gradient checkpointing in open_diloco/"),
 "compile.enabled":T(True,odt+":106 torch_compile default True -> :246-247 torch.compile(model)"),
 "model.attn_implementation":T("sdpa",odt+":107 attn_implementation default sdpa -> :173"),
 "peft.method":T("none","pretraining from a fresh initialisation"),
},held_out=True,note=H22+"; README.md:173-187 cd open_diloco; torchrun --nproc_per_node=8 train_fsdp.py --sharding-strategy _HYBRID_SHARD_ZERO2 --per-device-train-batch-size 16 --total-batch-size 8192 --precision bf16-mixed ... --path_model PrimeIntellect/llama-1b-fresh (a pydantic_config BaseConfig read from kebab-case and dotted flags, a total batch divided by the world size and the per-device batch into accumulation steps in code, FSDP with a private hybrid ZeRO-2 strategy over a 2-D device mesh, torch.compile on by default; LLM pretraining, the 1B DiLoCo baseline). Not labelled: model size (a Hub config, about 1.1B)")
LDT=("hustvl/LightningDiT","2725fed42a14898744433809949834e26957bcdd")
ldc="configs/lightningdit_xl_vavae_f16d32.yaml"
J("lightningdit-xl1-vavae-imagenet256-accelerate-script-8gpu",*LDT,["."],".",["run_train.sh","--",ldc],{
 "model.ref":T("LightningDiT-XL/1",ldc+":31 model_type -> train.py:78 LightningDiT_models[...] -> models/lightningdit.py:498-499",any_of=["LightningDiT-XL/1","LightningDiT_XL_1"]),
 "model.num_parameters":T(675000000,"models/lightningdit.py:498-499 depth 28, hidden 1152, patch 1, 16 heads with "+ldc+":33-37 SwiGLU (hidden 2/3 x 4608, the same 10.6M as the GELU MLP, models/lightningdit.py:213-217), RMSNorm, RoPE, 32 latent channels: 28 x 23.9M blocks + embeddings and final layer, the DiT-XL size of 675M",rel_tol=0.1),
 "dist.world_size":T(8,"run_train.sh:4,5,16 GPUS_PER_NODE default 8 x NNODES default 1 -> accelerate launch --num_processes 8"),
 "dist.nodes":T(1,"run_train.sh:5 NNODES=${WORLD_SIZE:-1} -> --num_machines 1"),
 "dist.devices_per_node":T(8,"run_train.sh:4"),
 "dist.sharding":T("ddp","train.py:35,162 plain Accelerator (no DeepSpeed/FSDP plugin): DDP"),
 "batch.micro":T(128,ldc+":42 global_batch_size 1024 -> train.py:126 round(1024 / 8 processes) = 128 per GPU -> :128-130"),
 "batch.grad_accum":T(1,"train.py:192-212 one optimizer step per batch"),
 "batch.global":T(1024,ldc+":42 global_batch_size (train.py:127 128 x 8)"),
 "data.image_size":T(256,ldc+":18 image_size 256 (the model sees 16x16x32 VA-VAE latents, train.py:76)"),
 "precision.mode":T("amp_bf16","run_train.sh:3,18 PRECISION default bf16 -> accelerate launch --mixed_precision bf16: autocast over fp32 weights"),
 "optimizer.name":T("AdamW","train.py:118 torch.optim.AdamW (beta2 0.95 from "+ldc+":51)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(8,ldc+":20 -> train.py:132"),
 "data.pin_memory":T(True,"train.py:133"),
 "memory.gradient_checkpointing":T(False,ldc+":30-37 no use_checkpoint in the model section -> train.py:87 False (train.py:188's use_checkpoint only logs)"),
 "compile.enabled":T(False,"no torch.compile in train.py"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H22+"; docs/tutorial.md:28 bash run_train.sh configs/lightningdit_xl_vavae_f16d32.yaml (a launch script whose GPU and node counts and precision are shell defaults, accelerate launch --num_processes $((GPUS_PER_NODE*NNODES)) --mixed_precision $PRECISION; a YAML read as a plain dict, the model a key into a dict of constructors, the per-GPU batch the rounded global batch over the process count; latent diffusion on pre-extracted VA-VAE latents, vision)")
DION=("microsoft/dion","0a059a4542e5aa74b40dcd1dce363836c7afcd48")
dnc="configs/dion2_160m.yaml"
J("dion2-gpt-160m-fineweb-torchrun-ddp-4gpu",*DION,["."],".",["--","torchrun","--standalone","--nproc_per_node=4","train.py","--config",dnc],{
 "model.num_parameters":T(162000000,dnc+":3-6 model_dim 768, n_layer 12, n_head 6 -> train.py:788-794 GPTConfig + the project's GPT (models/gpt_model.py: bias-free q/k/v/o and a 4x MLP, 7.08M a layer, untied 50304-token embedding and lm_head, 38.6M each): 85M + 77M = 162M",rel_tol=0.1),
 "dist.world_size":T(4,"README.md:82 torchrun --standalone --nproc_per_node=4"),
 "dist.nodes":T(1,"--standalone"),
 "dist.sharding":T("ddp",dnc+":32-33 dp_size and fs_size null (no --tp_size) -> train.py:255-278 init_distributed: no device mesh -> :823 DistributedDataParallel"),
 "batch.micro":T(32,dnc+":10 device_batch_size"),
 "batch.grad_accum":T(8,dnc+":9 batch_size 1024 -> train.py:744-746 1024 // (32 x 4 data-parallel ranks) = 8"),
 "batch.global":T(1024,dnc+":9 batch_size (global, in sequences)"),
 "data.seq_len":T(1024,dnc+":6 sequence_length"),
 "precision.mode":T("amp_bf16","train.py:949,1016-1017 torch.amp.autocast(bfloat16) over fp32 weights (model.to_empty + init_weights in fp32, :813-814)"),
 "optimizer.name":T("Dion2",dnc+":36 optimizer dion2 -> train.py:446-462 Dion2 for the matrices (scalar_opt adamw for the rest, :37)",any_of=["Dion2","dion2"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models/gpt_model.py"),
 "compile.enabled":T(True,dnc+":28 no_compile false -> train.py:815-816 model.compile()"),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H22+"; README.md:80-84 torchrun --standalone --nproc_per_node=4 train.py --config configs/dion2_160m.yaml (argparse whose defaults a dataclass holds and whose values a flat YAML overwrites with setattr, the model a project GPT sized from the YAML on the meta device, gradient accumulation computed from the global and per-device batches and the data-parallel mesh size; LLM pretraining with an orthonormal optimizer). Not labelled: data workers (a project DistributedDataLoader reading token shards, no torch DataLoader)")
DSS=("modelscope/DiffSynth-Studio","fed7b18fac2ed4cb802796eec91970e7659bccde")
dsd="examples/wanvideo/model_training/full/"
dst="examples/wanvideo/model_training/train.py"
dsa=dsd+"accelerate_config_14B.yaml"
J("diffsynth-wan21-t2v-14b-full-accelerate-zero2-offload-8gpu",*DSS,["."],".",[dsd+"Wan2.1-T2V-14B.sh"],{
 "model.ref":T("Wan-AI/Wan2.1-T2V-14B",dsd+"Wan2.1-T2V-14B.sh:9 --model_id_with_origin_paths Wan-AI/Wan2.1-T2V-14B:diffusion_pytorch_model*.safetensors,... -> "+dst+":39 WanVideoPipeline.from_pretrained",any_of=["Wan-AI/Wan2.1-T2V-14B","Wan2.1-T2V-14B"]),
 "dist.world_size":T(8,dsa+":16 num_processes 8"),
 "dist.nodes":T(1,dsa+":15 num_machines 1"),
 "dist.sharding":T("zero2",dsa+":8-9 distributed_type DEEPSPEED, zero_stage 2"),
 "dist.offload_optimizer":T("cpu",dsa+":5 offload_optimizer_device cpu"),
 "batch.micro":T(1,"diffsynth/diffusion/runner.py:67 DataLoader without batch_size (1 video a step, collate_fn x[0]); accelerate fills the DeepSpeed micro batch from it"),
 "batch.grad_accum":T(1,dsa+":4 gradient_accumulation_steps 1 (and diffsynth/diffusion/parsers.py:66 default 1)"),
 "batch.global":T(8,"1 x 1 x 8"),
 "precision.mode":T("bf16",dst+":39 pipeline loaded with torch_dtype bfloat16 + "+dsa+":14 mixed_precision bf16 under DeepSpeed (bf16 weights, fp32 master copies)"),
 "optimizer.name":T("AdamW","diffsynth/diffusion/runner.py:9-11,64-65 torch.optim.AdamW (no --customized_optimizer)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(0,"diffsynth/diffusion/parsers.py:8 --dataset_num_workers default 0 -> diffsynth/diffusion/runner.py:53,67"),
 "data.pin_memory":T(False,"diffsynth/diffusion/runner.py:67 DataLoader default"),
 "memory.gradient_checkpointing":T(True,dst+":31-33 checkpointing forced on whatever --use_gradient_checkpointing says (its default is False, parsers.py:64)"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none",dsd+"Wan2.1-T2V-14B.sh:14 --trainable_models dit, no --lora_base_model: full fine-tuning of the DiT"),
},held_out=True,note=H22+"; "+dsd+"Wan2.1-T2V-14B.sh (a modelscope download of the example data, then accelerate launch --config_file "+dsa+" "+dst+" --height 480 --width 832 --model_id_with_origin_paths ... --trainable_models dit; an accelerate DeepSpeed ZeRO-2 config with CPU optimizer offload, a project pipeline loading three checkpoint files by glob from the Hub, a loader of one video a step, checkpointing forced on in code; full fine-tuning of a 14B text-to-video diffusion transformer, video generation). Not labelled: model size (Hub checkpoints; the DiT is about 14B), frame size and count (480x832, 81 frames by default, diffsynth/diffusion/parsers.py:22; not square)")
SAL=("bytedance/SALMONN","a58bba799a2eec05df09df102553f5c623808c12")
slc="configs/config.yaml"
J("salmonn-13b-speech-llm-lora-yaml-1gpu",*SAL,["."],".",["train.py","--","--cfg-path",slc],{
 "model.ref":T("lmsys/vicuna-13b-v1.1","README.md:53 vicuna 13B v1.1 downloaded to llama_path ("+slc+":17 leaves the path a placeholder) -> models/salmonn.py:122-125 LlamaForCausalLM.from_pretrained",any_of=["lmsys/vicuna-13b-v1.1","vicuna-13b-v1.1","path to llama model"]),
 "dist.world_size":T(1,"README.md:54 python3 train.py (no launcher): dist_utils.py:57-68 no RANK/WORLD_SIZE, so use_distributed becomes False, one GPU"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","dist_utils.py:67 use_distributed False -> runner.py:58 no DDP",any_of=["none"]),
 "batch.micro":T(8,slc+":67 batch_size_train -> utils.py:51-53"),
 "batch.grad_accum":T(1,slc+":66 accum_grad_iters -> runner.py:129"),
 "batch.global":T(8,"8 x 1 x 1"),
 "precision.mode":T("amp_fp16",slc+":73 amp True -> runner.py:71-73,121 torch.cuda.amp.autocast + GradScaler; the frozen LLM is loaded in float16 (models/salmonn.py:124), the Q-Former, projection and LoRA adapters train in fp32",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW","optims.py:137 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(8,slc+":69 -> utils.py:54"),
 "data.pin_memory":T(True,"utils.py:55"),
 "memory.gradient_checkpointing":T(False,"no gradient checkpointing in models/salmonn.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("lora",slc+":38 lora True -> models/salmonn.py:132-140 LoraConfig + get_peft_model on the LLM"),
 "peft.rank":T(8,slc+":39 lora_rank 8 -> models/salmonn.py:136"),
 "task.mode":T("lora","fp16 frozen base + LoRA",any_of=["lora"]),
},held_out=True,note=H22+"; README.md:47-54 (salmonn branch) python3 train.py --cfg-path configs/config.yaml (an OmegaConf YAML of model/datasets/run sections read by a project Config, paths to Whisper large-v2, BEATs and Vicuna-13B left as placeholders the README fills, a project Runner with an infinite iterator over the loader, DDP only when a launcher sets RANK; a speech and audio LLM: frozen Whisper and BEATs encoders, a window-level Q-Former and LoRA on Vicuna, speech). Not labelled: model size (a 13B LLM plus encoders, the trained part small), audio length (up to 30 s windows, not a sequence length)")
CAI=("hpcaitech/ColossalAI","4f9953be335ef371b3848719ddafe596c01ecd37")
cav="examples/images/vit/"
J("colossalai-vit-base-beans-gemini-script-4gpu",*CAI,[cav,"colossalai/booster","colossalai/nn","requirements","setup.py"],cav,["run_demo.sh"],{
 "model.ref":T("google/vit-base-patch16-224",cav+"run_demo.sh:5 MODEL -> :42 --model_name_or_path -> "+cav+"vit_train_demo.py:168 ViTForImageClassification.from_pretrained (new 3-label head)"),
 "dist.world_size":T(4,cav+"run_demo.sh:20,38-39 GPUNUM=4 -> colossalai run --nproc_per_node 4"),
 "dist.nodes":T(1,"colossalai run without --hostfile: one machine"),
 "dist.sharding":T("zero3",cav+"run_demo.sh:12 PLUGIN=gemini -> "+cav+"vit_train_demo.py:183-184 GeminiPlugin (static placement, shard_param_frac default 1.0: parameters, gradients and optimizer state sharded, colossalai/booster/plugin/gemini_plugin.py:390-391,449 'equal to zero-3'); the script's TP_SIZE 2 / PP_SIZE 2 are reset to 1 for any plugin but hybrid_parallel (vit_train_demo.py:153-155)",any_of=["zero3","fsdp_full"]),
 "dist.offload_optimizer":T("cpu",cav+"vit_train_demo.py:184 offload_optim_frac=1.0 (all optimizer states on CPU)"),
 "batch.micro":T(16,cav+"run_demo.sh:23 BS=16 -> --batch_size -> vit_train_demo.py:202-204 plugin.prepare_dataloader(batch_size) per data-parallel rank"),
 "batch.grad_accum":T(1,cav+"vit_train_demo.py:79-80 one optimizer step per batch"),
 "batch.global":T(64,"16 x 1 x 4"),
 "data.image_size":T(224,"google/vit-base-patch16-224 image processor ("+cav+"data.py BeansDataset)"),
 "precision.mode":T("fp16","colossalai/booster/plugin/gemini_plugin.py:454 GeminiPlugin precision default fp16: fp16 parameters with fp32 master copies and a loss scaler (initial_scale 2**5, vit_train_demo.py:184)",any_of=["fp16","amp_fp16"]),
 "optimizer.name":T("HybridAdam",cav+"vit_train_demo.py:208 colossalai.nn.optimizer.HybridAdam",any_of=["HybridAdam","AdamW","adamw"]),
 "data.num_workers":T(0,"colossalai/booster/plugin/gemini_plugin.py:591-599 prepare_dataloader num_workers default 0"),
 "data.pin_memory":T(False,"colossalai/booster/plugin/gemini_plugin.py:591-598 prepare_dataloader pin_memory default False"),
 "memory.gradient_checkpointing":T(True,cav+"args.py:47 --grad_checkpoint default True -> vit_train_demo.py:174-175 gradient_checkpointing_enable"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tuning"),
},held_out=True,note=H22+"; "+cav+"README.md:12 bash run_demo.sh (a launch script that pip installs requirements, sets shell variables and runs colossalai run --nproc_per_node 4 vit_train_demo.py --plugin gemini --batch_size 16 --tp_size 2 --pp_size 2 ...; a ColossalAI Booster whose plugin is chosen by name, Gemini chunked ZeRO-3 sharding with the optimizer offloaded, HybridAdam, tensor/pipeline sizes that the script sets but the code resets for this plugin; ViT fine-tuning on the beans dataset, vision)")
MBV=("NVlabs/MambaVision","7860a506b2eb844eaaae676f08461ce8c3c26f43")
mbt="mambavision/train.py"
J("mambavision-t-imagenet-torchrun-script-8gpu",*MBV,["mambavision","README.md","setup.py","requirements.txt"],"mambavision",["train.sh"],{
 "model.ref":T("mamba_vision_T","mambavision/train.sh:3 MODEL -> --model -> "+mbt+":427 timm create_model -> mambavision/models/mamba_vision.py:739 @register_model mamba_vision_T (depths [1,3,8,4], dim 80)"),
 "model.num_parameters":T(31800000,"README.md:307-312 MambaVision-T 31.8M (mambavision/models/mamba_vision.py:739-759)",rel_tol=0.1),
 "dist.world_size":T(8,"mambavision/train.sh:12 torchrun --nproc_per_node=8"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("ddp",mbt+":550 native DistributedDataParallel"),
 "batch.micro":T(256,"mambavision/train.sh:7 BS=256 -> --batch-size (per process, "+mbt+":626-629 timm create_loader with a distributed sampler)"),
 "batch.grad_accum":T(1,"no accumulation in "+mbt),
 "batch.global":T(2048,"256 x 8"),
 "data.image_size":T(224,"mambavision/train.sh:12 --input-size 3 224 224"),
 "precision.mode":T("amp_fp16","mambavision/train.sh:12 --amp -> "+mbt+":412-416 native AMP, :440-443 dtype float16 (no --bfloat) -> :496-497 autocast + NativeScaler"),
 "optimizer.name":T("adamw",mbt+":145 --opt default adamw (the script passes no --config, so configs/mambavision_tiny_1k.yaml's lamb is not read) -> :485 timm create_optimizer_v2",any_of=["adamw","AdamW"]),
 "data.num_workers":T(8,mbt+":304 --workers default 8 -> :648"),
 "data.pin_memory":T(False,mbt+":316 --pin-mem default False -> :651"),
 "memory.gradient_checkpointing":T(False,mbt+":140 --grad-checkpointing default False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch (--pretrained not given)"),
},held_out=True,note=H22+"; mambavision/train.sh (cd mambavision; bash train.sh: shell variables then torchrun --nproc_per_node=8 train.py --input-size 3 224 224 --model $MODEL --amp --batch-size $BS ...; a timm-derived train.py with ~150 argparse options and an optional YAML the script does not pass, the model a timm registry key registered by the project's models; hybrid Mamba-Transformer image classification, vision)")
D3R=("naver/dust3r","4c24a6ebf04809f2cfe59915e51779c8984aaa40")
d3t="dust3r/training.py"
J("dust3r-vitl-512-co3d-torchrun-4gpu",*D3R,["."],".",["--","torchrun","--nproc_per_node=4","train.py",
 "--train_dataset","1000 @ Co3d(split='train', ROOT='data/co3d_subset_processed', aug_crop=16, mask_bg='rand', resolution=[(512, 384), (512, 336), (512, 288), (512, 256), (512, 160)], transform=ColorJitter)",
 "--test_dataset","100 @ Co3d(split='test', ROOT='data/co3d_subset_processed', resolution=(512,384), seed=777)",
 "--model","AsymmetricCroCo3DStereo(pos_embed='RoPE100', patch_embed_cls='ManyAR_PatchEmbed', img_size=(512, 512), head_type='linear', output_mode='pts3d', depth_mode=('exp', -inf, inf), conf_mode=('exp', 1, inf), enc_embed_dim=1024, enc_depth=24, enc_num_heads=16, dec_embed_dim=768, dec_depth=12, dec_num_heads=12)",
 "--train_criterion","ConfLoss(Regr3D(L21, norm_mode='avg_dis'), alpha=0.2)",
 "--test_criterion","Regr3D_ScaleShiftInv(L21, gt_scale=True)",
 "--pretrained","checkpoints/dust3r_demo_224/checkpoint-best.pth",
 "--lr","0.0001","--min_lr","1e-06","--warmup_epochs","1","--epochs","10","--batch_size","4","--accum_iter","4",
 "--save_freq","1","--keep_freq","5","--eval_freq","1","--output_dir","checkpoints/dust3r_demo_512"],{
 "model.num_parameters":T(531000000,"README.md:330 --model string evaluated by "+d3t+":127 eval(args.model): a ViT-L encoder (enc_embed_dim 1024, depth 24: 302M) and two ViT-B decoders with cross-attention (dec_embed_dim 768, depth 12: 2 x 113M) plus embeddings and two linear heads; my count about 531M (the croco submodule holds the blocks)",rel_tol=0.1),
 "dist.world_size":T(4,"README.md:327 torchrun --nproc_per_node=4"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("ddp",d3t+":152-154 DistributedDataParallel"),
 "batch.micro":T(4,"README.md:334 --batch_size 4 (per GPU, "+d3t+":55-56)"),
 "batch.grad_accum":T(4,"README.md:334 --accum_iter 4 -> "+d3t+":278,307-310"),
 "batch.global":T(64,d3t+":144 eff_batch_size = 4 x 4 x 4 GPUs"),
 "precision.mode":T("fp32",d3t+":69 --amp default 0 (not given) -> :299 use_amp False"),
 "optimizer.name":T("AdamW",d3t+":159 torch.optim.AdamW (betas 0.9, 0.95)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(8,d3t+":74 --num_workers default 8 -> :121"),
 "data.pin_memory":T(True,d3t+":259 pin_mem=True"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in dust3r/"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full training from the 224 checkpoint"),
},held_out=True,note=H22+"; README.md:326-336 (demo step 2) torchrun --nproc_per_node=4 train.py --train_dataset \"1000 @ Co3d(...)\" --model \"AsymmetricCroCo3DStereo(... enc_embed_dim=1024, enc_depth=24 ...)\" ... --batch_size 4 --accum_iter 4 (argparse whose model, datasets and losses are Python expressions evaluated with eval, the model's blocks in a git submodule not in the snapshot; 3D reconstruction from image pairs, vision). Not labelled: image size (five 512-wide aspect-ratio crops, not one square size)")
TZT=("MAOJIASONG/TinyZero-TRL","dd318ba1f4080a35dbd5ef0c1ebd182e4a55981a")
tzm="recipes/math/grpo-deepscaler.yaml"
tza="recipes/accelerate_configs/zero1.yaml"
J("tinyzero-trl-qwen25-1.5b-deepscaler-grpo-hydra-zero1-script",*TZT,["."],".",["scripts/math.sh"],{
 "model.ref":T("models/Qwen2.5-1.5B",tzm+":6 model_name_or_path (a local copy of Qwen2.5-1.5B; Hydra config group math chosen by +math=grpo-deepscaler in scripts/math.sh:8) -> src/tinyzero_trl/grpo.py:94-96 HfArgumentParser.parse_dict -> src/tinyzero_trl/utils/model_utils.py:141 the name handed to GRPOTrainer",any_of=["models/Qwen2.5-1.5B","Qwen/Qwen2.5-1.5B","Qwen2.5-1.5B"]),
 "dist.world_size":T(1,"scripts/math.sh:5 --num_processes=1 overrides "+tza+":14 num_processes 4 (CUDA_VISIBLE_DEVICES 0-3, scripts/math.sh:1; vLLM generation on another GPU, "+tzm+":41-42 vllm_device auto)"),
 "dist.nodes":T(1,tza+":13 num_machines 1"),
 "dist.sharding":T("zero1",tza+":3-8 distributed_type DEEPSPEED, zero_stage 1 (over one process)",any_of=["zero1","none"]),
 "dist.offload_optimizer":T("none",tza+":5"),
 "batch.micro":T(4,tzm+":27 per_device_train_batch_size (completions per GPU in the pinned TRL GRPOConfig)"),
 "batch.grad_accum":T(4,tzm+":28"),
 "batch.global":T(16,"4 x 4 x 1 completions (4 prompts x num_generations 4 per optimizer step)"),
 "precision.mode":T("bf16",tzm+":8 torch_dtype bfloat16 (src/tinyzero_trl/utils/model_utils.py:133 model_init_kwargs) + bf16 true under DeepSpeed with "+tza+":12 mixed_precision bf16 (bf16 weights, fp32 master copies)"),
 "optimizer.name":T("adamw_torch","transformers 4.49 (requirement.txt) TrainingArguments optim default adamw_torch; no optim in "+tzm,any_of=["adamw_torch","AdamW","adamw"]),
 "model.attn_implementation":T("flash_attention_2",tzm+":9 -> src/tinyzero_trl/utils/model_utils.py:135"),
 "memory.gradient_checkpointing":T(True,tzm+":29"),
 "data.num_workers":T(0,"no dataloader_num_workers (TrainingArguments default 0; preprocessing_num_workers 10 is for datasets.map)"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("none","no use_peft in "+tzm+" (ModelConfig default False), use_unsloth default False (src/tinyzero_trl/utils/script_utils.py:77-79)"),
},held_out=True,note=H22+"; scripts/math.sh (export CUDA_VISIBLE_DEVICES=0,1,2,3; ACCELERATE_LOG_LEVEL=info accelerate launch --main_process_port 29501 --num_processes=1 --config_file recipes/accelerate_configs/zero1.yaml src/tinyzero_trl/grpo.py --multirun +math=grpo-deepscaler: a @hydra.main entry point whose config group is added on the command line in multirun mode, the composed dict parsed by HfArgumentParser into a subclass of TRL's GRPOConfig and a ModelConfig, a project GRPOTrainer with vLLM generation, an accelerate DeepSpeed ZeRO-1 config whose process count the command line overrides; RL post-training). Not labelled: sequence length (prompt up to 1024 plus up to 8192 generated tokens, "+tzm+":37-38)")
BLM=("codebyzeb/BabyLM","dc4f13c1bdf94938d468f0926368dee048485cba")
blc="conf/config.yaml"
J("babylm-roberta-preln-small-hydra-sbatch-torchrun-4gpu",*BLM,["."],"scripts",["launch_slurm.wilkes3","--","experiment.name=baseline","experiment.group=baselines"],{
 "model.num_parameters":T(12816000,blc+":6 model roberta_pln_small -> conf/model/roberta_pln_small.yaml:1-13 (roberta_pre_layer_norm, hidden 256, 8 layers, 8 heads, intermediate 2048) + "+blc+":13 vocab_size 8192 -> src/models/__init__.py:25-34 CONFIG_REGISTRY/MODEL_REGISTRY -> src/models/roberta.py:24-26 RobertaPreLayerNormModel from scratch: my count 8 x 1.315M + 2.23M embeddings + pooler 66K = 12.8M (the MLM head of the objective curriculum unit not counted)",rel_tol=0.1),
 "dist.world_size":T(4,"scripts/launch_slurm.wilkes3 srun torchrun --nnodes 1 --nproc_per_node 4"),
 "dist.nodes":T(1,"#SBATCH --nodes=1 and torchrun --nnodes 1"),
 "dist.devices_per_node":T(4,"--nproc_per_node 4"),
 "dist.sharding":T("ddp","HF Trainer (transformers 4.26.1) under torchrun, no fsdp/deepspeed: DistributedDataParallel"),
 "batch.micro":T(32,blc+":25 trainer.batch_size -> train.py:217 per_device_train_batch_size"),
 "batch.grad_accum":T(1,"train.py:211-249 no gradient_accumulation_steps (default 1)"),
 "batch.global":T(128,"32 x 1 x 4 ("+blc+":25 comment: effective batch size of 128)"),
 "data.seq_len":T(128,blc+":22 data_preprocessing.max_input_length"),
 "precision.mode":T("fp32","train.py:211-249 neither fp16 nor bf16"),
 "optimizer.name":T("adamw_hf","transformers 4.26.1 (requirements.txt:78) TrainingArguments optim default adamw_hf; src/trainer.py creates no optimizer of its own for the base model",any_of=["adamw_hf","AdamW","adamw","adamw_torch"]),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0 -> src/trainer.py:461"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True -> src/trainer.py:462"),
 "memory.gradient_checkpointing":T(False,"no gradient_checkpointing"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H22+"; cd scripts; sbatch launch_slurm.wilkes3 experiment.name=baseline experiment.group=baselines (a Slurm batch file without a .sh suffix: #SBATCH lines, module loads, the head node's IP from srun hostname, cd .., source setup.sh, then srun torchrun --nnodes 1 --nproc_per_node 4 --rdzv_backend c10d train.py $@ with the Hydra overrides passed through; a @hydra.main train.py composing six config groups checked against a structured config, the model class and config looked up by name in a project registry and sized by model_kwargs, an HF Trainer subclass with a curriculum data loader; small-LM pretraining for the BabyLM challenge). Not labelled: model.ref (a registry name, roberta_pre_layer_norm, not a checkpoint)")

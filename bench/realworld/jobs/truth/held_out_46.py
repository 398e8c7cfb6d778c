"""The forty-sixth held-out set of the jobs benchmark (run.py --set held-out-46): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them. No repository is used by another jobs set's
manifest (bench/realworld/jobs/manifest.json); each owner/name was grepped in bench/, docs/, tests/,
calibration/, preflight/ and adapters/: ten appear nowhere, img2img-turbo and LISA appear only in the
bugs benchmark (docs/realworld.md 'Set 46, first scoring' lists where, and where a bare name appears).
Parameter counts are labelled only where the repository states them or a published checkpoint's
shape gives them."""
from .core import J, T

H46="forty-sixth held-out set"

DN=("IDEA-Research/DINO","faa8520fe9604c23ad65a48bc583550a44c0e3ab")
J("dino-detr-r50-4scale-coco-train-dist-sh-8gpu",*DN,["."],".",["scripts/DINO_train_dist.sh","--","/path/to/COCODIR"],{
 "dist.world_size":T(8,"scripts/DINO_train_dist.sh:2 torch.distributed.launch --nproc_per_node=8 -> util/misc.py:476-491 WORLD_SIZE/LOCAL_RANK from the launcher"),
 "dist.nodes":T(1,"no --nnodes: one node"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("ddp","main.py:155 torch.nn.parallel.DistributedDataParallel when distributed"),
 "batch.micro":T(2,"config/DINO/DINO_4scale.py:12 batch_size 2 (set onto args at main.py:100-106) -> main.py:177-181 BatchSampler(sampler_train, 2) per process"),
 "batch.grad_accum":T(1,"engine.py:73-88 zero_grad, backward and optimizer.step every batch"),
 "batch.global":T(16,"2 x 1 x 8"),
 "precision.mode":T("fp32","no --amp in the script: main.py:72 store_true -> engine.py:24,46 GradScaler/autocast(enabled=False)"),
 "optimizer.name":T("AdamW","main.py:163 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"config/DINO/DINO_4scale.py:26 use_checkpoint False (ResNet-50 backbone)"),
 "data.num_workers":T(10,"main.py:57 --num_workers default 10 -> :180-181"),
 "data.pin_memory":T(False,"main.py:180-181 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full training from an ImageNet ResNet-50 backbone"),
},held_out=True,note=H46+"; README.md:314-318 'Training with distributed: bash scripts/DINO_train_dist.sh /path/to/your/COCODIR' (a shell script around torch.distributed.launch main.py -c config/DINO/DINO_4scale.py --options ..., a DETR-style main.py whose mmcv-like SLConfig python config is copied onto argparse args (refusing keys the CLI owns), a BatchSampler with drop_last, AdamW with backbone/linear-projection learning-rate groups, optional AMP off by default; DINO (DETR with improved denoising anchor boxes) 4-scale ResNet-50 on COCO, object detection). Related code: main.py, engine.py, util/ and datasets/ follow facebookresearch/detr and fundamentalvision/Deformable-DETR (earlier sets' repositories); models/dino/ops is Deformable-DETR's CUDA op. Not labelled: data.image_size (multi-scale augmentation, config/DINO/coco_transformer.py:1-2 shorter side 480-800, max 1333), model.num_parameters (not stated in the repository)")

CO=("nomic-ai/contrastors","613ddfd37309e538cceadb05b1e6423e7b09f603")
coc="src/contrastors/configs/train/mlm.yaml"
cod="src/contrastors/configs/deepspeed/ds_config.json"
cob="src/contrastors/trainers/base.py"
J("contrastors-nomic-bert-2048-mlm-deepspeed-zero2-8gpu",*CO,["."],"src/contrastors",["--","deepspeed","--num_gpus=8","train.py","--config=configs/train/mlm.yaml",
 "--deepspeed_config=configs/deepspeed/ds_config.json","--dtype=bf16"],{
 "dist.world_size":T(8,"deepspeed --num_gpus=8"),
 "dist.nodes":T(1,"no hostfile or --num_nodes: one node"),
 "dist.devices_per_node":T(8,"--num_gpus=8"),
 "dist.sharding":T("zero2",cod+":16-17 zero_optimization stage 2 -> "+cob+":157 deepspeed.initialize"),
 "dist.offload_optimizer":T("none",cod+":21-23 offload_optimizer device none"),
 "batch.micro":T(128,coc+":52 data_args.batch_size 1024 // 8 processes ("+cob+":149-151 train_micro_batch_size_per_gpu; src/contrastors/trainers/mlm.py:72-74 DataLoader(batch_size=1024 // 8))"),
 "batch.grad_accum":T(4,coc+":10 gradient_accumulation_steps 4 -> "+cob+":145-146 ("+cod+" 'auto')"),
 "batch.global":T(4096,cob+":152 train_batch_size = 1024 x 4 (128 x 4 x 8)"),
 "data.seq_len":T(2048,coc+":35 model_args.seq_len 2048 (the pretokenized nomic-ai/bert-pretokenized-2048-wiki-2023 at :50)"),
 "precision.mode":T("bf16",cod+":13-15 bf16 enabled under DeepSpeed (--dtype=bf16; autocast off under DeepSpeed, "+cob+":369)",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("AdamW","src/contrastors/optimizer.py:2,46 torch.optim.AdamW handed to deepspeed.initialize ("+cod+" has no optimizer section)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,coc+":47 gradient_checkpointing false"),
 "data.num_workers":T(4,coc+":51 data_args.workers 4 -> src/contrastors/trainers/mlm.py:75"),
 "data.pin_memory":T(False,"src/contrastors/trainers/mlm.py:72-80 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","BERT trained from scratch (src/contrastors/trainers/mlm.py:39-40 NomicBertForPreTraining from a config)"),
},held_out=True,note=H46+"; README.md:126-133 'To train your own BERT from scratch (with all the optimizations) run cd src/contrastors; deepspeed --num_gpus=8 train.py --config=configs/train/mlm.yaml --deepspeed_config=configs/deepspeed/ds_config.json --dtype=bf16' (argparse with DeepSpeed's config arguments over a YAML read into pydantic train_args/model_args/data_args, a trainer registry keyed by model_type, a DeepSpeed JSON whose 'auto' batch fields the trainer fills from the YAML's total batch and accumulation, ZeRO-2, a NomicBert with rotary embeddings, SwiGLU and no biases built from bert-base-uncased's config, 30% masking; nomic-bert-2048 masked-language-model pre-training on Wikipedia, LLM/encoder pre-training). Not labelled: model.ref (a from-scratch model whose config starts from bert-base-uncased's, "+coc+":41-42), model.num_parameters (not stated in the repository)")

F3=("facebookresearch/fast3r","33104d4b5b8df43795ecded236194958bbdac572")
f3e="configs/experiment/super_long_training/super_long_training.yaml"
J("fast3r-vit-l-multiview-hydra-lightning-deepspeed-super-long-training",*F3,["."],".",["fast3r/train.py","--","experiment=super_long_training/super_long_training"],{
 "dist.nodes":T(1,"configs/train.yaml trainer: ddp -> configs/trainer/ddp.yaml num_nodes 1 (the experiment does not change it)"),
 "dist.sharding":T("zero2",f3e+":90-94 trainer.strategy lightning.pytorch.strategies.DeepSpeedStrategy with only a timeout: Lightning's default stage 2"),
 "dist.offload_optimizer":T("none","DeepSpeedStrategy default offload_optimizer False"),
 "batch.micro":T(1,f3e+":32 data_module.batch_size_per_device 1 -> fast3r/data/multiview_dust3r_datamodule.py:109-111 (each sample is a set of 20 views, :25)"),
 "batch.grad_accum":T(1,"no accumulate_grad_batches in configs/trainer/ or the experiment: Lightning default 1"),
 "data.image_size":T(512,"configs/model/fast3r.yaml encoder_args img_size 512 (training crops 512 wide, "+f3e+":35-40)"),
 "precision.mode":T("fp32","no trainer.precision in configs/trainer/default.yaml (commented out at :12-13), ddp.yaml or the experiment: Lightning default 32-true"),
 "optimizer.name":T("AdamW","configs/model/fast3r.yaml optimizer _target_ torch.optim.AdamW (betas 0.9, 0.95)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no torch.utils.checkpoint in fast3r/"),
 "data.num_workers":T(6,f3e+":30 data_module.num_workers 6"),
 "data.pin_memory":T(True,f3e+":29 data_module.pin_memory true -> fast3r/data/multiview_dust3r_datamodule.py:112 pin_mem"),
 "compile.enabled":T(False,"configs/model/fast3r.yaml:93 compile false -> fast3r/models/multiview_dust3r_module.py:989-990"),
 "peft.method":T("none","full training, the encoder initialised from the DUSt3R checkpoint (configs/model/fast3r.yaml pretrained)"),
},held_out=True,note=H46+"; README.md:137-140 'python fast3r/train.py experiment=super_long_training/super_long_training' (a lightning-hydra-template layout: configs/train.yaml with defaults for data/model/trainer/callbacks/logger groups, an experiment file overriding the model and data module and swapping the trainer strategy for a _target_-built DeepSpeedStrategy, OmegaConf python_eval resolvers, dataset strings evaluated by the DUSt3R loader; Fast3R, a ViT-L CroCo encoder and a 24-layer fusion decoder over 20 views at once, initialised from DUSt3R, multi-view 3D reconstruction). Related code: the configs/ and train.py layout is ashleve/lightning-hydra-template (an earlier set's repository) and fast3r/dust3r and fast3r/croco are naver's DUSt3R and CroCo code. Not labelled: dist.world_size, dist.devices_per_node and batch.global (trainer devices auto: every visible GPU), model.num_parameters (not stated in the repository)")

SL=("facebookresearch/SLIP","c6faf5d03cbfa7d529d210779f859cd3dddec09a")
J("slip-vit-b16-yfcc15m-torchrun-8gpu-amp",*SL,["."],".",["--","torchrun","--nproc_per_node=8","main.py","--root","/path/to/yfcc100m","--model","SLIP_VITB16","--lr","3e-3","--wd","0.1"],{
 "dist.world_size":T(8,"torchrun --nproc_per_node=8 -> main.py:92 utils.init_distributed_mode from RANK/WORLD_SIZE"),
 "dist.nodes":T(1,"no --nnodes: one node"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("ddp","main.py:109 torch.nn.parallel.DistributedDataParallel"),
 "batch.micro":T(64,"main.py:57 --batch-size default 64 (per GPU) -> :194-196 DataLoader(batch_size=64)"),
 "batch.grad_accum":T(1,"main.py:64 --update-freq default 1 -> :298,306"),
 "batch.global":T(512,"64 x 1 x 8 (the README's 4096 is for 8 nodes)"),
 "data.image_size":T(224,"main.py:168 RandomResizedCrop(224)"),
 "precision.mode":T("amp_fp16","main.py:70 --disable-amp not given -> :128 amp.GradScaler(enabled=True), :294 amp.autocast(enabled=True)",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW","main.py:126 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models.py (timm VisionTransformer without grad checkpointing)"),
 "data.num_workers":T(10,"main.py:74 -j/--workers default 10 -> :196"),
 "data.pin_memory":T(True,"main.py:196 DataLoader(pin_memory=True)"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","pre-training from scratch"),
},held_out=True,note=H46+"; README.md:322-337 'For local training with torchrun ... replace python run_with_submitit.py with torchrun --nproc_per_node=8 main.py' applied to 'SLIP ViT-Base ... python run_with_submitit.py --root /path/to/yfcc100m --model SLIP_VITB16 --lr 3e-3 --wd 0.1' (argparse with per-GPU batch and update-freq accumulation, DDP from torchrun's environment, a model chosen by name from models.py (timm ViT-B/16 image tower, a CLIP text transformer and a SimCLR head), AdamW, torch.cuda.amp; SLIP (self-supervision plus language-image pre-training) ViT-B/16 on YFCC15M, vision-language pre-training). Related code: main.py and utils.py follow the DeiT/MAE main-script pattern (facebookresearch/deit, an earlier set's repository). Not labelled: model.ref (an in-repository architecture name) and model.num_parameters (not stated in the repository)")

CP=("huggingface/cosmopedia","38789cac6b7a15047cec96ffd14d4c6dfd9cdf4c")
cpt="classification/train_edu_bert.py"
J("cosmopedia-fineweb-edu-classifier-arctic-embed-m-sbatch-hf-trainer-1gpu",*CP,["."],"classification",["train_edu_bert.slurm"],{
 "model.ref":T("Snowflake/snowflake-arctic-embed-m","classification/train_edu_bert.slurm:19 --base_model_name -> "+cpt+":63-69 AutoModelForSequenceClassification.from_pretrained(num_labels=1)"),
 "model.num_parameters":T(109482240,"snowflake-arctic-embed-m, a BERT-base encoder (12 layers, hidden 768, vocab 30522): 109M plus a one-output head",rel_tol=0.1),
 "dist.world_size":T(1,"classification/train_edu_bert.slurm:4-8 one node, one task, --gpus=1; plain python"),
 "dist.nodes":T(1,"#SBATCH --nodes=1"),
 "dist.sharding":T("none","one process, no DeepSpeed or FSDP arguments"),
 "batch.micro":T(256,cpt+":101 per_device_train_batch_size 256"),
 "batch.grad_accum":T(1,cpt+":90-108 no gradient_accumulation_steps: default 1"),
 "batch.global":T(256,"256 x 1 x 1"),
 "data.seq_len":T(512,cpt+":70-73 model_max_length min(max_position_embeddings 512, 512) with truncation at :78"),
 "precision.mode":T("amp_bf16",cpt+":107 bf16=True over fp32 weights (from_pretrained without torch_dtype)",any_of=["amp_bf16","bf16"]),
 "optimizer.name":T("AdamW","no optim in "+cpt+":90-108: TrainingArguments default AdamW",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(False,cpt+":90-108 no gradient_checkpointing"),
 "data.num_workers":T(0,cpt+":90-108 no dataloader_num_workers: default 0"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("none",cpt+":85-88 the BERT embeddings and encoder frozen by requires_grad=False: only the regression head trains (no adapter)"),
},held_out=True,note=H46+"; classification/README.md:5-13 'edit train_edu_bert.slurm ... sbatch train_edu_bert.slurm' (an sbatch script, one node and one GPU, running python train_edu_bert.py with four flags: argparse for names only, every training setting hard-coded in a TrainingArguments literal, a regression head on a frozen snowflake-arctic-embed-m, transformers.Trainer with bf16; the FineWeb-Edu quality classifier trained on Llama-3 annotations, text classification). Not labelled: data.pin_memory (the installed transformers' default)")

LI=("dvlab-research/LISA","3cb2d4301f1af4691bd4f3938335ef06e76f155a")
lit="train_ds.py"
J("lisa-7b-reasoning-segmentation-deepspeed-launcher-zero2-lora",*LI,["."],".",["--","deepspeed","--master_port=24999",lit,"--version=PATH_TO_LLaVA","--dataset_dir=./dataset",
 "--vision_pretrained=PATH_TO_SAM","--dataset=sem_seg||refer_seg||vqa||reason_seg","--sample_rates=9,3,3,1","--exp_name=lisa-7b"],{
 "dist.nodes":T(1,"deepspeed without a hostfile or --num_nodes: one node"),
 "dist.sharding":T("zero2",lit+":296-303 ds_config zero_optimization stage 2 -> :305-317 deepspeed.initialize"),
 "dist.offload_optimizer":T("none",lit+":296-303 no offload_optimizer"),
 "batch.micro":T(2,lit+":67-69 --batch_size default 2 -> :269 train_micro_batch_size_per_gpu"),
 "batch.grad_accum":T(10,lit+":70-74 --grad_accumulation_steps default 10 -> :270"),
 "data.seq_len":T(512,lit+":39 --model_max_length default 512"),
 "data.image_size":T(1024,lit+":38 --image_size default 1024 (the SAM ViT-H input)"),
 "precision.mode":T("bf16",lit+":31-36 --precision default bf16 -> :146-152 from_pretrained(torch_dtype=torch.bfloat16) and :292-293 ds_config bf16 enabled",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("AdamW",lit+":271-278 ds_config optimizer type AdamW (DeepSpeed's)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,lit+":159 model.gradient_checkpointing_enable() unconditionally (--gradient_checkpointing default True at :96)"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("lora",lit+":83 --lora_target_modules q_proj,v_proj, :40 --lora_r 8 -> :176-214 peft LoraConfig on the LLaVA language model (the SAM mask decoder, lm_head, embeddings and projection layers also train)",any_of=["lora"]),
},held_out=True,note=H46+"; README.md:204-212 'deepspeed --master_port=24999 train_ds.py --version=\"PATH_TO_LLaVA\" --dataset_dir=./dataset --vision_pretrained=\"PATH_TO_SAM\" --dataset=\"sem_seg||refer_seg||vqa||reason_seg\" --sample_rates=\"9,3,3,1\" --exp_name=\"lisa-7b\"' with the placeholders kept (argparse, a hand-written DeepSpeed config dict with ZeRO-2, DeepSpeed's AdamW and WarmupDecayLR, deepspeed.initialize building the data loader from the dataset, LoRA on a LLaVA-7B language model with a <SEG> token whose hidden state prompts a SAM ViT-H mask decoder; LISA reasoning segmentation, vision-language segmentation). Related code: model/llava is vendored from haotian-liu/LLaVA (an earlier set's repository) and model/segment_anything from facebookresearch/segment-anything. Not labelled: dist.world_size, dist.devices_per_node and batch.global (the deepspeed launcher without --num_gpus or --include uses every visible GPU), model.ref and model.num_parameters (--version is the placeholder PATH_TO_LLaVA, a local merged LLaVA-Lightning-7B), data.num_workers and data.pin_memory (DeepSpeed's own loader from training_data; --workers is not passed to it)")

MD=("sail-sg/MDT","7d26c2162c462bd0b90f97f3a1c36cdaaac616ec")
mdu="masked_diffusion/train_util.py"
J("mdtv2-s2-imagenet256-run-sh-distributed-launch-adan-zero-8gpu",*MD,["."],".",["run.sh"],{
 "dist.world_size":T(8,"run.sh:5,12 NUM_GPUS=8 -> torch.distributed.launch --nproc_per_node=8"),
 "dist.nodes":T(1,"no --nnodes: one node"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("zero1",mdu+":44-45 opt_type 'adan', use_zero True -> :95-101 torch ZeroRedundancyOptimizer (optimizer states sharded) with :121-128 DDP",any_of=["zero1","ddp"]),
 "batch.micro":T(32,"run.sh:9 --batch_size 32 per process; scripts/image_train.py:73 microbatch -1 -> "+mdu+":51 microbatch = 32"),
 "batch.grad_accum":T(1,mdu+":227-238 one microbatch of the whole 32-image batch per step"),
 "batch.global":T(256,mdu+":70 global_batch = 32 x 8"),
 "data.image_size":T(256,"run.sh:7 --image_size 256 (latents 32x32 from the sd-vae-ft-mse VAE, scripts/image_train.py:29, "+mdu+":141)"),
 "precision.mode":T("fp32","scripts/image_train.py:78 use_fp16 default False -> MixedPrecisionTrainer(use_fp16=False)"),
 "optimizer.name":T("Adan",mdu+":44 opt_type default 'adan' -> :95-101 ZeroRedundancyOptimizer(optimizer_class=Adan) (sail-sg/Adan, run.sh:3)",any_of=["Adan","adan"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in masked_diffusion/models.py"),
 "data.num_workers":T(1,"masked_diffusion/image_datasets.py:63-65 DataLoader(num_workers=1)"),
 "data.pin_memory":T(False,"masked_diffusion/image_datasets.py:63-65 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","MDTv2 trained from scratch (the VAE frozen)"),
},held_out=True,note=H46+"; README.md:63-76 'Training on one node (run.sh)': the job is run.sh, which pip-installs torch 2.0, the package and Adan, then runs python -m torch.distributed.launch --nproc_per_node=8 scripts/image_train.py --data_dir $DATA_PATH --image_size 256 --mask_ratio 0.30 --decode_layer 6 --model MDTv2_S_2 --diffusion_steps 1000 --batch_size 32 --lr 5e-4 (an improved-diffusion-style script: argparse built from defaults dicts by add_dict_to_argparser, the model class looked up by name in models.__dict__, a TrainLoop with microbatches, EMA and a MixedPrecisionTrainer, Adan under torch's ZeroRedundancyOptimizer, DDP, an mpi4py-sharded image folder, latents from a frozen sd-vae-ft-mse; MDTv2-S/2 masked diffusion transformer on ImageNet 256x256, class-conditional image generation). Related code: masked_diffusion/ follows openai/improved-diffusion (an earlier set's repository; fp16_util.py, train_util.py, script_util.py, gaussian_diffusion.py) and the DiT model code (facebookresearch/DiT, an earlier set's repository). Not labelled: model.num_parameters (not stated in the repository)")

LC=("microsoft/LLM2CLIP","cba3b45ba3d9bdaaf8ad640156dedbdbcb60353a")
lcr="llm2clip/run.sh"
lcd="llm2clip/training/distributed.py"
J("llm2clip-eva02-clip-l-336-run-sh-distributed-launch-deepspeed-zero1-8gpu",*LC,["."],"llm2clip",["run.sh"],{
 "dist.world_size":T(8,lcr+":3 torch.distributed.launch --nproc_per_node=8 --use_env"),
 "dist.nodes":T(1,"no --nnodes: one node"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("zero1",lcr+":5,42 --enable-deepspeed --zero-stage=1 -> "+lcd+":219-226 zero_optimization stage 1"),
 "dist.offload_optimizer":T("none",lcd+" stage-1 zero_optimization without offload"),
 "batch.micro":T(512,lcr+":20 --batch-size=512 -> "+lcd+":174 train_micro_batch_size_per_gpu"),
 "batch.grad_accum":T(1,"llm2clip/training/params.py:452 --grad-accumulation-steps default 1 -> "+lcd+":175"),
 "batch.global":T(4096,lcd+":173 train_batch_size = 512 x 8 x 1"),
 "data.image_size":T(336,lcr+":1 MODEL=EVA02-CLIP-L-14-336 -> llm2clip/eva_clip/model_configs/EVA02-CLIP-L-14-336.json vision_cfg image_size 336"),
 "precision.mode":T("fp16",lcr+":18 --precision fp16 -> "+lcd+":179-180 DeepSpeed fp16 enabled (precision != bf16): fp16 weights with fp32 master copies and a dynamic loss scale",any_of=["fp16","amp_fp16"]),
 "optimizer.name":T("AdamW",lcr+":41 --optimizer ap_adamw with --precision fp16 -> llm2clip/training/optim.py:193-196 falls back to optim.AdamW (AnyPrecisionAdamW only for bf16), handed to DeepSpeed at llm2clip/training/main.py:229-238",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,lcr+":6 --grad-checkpointing"),
 "data.num_workers":T(8,lcr+":36 --workers=8 -> llm2clip/training/data.py:646-651 WebLoader(num_workers=8)"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tuning of the EVA02-CLIP-L image tower against the text embeddings (no adapters)"),
},held_out=True,note=H46+"; the job is the repository's llm2clip/run.sh run from llm2clip/ (python -m torch.distributed.launch --nproc_per_node=8 --use_env training/main.py --enable-deepspeed --grad-checkpointing ... --precision fp16 --batch-size=512 --workers=8 --model=EVA02-CLIP-L-14-336 --optimizer=ap_adamw --zero-stage=1 --dataset-type webdataset) (an EVA-CLIP/open_clip training main: argparse in training/params.py, a DeepSpeed JSON written at run time by create_deepspeed_config from the arguments, a client optimizer chosen by name and precision, webdataset shards of CC3M and CC12M, a model built from a JSON model config; LLM2CLIP, an EVA02-CLIP-L/14-336 trained against LLM-derived caption embeddings, vision-language contrastive learning). Related code: training/ and eva_clip/ come from baaivision/EVA's EVA-CLIP, itself derived from mlfoundations/open_clip (an earlier set's repository). Not labelled: data.pin_memory (webdataset's WebLoader without the argument), model.ref and model.num_parameters (an in-repository model config name; counts not stated)")

VM=("OpenGVLab/VideoMamba","f3427e42cb8453a523aec3a6f86d57b5bc1de5c3")
vmr="videomamba/image_sm/exp/videomamba_tiny/run224.sh"
vmm="videomamba/image_sm/main.py"
J("videomamba-tiny-imagenet224-srun-distributed-launch-deit-style-8gpu",*VM,["."],"videomamba/image_sm",["exp/videomamba_tiny/run224.sh"],{
 "dist.world_size":T(8,vmr+":14-15,18-24 srun -n1 (one task) running torch.distributed.launch --nproc_per_node=8 --use_env -> videomamba/image_sm/utils.py:216-229 RANK/WORLD_SIZE"),
 "dist.nodes":T(1,vmr+":14 NNODE=1 -> srun -n1 --ntasks-per-node=1"),
 "dist.devices_per_node":T(8,vmr+":15 NUM_GPUS=8 -> --gres=gpu:8, --nproc_per_node=8"),
 "dist.sharding":T("ddp",vmm+":342 torch.nn.parallel.DistributedDataParallel"),
 "batch.micro":T(512,vmr+":30 --batch-size 512 -> "+vmm+":251-253 DataLoader(batch_size=512) per process"),
 "batch.grad_accum":T(1,"videomamba/image_sm/engine.py:79-87 loss_scaler (backward and step) every batch"),
 "batch.global":T(4096,"512 x 1 x 8"),
 "data.image_size":T(224,vmm+":44 --input-size default 224"),
 "precision.mode":T("amp_bf16",vmr+":41 --bf16 with "+vmm+":197-200 if_amp default True -> :355-359 torch.cuda.amp.autocast(dtype=torch.bfloat16) and timm NativeScaler",any_of=["amp_bf16","bf16"]),
 "optimizer.name":T("AdamW",vmm+":60 --opt default adamw -> :350 timm create_optimizer",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in videomamba/image_sm/models/videomamba.py"),
 "data.num_workers":T(16,vmr+":31-32 --num_workers 16 (given twice) -> "+vmm+":254"),
 "data.pin_memory":T(True,vmm+":184-188 set_defaults(pin_mem=True) -> :255"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch on ImageNet-1k"),
},held_out=True,note=H46+"; videomamba/image_sm/README.md:24-30 'Simply run the training scripts in exp as followed: bash ./exp/videomamba_tiny/run224.sh' run from videomamba/image_sm (a shell script that sets PYTHONPATH and runs srun --mpi=pmi2 -p video5 -n1 --gres=gpu:8 --ntasks-per-node=1 python -m torch.distributed.launch --nproc_per_node=8 --use_env main.py --model videomamba_tiny --batch-size 512 --num_workers 16 ... --bf16 --dist-eval; a DeiT-style main.py with timm create_optimizer/NativeScaler/Mixup, AMP on by default with a --bf16 dtype switch; VideoMamba-Ti, a bidirectional Mamba vision backbone, on ImageNet-1k 224x224, vision classification). Related code: main.py, engine.py and utils.py follow facebookresearch/deit (an earlier set's repository) and the model follows hustvl/Vim's Vision Mamba. Not labelled: model.num_parameters (not stated in the repository)")

VR=("OpenGVLab/Vision-RWKV","0e0e38a6fd4475ae3817e14420ab85fab08d9097")
vrc="classification/configs/vrwkv/vrwkv_tiny_8xb128_in1k.py"
J("vision-rwkv-tiny-imagenet-mmcls-dist-train-sh-8gpu",*VR,["."],"classification",["dist_train.sh","--","configs/vrwkv/vrwkv_tiny_8xb128_in1k.py","8"],{
 "dist.world_size":T(8,"classification/dist_train.sh:4,15 GPUS=8 -> torch.distributed.launch --nproc_per_node=8 (NNODES default 1 at :5)"),
 "dist.nodes":T(1,"classification/dist_train.sh:5 NNODES default 1"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("ddp","classification/dist_train.sh:19 --launcher pytorch -> classification/train.py:197 mmcls train_model with distributed=True (MMDistributedDataParallel)"),
 "batch.micro":T(128,vrc+":38-40 data.samples_per_gpu 128 (overrides classification/configs/_base_/datasets/imagenet_bs64_swin_224.py:53's 64)"),
 "batch.grad_accum":T(1,"classification/configs/_base_/schedules/imagenet_bs1024_adamw_swin.py:18 optimizer_config with grad_clip only: mmcv's OptimizerHook steps every iteration"),
 "batch.global":T(1024,"128 x 1 x 8 (the schedule file's bs1024)"),
 "data.image_size":T(224,vrc+":13 img_size 224; classification/configs/_base_/datasets/imagenet_bs64_swin_224.py:11-12 RandomResizedCrop size 224"),
 "precision.mode":T("fp32","no fp16 section in "+vrc+" or its _base_ files (classification/configs/_base_/default_runtime.py); the WKV kernel follows the fp32 weights"),
 "optimizer.name":T("AdamW","classification/configs/_base_/schedules/imagenet_bs1024_adamw_swin.py:11-17 optimizer type AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"classification/mmcls_custom/models/backbones/vrwkv.py:343 VRWKV with_cp default False; "+vrc+":11-15 does not set it"),
 "data.num_workers":T(8,"classification/configs/_base_/datasets/imagenet_bs64_swin_224.py:54 workers_per_gpu 8"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H46+"; classification/README.md:107-116 'to train VRWKV-T with 8 GPU on a single node for 300 epochs, run: sh dist_train.sh configs/vrwkv/vrwkv_tiny_8xb128_in1k.py 8' run from classification/ (a shell script around torch.distributed.launch and train.py --launcher pytorch, the installed MMClassification 0.x with a custom registry package mmcls_custom, mmcv Config files chained through _base_ lists, an EpochBasedRunner for 300 epochs; Vision-RWKV-T with a CUDA WKV kernel on ImageNet-1k 224x224, vision classification). Related code: the config layout and _base_ files follow open-mmlab's MMClassification (installed, not vendored). Not labelled: data.pin_memory (inside the installed mmcls build_dataloader), model.num_parameters (not stated in the repository)")

LV=("facebookresearch/LaViLa","8002b5ab0db31789b9897a0a9c36729099e21ad4")
lvm="main_pretrain.py"
J("lavila-dual-encoder-tsf-l-336-submitit-8-nodes-zero-checkpointing",*LV,["."],".",["run_with_submitit_pretrain.py","--","--model","CLIP_OPENAI_TIMESFORMER_LARGE_336PX_DISTILBERT_BASE",
 "--batch-size","8","--use-checkpoint","--use-zero","--norm-embed","--freeze-temperature","--fix-lr","--contrastive-use-vissl","--nodes","8","--use_volta32"],{
 "dist.world_size":T(64,"--nodes 8 x run_with_submitit_pretrain.py:21 --ngpus default 8 -> :89-105 submitit tasks_per_node 8 (one task per GPU)"),
 "dist.nodes":T(8,"--nodes 8 -> run_with_submitit_pretrain.py:90,105"),
 "dist.devices_per_node":T(8,"run_with_submitit_pretrain.py:21 --ngpus default 8 -> :102 gpus_per_node"),
 "dist.sharding":T("zero1","--use-zero -> "+lvm+":215-219 torch ZeroRedundancyOptimizer(optimizer_class=AdamW) (optimizer states sharded) over :179-181 DistributedDataParallel",any_of=["zero1","ddp"]),
 "batch.micro":T(8,"--batch-size 8 (per GPU, "+lvm+":100) -> :323-325 DataLoader"),
 "batch.grad_accum":T(1,lvm+":118 --update-freq default 1"),
 "batch.global":T(512,"8 x 1 x 64"),
 "data.image_size":T(336,lvm+":263 crop_size 336 for a '336PX' model -> :266 RandomResizedCrop(336)"),
 "precision.mode":T("amp_fp16",lvm+":126 --disable-amp not given -> :223 amp.GradScaler(enabled=True), :490 amp.autocast(enabled=True)",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW",lvm+":215-219 ZeroRedundancyOptimizer(optimizer_class=torch.optim.AdamW)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,"--use-checkpoint ("+lvm+":130) -> passed to the model's forward at :493"),
 "data.num_workers":T(10,lvm+":135 -j/--workers default 10 -> :323-325"),
 "data.pin_memory":T(True,lvm+":325 DataLoader(pin_memory=True)"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full training of the dual encoder from CLIP ViT-L/14@336px and DistilBERT weights (only the logit temperature frozen by --freeze-temperature)"),
},held_out=True,note=H46+"; docs/PRETRAIN.md:24-35 'Train a baseline dual-encoder (with TSF-L@HR): python run_with_submitit_pretrain.py --model CLIP_OPENAI_TIMESFORMER_LARGE_336PX_DISTILBERT_BASE --batch-size 8 --use-checkpoint --use-zero --norm-embed --freeze-temperature --fix-lr --contrastive-use-vissl --nodes 8 --use_volta32' (a submitit launcher whose parser inherits main_pretrain.py's, submitting nodes x ngpus tasks to Slurm with a file:// init method, a SLIP-style main_pretrain.py with a model function looked up by name in lavila/models/models.py, DDP, AdamW under ZeroRedundancyOptimizer, torch.cuda.amp, gradient checkpointing passed into the forward; LaViLa dual-encoder baseline, a TimeSformer-L at 336px from CLIP ViT-L/14 with a DistilBERT text encoder on Ego4D clips, video-language pre-training). Related code: main_pretrain.py follows facebookresearch/SLIP's main.py (in this set) and the TimeSformer backbone follows facebookresearch/TimeSformer. Not labelled: model.ref and model.num_parameters (an in-repository model function; counts not stated)")

IT=("GaParmar/img2img-turbo","86f54146590ffb4543c8cf85b5a36657da670924")
itt="src/train_pix2pix_turbo.py"
itu="src/my_utils/training_utils.py"
J("img2img-turbo-pix2pix-turbo-sd-turbo-lora-accelerate-launch-fill50k",*IT,["."],".",["--","accelerate","launch",itt,"--pretrained_model_name_or_path=stabilityai/sd-turbo",
 "--output_dir=output/pix2pix_turbo/fill50k","--dataset_folder=data/my_fill50k","--resolution=512","--train_batch_size=2","--enable_xformers_memory_efficient_attention",
 "--viz_freq","25","--track_val_fid","--report_to","wandb","--tracker_project_name","pix2pix_turbo_fill50k"],{
 "model.ref":T("stabilityai/sd-turbo","--pretrained_model_name_or_path=stabilityai/sd-turbo -> "+itt+":48-49 Pix2Pix_Turbo (src/pix2pix_turbo.py:32-45 tokenizer, text encoder, VAE and UNet from stabilityai/sd-turbo)"),
 "batch.micro":T(2,"--train_batch_size=2 -> "+itt+":115 DataLoader(batch_size=2) per process"),
 "batch.grad_accum":T(1,itu+":59 --gradient_accumulation_steps default 1 -> "+itt+":28-29 Accelerator"),
 "data.image_size":T(512,itu+":31 --train_image_prep default resized_crop_512 (and --resolution=512)"),
 "optimizer.name":T("AdamW",itt+":98 torch.optim.AdamW over the LoRA and skip layers (and :106 for the discriminator)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no --gradient_checkpointing ("+itu+":60 store_true; "+itt+":58-59)"),
 "data.num_workers":T(0,itu+":74 --dataloader_num_workers default 0 -> "+itt+":115"),
 "data.pin_memory":T(False,itt+":115 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("lora","src/pix2pix_turbo.py:67-74 peft LoraConfig adapters on the UNet (rank 8) and the VAE decoder (rank 4, plus trained skip convolutions); the rest of SD-Turbo frozen",any_of=["lora"]),
},held_out=True,note=H46+"; docs/training_pix2pix_turbo.md:39-54 'accelerate config' then 'accelerate launch src/train_pix2pix_turbo.py --pretrained_model_name_or_path=\"stabilityai/sd-turbo\" --output_dir=\"output/pix2pix_turbo/fill50k\" --dataset_folder=\"data/my_fill50k\" --resolution=512 --train_batch_size=2 --enable_xformers_memory_efficient_attention --viz_freq 25 --track_val_fid --report_to \"wandb\" --tracker_project_name \"pix2pix_turbo_fill50k\"' (argparse in src/my_utils/training_utils.py, Accelerate with the precision and process count left to the user's interactive accelerate config, SD-Turbo's UNet and VAE with peft LoRA adapters and VAE skip connections, a vision-aided CLIP GAN discriminator, LPIPS and CLIP-similarity losses, two AdamWs; pix2pix-turbo one-step paired image translation on the Fill50k circles data, image-to-image diffusion). Not labelled: dist.* and precision.mode (accelerate launch with no --config_file, --num_processes or --mixed_precision, and --mixed_precision defaults to None at "+itu+":92: both come from the machine's accelerate config), model.num_parameters (not stated)")

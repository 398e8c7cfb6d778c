"""The forty-fourth held-out set of the jobs benchmark (run.py --set held-out-44): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them. No repository is used by another jobs set's
manifest (bench/realworld/jobs/manifest.json and /work/wt/all_repos.txt); each owner/name was grepped
in bench/, docs/, tests/, calibration/, preflight/ and adapters/ (none found there as owner/name) and
each bare name as a word (docs/realworld.md 'Set 44, first scoring' lists where a bare name appears).
Parameter counts are labelled only where the repository states them or a published checkpoint's
size gives them."""
from .core import J, T

H44="forty-fourth held-out set"

TP=("sahsaeedi/TPO","71a44258ea94d050ef519e5a704a564787d21635")
tpz="accelerate_configs/deepspeed_zero3.yaml"
J("tpo-llama3-8b-run-tpo-sh-accelerate-deepspeed-zero3-4gpu",*TP,["."],".",["run_tpo.sh"],{
 "model.ref":T("meta-llama/meta-Llama-3-8B","run_tpo.sh:11 --model_name_or_path -> utils/model_utils.py:135-139 AutoModelForCausalLM.from_pretrained",any_of=["meta-llama/meta-Llama-3-8B","meta-llama/Meta-Llama-3-8B"]),
 "model.num_parameters":T(8030000000,"Llama-3-8B (32 layers, hidden 4096, GQA 32/8, intermediate 14336, vocab 128256 untied)",rel_tol=0.1),
 "dist.world_size":T(4,"run_tpo.sh:8-9 accelerate launch --config_file "+tpz+" -> "+tpz+":16 num_processes 4 (run_tpo.sh:3 CUDA_VISIBLE_DEVICES=0,1,2,3)"),
 "dist.nodes":T(1,tpz+":15 num_machines 1"),
 "dist.devices_per_node":T(4,tpz+":15-16 4 processes on one machine"),
 "dist.sharding":T("zero3",tpz+":9-10 distributed_type DEEPSPEED, zero_stage 3",any_of=["zero3","zero_3","deepspeed_zero3"]),
 "dist.offload_optimizer":T("none",tpz+":5 offload_optimizer_device none"),
 "dist.offload_params":T("cpu",tpz+":6 offload_param_device cpu"),
 "batch.micro":T(1,"run_tpo.sh:26 --per_device_train_batch_size 1"),
 "batch.grad_accum":T(1,"run_tpo.sh:20 --gradient_accumulation_steps 1"),
 "batch.global":T(4,"1 x 1 x 4"),
 "data.seq_len":T(1024,"run_tpo.sh:34 --max_length 1024 (utils/tpo_config.py:66 TPOConfig.max_length)"),
 "precision.mode":T("bf16","run_tpo.sh:17 --bf16 with "+tpz+":14 mixed_precision bf16 under DeepSpeed (utils/model_utils.py:137-139 loaded without torch_dtype)",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("AdamW","run_tpo.sh:22 --optim adamw_torch",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(False,"no --gradient_checkpointing in run_tpo.sh; TPOConfig (utils/tpo_config.py:21) keeps the TrainingArguments default False"),
 "model.attn_implementation":T("flash_attention_2","run_tpo.sh:18 --attn_implementation flash_attention_2 -> utils/model_utils.py:137-139"),
 "data.num_workers":T(0,"no --dataloader_num_workers: TrainingArguments default 0"),
 "compile.enabled":T(False,"no --torch_compile"),
 "peft.method":T("none","no --use_peft: utils/configs.py:104 use_peft default False (full fine-tuning)"),
},held_out=True,note=H44+"; README.md:61-70 'We provide a shell script (run_tpo.sh) for training a model with TPO. The default configuration is optimized for 4xA100 GPUs' (a shell script exporting CUDA_VISIBLE_DEVICES and calling accelerate launch with an alignment-handbook style DeepSpeed ZeRO-3 accelerate config with parameters offloaded to CPU; HfArgumentParser over ModelArguments, DataArguments and a TPOConfig(TrainingArguments) whose trainer is a transformers.Trainer subclass written after TRL's DPOTrainer, with three preferences and a reference response per prompt; Triple Preference Optimization of Llama-3-8B, LLM alignment). Not labelled: data.pin_memory (the installed transformers' default), task.mode")

LG=("lucidrains/lightweight-gan","efbec4570b7cb715e05058eccc518dc1a5753523")
lgt="lightweight_gan/lightweight_gan.py"
J("lightweight-gan-cli-fire-entry-point-single-gpu-grad-accum",*LG,["."],".",["--","lightweight_gan","--data","./path/to/images","--name","myrun",
 "--batch-size","16","--gradient-accumulate-every","4","--num-train-steps","200000"],{
 "dist.world_size":T(1,"no --multi-gpus: lightweight_gan/cli.py:112 multi_gpus default False -> :185-187 run_training(0, 1, ...) in one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","lightweight_gan/cli.py:185-187 world size 1: "+lgt+":1153-1155 DDP wrappers only when is_ddp"),
 "batch.micro":T(16,"--batch-size 16 -> "+lgt+":1190 DataLoader(batch_size=ceil(16 / 1))"),
 "batch.grad_accum":T(4,"--gradient-accumulate-every 4 -> "+lgt+":1239,1320 four forward/backward passes per optimizer step"),
 "batch.global":T(64,"16 x 4 x 1"),
 "data.image_size":T(256,"lightweight_gan/cli.py:85 image_size default 256"),
 "precision.mode":T("fp32","no --amp: lightweight_gan/cli.py:117 amp default False -> "+lgt+":1087-1088 GradScaler(enabled=False), :1227 no autocast"),
 "optimizer.name":T("Adam",lgt+":925-926 Adam for G and D (betas 0.5, 0.9)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no torch.utils.checkpoint in "+lgt),
 "data.pin_memory":T(True,lgt+":1190 DataLoader(pin_memory=True)"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H44+"; README.md:40-45 '$ lightweight_gan --data ./path/to/images --name {name of run} --batch-size 16 --gradient-accumulate-every 4 --num-train-steps 200000' with the name filled (a console script, setup.py:11-12 lightweight_gan = lightweight_gan.cli:main, fire.Fire over train_from_folder's keyword defaults, a Trainer class building generator and discriminator with their own Adam optimizers, mp.spawn over torch.cuda.device_count() only with --multi-gpus, differentiable augmentation, per-model GradScalers; a lightweight GAN on a folder of 256x256 images, image generation). Not labelled: data.num_workers (lightweight_gan/lightweight_gan.py:1187 default ceil(cpu count / world size): machine-dependent), model.num_parameters (not stated)")

DL=("lucidrains/DALLE2-pytorch","680dfc4d93b70f9ab23c814a22ca18017a738ef6")
dlc="configs/train_decoder_config.example.json"
J("dalle2-decoder-train-decoder-click-json-config-accelerate-single",*DL,["."],".",["train_decoder.py","--","--config_file",dlc],{
 "dist.world_size":T(1,"python train_decoder.py without accelerate launch: one process (train_decoder.py:561 Accelerator())"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","one process"),
 "batch.micro":T(64,dlc+":25 data.batch_size 64 -> train_decoder.py:71-74 create_image_embedding_dataloader(batch_size=64)"),
 "batch.grad_accum":T(1,"train_decoder.py:393 trainer.update(unet_number) after every batch"),
 "batch.global":T(64,"64 x 1 x 1"),
 "precision.mode":T("fp32",dlc+":58 train.amp false; train_decoder.py:561 Accelerator() with no mixed_precision and no accelerate config"),
 "optimizer.name":T("AdamW",dlc+":49 train.wd 0.01 -> dalle2_pytorch/trainer.py:480 get_optimizer -> dalle2_pytorch/optimizer.py:23-34 AdamW when wd > 0",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing configured in "+dlc),
 "data.num_workers":T(4,dlc+":24 data.num_workers 4 -> train_decoder.py:72"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H44+"; configs/README.md:3-7 'we provide the option of using a configuration file instead of command line arguments ... A full example of their use can be found in the example decoder configuration' -> 'python train_decoder.py --config_file configs/train_decoder_config.example.json' (a click command with one --config_file option, a JSON file parsed into pydantic models (dalle2_pytorch/train_configs.py) with decoder/data/train/evaluate/tracker sections, an Accelerator created with DDP kwargs, a DecoderTrainer holding one optimizer per UNet with EMA, a webdataset loader of images and precomputed CLIP embeddings; the DALL-E 2 decoder (one 64x64 UNet) trained from CLIP image embeddings, image generation). Not labelled: data.image_size (random 128x128 crops resized to the UNet's 64x64), data.pin_memory (inside create_image_embedding_dataloader's webdataset loader), model.num_parameters (not stated)")

MS=("facebookresearch/mae_st","c5dec1bc01062097906ea67fe47935ec33fd46df")
J("mae-st-vitl16-kinetics-video-pretrain-run-pretrain-argparse",*MS,["."],".",["run_pretrain.py","--","--path_to_data_dir","/data/kinetics","--batch_size","2",
 "--model","mae_vit_large_patch16","--no_env","--epochs","100","--distributed","--num_frames","16","--decoder_embed_dim","512","--decoder_depth","4",
 "--pin_mem","--num_workers","14","--t_patch_size","2","--repeat_aug","4","--sampling_rate","4","--norm_pix_loss","--blr","1.6e-3",
 "--warmup_epochs","5","--mask_ratio","0.9","--pred_t_dim","8","--clip_grad","0.02"],{
 "dist.sharding":T("ddp","--distributed -> main_pretrain.py:283-288 torch.nn.parallel.DistributedDataParallel"),
 "batch.micro":T(2,"--batch_size 2 (main_pretrain.py:36-40 'Batch size per GPU') -> :253-256 DataLoader(batch_size=2)"),
 "batch.grad_accum":T(1,"main_pretrain.py:43-48 --accum_iter default 1"),
 "data.image_size":T(224,"main_pretrain.py:59 --input_size default 224"),
 "precision.mode":T("fp32","main_pretrain.py:174-178 --fp32 store_true with set_defaults(fp32=True): always True -> engine_pretrain.py:70 autocast(enabled=not fp32) disabled"),
 "optimizer.name":T("AdamW","main_pretrain.py:301 torch.optim._multi_tensor.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no torch.utils.checkpoint in models_mae.py"),
 "data.num_workers":T(14,"--num_workers 14 -> main_pretrain.py:257"),
 "data.pin_memory":T(True,"--pin_mem (main_pretrain.py:136 default True as well) -> :258"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","self-supervised pre-training from scratch"),
},held_out=True,note=H44+"; PRETRAIN.md:2-26 'To pre-train ViT-Large (recommended default), run the following: python run_pretrain.py --path_to_data_dir ${KINETICS_DIR} --batch_size 2 --model mae_vit_large_patch16 --no_env --epochs 100 --distributed ...' with the data directory filled (run_pretrain.py imports get_args_parser and main from main_pretrain.py; a DeiT/MAE-style argparse with --fp32 forced on by set_defaults, --no_env skipping every environment lookup in util/misc.py:242-244 so the rank and world size come from Meta's own launcher, DDP when --distributed, repeated augmentation, a spatio-temporal MAE with a 90% mask; MAE ViT-L/16 pre-training on Kinetics-400 16-frame clips, video representation learning). Not labelled: dist.world_size, dist.nodes, dist.devices_per_node and batch.global (--no_env: the process count is set by the internal launcher, not the command), model.num_parameters (not stated)")

SR=("IceClear/StableSR","398ee9383777e255540ea027a704c8ce1f32145b")
src="configs/stableSRNew/v2-finetune_text_T_512.yaml"
J("stablesr-sd21-finetune-ldm-main-py-lightning-8gpu",*SR,["."],".",["main.py","--","--train","--base",src,"--gpus","0,1,2,3,4,5,6,7,","--name","stablesr_512","--scale_lr","False"],{
 "dist.world_size":T(8,"--gpus 0,...,7, with main.py:536 trainer accelerator 'ddp': 8 processes"),
 "dist.nodes":T(1,"no num_nodes: Lightning default 1"),
 "dist.devices_per_node":T(8,"--gpus 0,1,2,3,4,5,6,7,"),
 "dist.sharding":T("ddp","main.py:535-536 'default to ddp'"),
 "batch.micro":T(6,src+":131 data.params.batch_size 6 -> main.py:205-207 DataLoader(batch_size=6) per process"),
 "batch.grad_accum":T(4,src+":247 lightning.trainer.accumulate_grad_batches 4 -> main.py:698-703"),
 "batch.global":T(192,"6 x 4 x 8"),
 "data.image_size":T(512,src+":141,163 crop_size 512 / gt_size 512 (RealESRGANDataset)"),
 "precision.mode":T("fp32","no precision in "+src+" or main.py: Lightning default 32"),
 "optimizer.name":T("AdamW","ldm/models/diffusion/ddpm.py:3232-3241 LatentDiffusionSRTextWT.configure_optimizers torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,src+":47 unet_config use_checkpoint False and :95 structcond_stage_config use_checkpoint False"),
 "data.num_workers":T(6,src+":132 data.params.num_workers 6 -> main.py:206"),
 "data.pin_memory":T(False,"main.py:205-207 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
},held_out=True,note=H44+"; README.md:105-109 'python main.py --train --base configs/stableSRNew/v2-finetune_text_T_512.yaml --gpus GPU_ID, --name NAME --scale_lr False' with GPU_ID filled as the eight GPUs 0-7 and a run name (the CompVis latent-diffusion main.py: argparse merged with Trainer.add_argparse_args, OmegaConf configs with model/data/lightning sections and target/params instantiation, a second test_data section, accelerator 'ddp' when --gpus is given, a DataModuleFromConfig over BasicSR's RealESRGANDataset with on-the-fly degradations; StableSR time-aware encoder and SFT layers trained on a frozen Stable Diffusion 2.1-base UNet, image super-resolution). Not labelled: peft.method (the diffusion UNet is frozen (unfrozen_diff False) and only the new structure-conditioning encoder and spatial feature transform layers train: neither full fine-tuning nor an adapter library), model.num_parameters (not stated), model.ref (a local ckpt path)")

TD=("yandex-research/tab-ddpm","b476257dd460b778ba09eb97f7a51d6490fa17f8")
tdc="exp/churn2/ddpm_cb_best/config.toml"
J("tab-ddpm-churn2-pipeline-toml-config-single-gpu",*TD,["."],".",["scripts/pipeline.py","--","--config",tdc,"--train","--sample"],{
 "dist.world_size":T(1,"scripts/pipeline.py:38-39 one process on "+tdc+":6 device cuda:1"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP or DataParallel in scripts/train.py"),
 "batch.micro":T(4096,tdc+":32 train.main.batch_size 4096 -> scripts/pipeline.py:48-49 train(**raw_config['train']['main']) -> scripts/train.py:130 prepare_fast_dataloader(batch_size=4096)"),
 "batch.grad_accum":T(1,"scripts/train.py:34-42 _run_step: zero_grad, backward and step every batch"),
 "batch.global":T(4096,"4096 x 1 x 1"),
 "precision.mode":T("fp32","no autocast, GradScaler or half() in scripts/train.py or tab_ddpm/"),
 "optimizer.name":T("AdamW","scripts/train.py:21 torch.optim.AdamW (weight_decay 0.0 from "+tdc+":31)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H44+"; README.md:87-88 'python scripts/pipeline.py --config exp/churn2/ddpm_cb_best/config.toml --train --sample' (argparse with a TOML config read by tomli, the train.main table splatted into train()'s keyword arguments, the device taken from the TOML, an MLP denoiser built from rtdl_params with Gaussian and multinomial diffusion, a tensor-slicing fast dataloader instead of torch's DataLoader; TabDDPM on the churn2 tabular dataset, tabular data generation). Not labelled: data.num_workers and data.pin_memory (no torch DataLoader: lib.prepare_fast_dataloader slices tensors), model.num_parameters (not stated)")

GL=("microsoft/GLIP","9dda9558c1ef59bb6cdc8e896e2bcab775a68ff0")
glc="configs/pretrain/glip_Swin_T_O365_GoldG.yaml"
J("glip-tiny-coco-finetune-maskrcnn-benchmark-distributed-launch-16gpu",*GL,["."],".",["--","python","-m","torch.distributed.launch","--nproc_per_node=16","tools/train_net.py",
 "--config-file",glc,"--skip-test","MODEL.WEIGHT","MODEL/glip_tiny_model_o365_goldg.pth","DATASETS.TRAIN","(\"coco_grounding_train\", )",
 "MODEL.BACKBONE.FREEZE_CONV_BODY_AT","-1","SOLVER.IMS_PER_BATCH","32","SOLVER.USE_AMP","True","SOLVER.MAX_EPOCH","24","TEST.DURING_TRAINING","False",
 "TEST.IMS_PER_BATCH","16","SOLVER.FIND_UNUSED_PARAMETERS","False","SOLVER.BASE_LR","0.00001","SOLVER.LANG_LR","0.00001","SOLVER.STEPS","(0.67,0.89)",
 "DATASETS.DISABLE_SHUFFLE","True","MODEL.DYHEAD.SCORE_AGG","MEAN","TEST.EVAL_TASK","detection"],{
 "dist.world_size":T(16,"--nproc_per_node=16 -> tools/train_net.py:196 WORLD_SIZE 16"),
 "dist.nodes":T(1,"no --nnodes: one node"),
 "dist.devices_per_node":T(16,"--nproc_per_node=16"),
 "dist.sharding":T("ddp","tools/train_net.py:197 distributed when num_gpus > 1 -> :100 torch.nn.parallel.DistributedDataParallel"),
 "batch.micro":T(2,"SOLVER.IMS_PER_BATCH 32 is the total over all processes (maskrcnn_benchmark data loader): 32 // 16 = 2 images per GPU"),
 "batch.grad_accum":T(1,"maskrcnn_benchmark/engine/trainer.py:118-155 one optimizer step per iteration"),
 "batch.global":T(32,"SOLVER.IMS_PER_BATCH 32 on the command line (overrides "+glc+":89 64)"),
 "precision.mode":T("amp_fp16","SOLVER.USE_AMP True ("+glc+":92 too) -> maskrcnn_benchmark/engine/trainer.py:71-72,118-119,153-155 autocast and GradScaler over fp32 weights",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW",glc+":83 SOLVER.OPTIMIZER ADAMW -> maskrcnn_benchmark/solver/build.py:52-53 torch.optim.AdamW",any_of=["AdamW","adamw","ADAMW"]),
 "memory.gradient_checkpointing":T(True,glc+":24,51 MODEL.DYHEAD.USE_CHECKPOINT True -> maskrcnn_benchmark/modeling/rpn/vldyhead.py:361-362,462 checkpoint.checkpoint over the fusion blocks"),
 "data.num_workers":T(4,"maskrcnn_benchmark/config/defaults.py:191 DATALOADER.NUM_WORKERS 4 (not set in "+glc+")"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tuning (MODEL.BACKBONE.FREEZE_CONV_BODY_AT -1) from the GLIP-T checkpoint"),
},held_out=True,note=H44+"; README.md:207-214 'Below is the fine-tuning script for tuning the Tiny models: python -m torch.distributed.launch --nproc_per_node=16 tools/train_net.py --config-file {config_file} --skip-test MODEL.WEIGHT {model_checkpoint} ...' with {config_file} the GLIP-T config configs/pretrain/glip_Swin_T_O365_GoldG.yaml and {model_checkpoint} a local GLIP-T checkpoint path (a vendored maskrcnn-benchmark: argparse with --local_rank and trailing yacs opts, WORLD_SIZE read from the environment, a yacs CfgNode of several hundred defaults merged from one YAML and the command line, SOLVER.IMS_PER_BATCH as the total batch, a Swin-T visual backbone with a BERT language backbone and a vision-language dynamic head; GLIP-T grounded detection fine-tuned on COCO, vision-language object detection). Not labelled: data.image_size (multi-scale training, shorter side 480-800), data.pin_memory (maskrcnn_benchmark's loader), model.num_parameters (not stated)")

OV=("facebookresearch/omnivore","1d55abdc8dfc7bd5cbf69316841ab804d0acf1ca")
ovc="omnivision/config/experiments/omnimae/omnimae_vitbase_ft_in1k.yaml"
J("omnimae-vitb-in1k-finetune-omnivision-hydra-submitit-4x8",*OV,["."],"omnivision",["train_app_submitit.py","--","+experiments=omnimae/omnimae_vitbase_ft_in1k",
 "++launcher.experiment_log_dir=/checkpoint/omnimae_ft","pretrained_omnimae_checkpoint_path=/checkpoint/omnimae_pretrain/checkpoints/checkpoint.pt"],{
 "dist.world_size":T(32,ovc+":11-12 launcher gpus_per_node 8, num_nodes 4 -> omnivision/train_app_submitit.py:79-82 submitit tasks_per_node 8 x nodes 4 (omnivision/config/experiments/base.yaml:68 use_cluster True)"),
 "dist.nodes":T(4,ovc+":12 launcher.num_nodes 4"),
 "dist.devices_per_node":T(8,ovc+":11 launcher.gpus_per_node 8"),
 "dist.sharding":T("ddp","omnivision/trainer/omnivision_trainer.py:216 nn.parallel.DistributedDataParallel"),
 "batch.micro":T(32,ovc+":66 trainer.data.train.batch_size 32 -> omnivision/data/torch_dataset.py:40-42 DataLoader per process"),
 "batch.grad_accum":T(1,"omnivision/data/api.py:18 accum_steps default 1 -> omnivision/trainer/omnivision_trainer.py:510-518"),
 "batch.global":T(1024,"32 x 1 x 32"),
 "data.image_size":T(224,ovc+":51-52 RandomResizedCrop size 224"),
 "precision.mode":T("fp32",ovc+":182-183 optim.amp.enabled False -> omnivision/trainer/omnivision_trainer.py:523-525 autocast disabled"),
 "optimizer.name":T("AdamW",ovc+":185-186 optim.optimizer _target_ torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"omnivision/models/vision_transformer.py:405 use_checkpoint default False, not set in "+ovc),
 "data.num_workers":T(10,ovc+":67 trainer.data.train.num_workers 10"),
 "data.pin_memory":T(True,ovc+":68 trainer.data.train.pin_memory True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tuning from the OmniMAE pre-training checkpoint ("+ovc+":20-34)"),
},held_out=True,note=H44+"; omnivision/README.md:86-91 'Finetuning on IN1k from the above generated pretraining checkpoints: CONFIG_SAN=omnimae/omnimae_vitbase_ft_in1k EXP_DIR=<...> && python train_app_submitit.py +experiments=$CONFIG_SAN ++launcher.experiment_log_dir=$EXP_DIR pretrained_omnimae_checkpoint_path=<...>' with the variables expanded and the paths filled, run from omnivision/ (a @hydra.main(config_path='config', config_name=None) app whose experiment is appended with +experiments=, a @package _global_ experiment with a defaults list over base.yaml and a dataset catalog, every object given as _target_ (trainer, datasets, transforms, model, optimizer, schedulers), submitit launching gpus_per_node x num_nodes tasks, an OmnivisionTrainer with DDP, accumulation by chunked batches and autocast from the optim.amp section; OmniMAE ViT-B fine-tuned on ImageNet-1k, vision classification). Not labelled: model.num_parameters (not stated)")

DM=("hkust-nlp/dart-math","219b32467b55f7c610195e148b56df3431e1a963")
dms="scripts/train-single-node.sh"
dmz="cfgs/deepspeed/zero-stage3.conf"
J("dart-math-llama3-8b-train-single-node-sh-accelerate-deepspeed-json-zero3-8gpu",*DM,["."],".",[dms,"--","--data_path","hkust-nlp/dart-math-hard","--model_path","meta-llama/Meta-Llama-3-8B",
 "--lr","5e-5","--bs","64","--n_grad_acc_steps","1","--n_epochs","1","--gpu_ids","0,1,2,3,4,5,6,7","--output_dir","models/dart-math-llama3-8b-prop2diff"],{
 "model.ref":T("meta-llama/Meta-Llama-3-8B","--model_path -> "+dms+":29-31,107 --model_name_or_path -> pipeline/train.py:173-179 AutoModelForCausalLM.from_pretrained"),
 "model.num_parameters":T(8030000000,"Llama-3-8B (32 layers, hidden 4096, GQA 32/8, intermediate 14336, vocab 128256 untied)",rel_tol=0.1),
 "dist.world_size":T(8,dms+":72,89 --num_processes n_gpus = 8 (--gpu_ids 0,...,7)"),
 "dist.nodes":T(1,dms+":88 --num_machines 1"),
 "dist.devices_per_node":T(8,dms+":72,89,91 8 GPU ids on one machine"),
 "dist.sharding":T("zero3",dms+":81,96-98,125 --use_deepspeed --deepspeed_config_file "+dmz+" -> "+dmz+":5-6 stage 3",any_of=["zero3","zero_3","deepspeed_zero3"]),
 "dist.offload_optimizer":T("none","no offload_optimizer in "+dmz),
 "dist.offload_params":T("none","no offload_param in "+dmz),
 "dist.overlap_comm":T(False,dmz+":7"),
 "dist.contiguous_gradients":T(True,dmz+":10"),
 "dist.allgather_bucket_size":T(500000000,dmz+":8 5e8"),
 "dist.reduce_bucket_size":T(500000000,dmz+":9 5e8"),
 "dist.stage3_max_live_parameters":T(1000000000,dmz+":14 1e9"),
 "dist.save_16bit_weights":T(True,dmz+":16 stage3_gather_16bit_weights_on_model_save"),
 "batch.micro":T(8,dms+":73-74,111 --per_device_train_batch_size bs / n_gpus / n_grad_acc_steps = 64 / 8 / 1 = 8"),
 "batch.grad_accum":T(1,"--n_grad_acc_steps 1 -> "+dms+":113"),
 "batch.global":T(64,"8 x 1 x 8 (--bs 64)"),
 "data.seq_len":T(4096,dms+":108-109 --model_max_length 4096 --pack_len 4096 (samples packed into 4096-token sequences, pipeline/train.py:225 pack_len)"),
 "precision.mode":T("bf16",dms+":87,121 --mixed_precision bf16 and --bf16 True with "+dmz+":2-3 bf16 auto; pipeline/train.py:178 torch_dtype bfloat16",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("AdamW","no --optim: TrainingArguments default AdamW ("+dmz+" has no optimizer section)",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(True,dms+":112 --gradient_checkpointing True"),
 "model.attn_implementation":T("flash_attention_2","pipeline/train.py:176 use_flash_attention_2=True"),
 "data.num_workers":T(0,"no --dataloader_num_workers: Trainer default 0"),
 "compile.enabled":T(True,dms+":82,100,126-127 --dynamo_backend inductor and --torch_compile True"),
 "peft.method":T("none","full fine-tuning (no peft in pipeline/train.py)"),
},held_out=True,note=H44+"; README.md:257-267 'to reproduce training DART-Math-Llama3-8B-Prop2Diff on a node of 8 A100 GPUs, please run: bash scripts/train-single-node.sh --data_path \"hkust-nlp/dart-math-hard\" --model_path \"meta-llama/Meta-Llama-3-8B\" --lr \"5e-5\" --bs 64 --n_grad_acc_steps 1 --n_epochs 1 --gpu_ids \"0,1,2,3,4,5,6,7\" --output_dir \"models/dart-math-llama3-8b-prop2diff\"' (a hand-written bash script with a while/case argument parser, shell arithmetic turning the global batch into a per-GPU batch, accelerate launch with --use_deepspeed and a DeepSpeed JSON config file of 'auto' values passed both to accelerate and to the HF Trainer, a TrainingArguments subclass adding model_max_length and pack_len, sequence packing, flash attention and torch.compile; DART-Math SFT of Llama-3-8B on difficulty-aware rejection-sampled math data, LLM fine-tuning). Not labelled: data.pin_memory (the installed transformers' default)")

PE=("prometheus-eval/prometheus-eval","dcfb44272d5d0414832f5dbb8c2a05ebc2614234")
pec="recipes/prometheus-v2.0/sft/config_full_1.yaml"
pez="recipes/accelerate_configs/deepspeed_zero3.yaml"
J("prometheus-v2-mistral-7b-sft-alignment-handbook-trl-accelerate-zero3-16gpu",*PE,["train"],"train",["--","accelerate","launch","--config_file",pez,"scripts/run_sft.py",pec],{
 "model.ref":T("mistralai/Mistral-7B-Instruct-v0.2",pec+":2 model_name_or_path -> scripts/run_sft.py:244-255"),
 "model.num_parameters":T(7240000000,"Mistral-7B (32 layers, hidden 4096, GQA 32/8, intermediate 14336, vocab 32000)",rel_tol=0.1),
 "dist.world_size":T(16,pez+":16 num_processes 16"),
 "dist.nodes":T(1,pez+":15 num_machines 1"),
 "dist.devices_per_node":T(16,pez+":15-16 16 processes on one machine"),
 "dist.sharding":T("zero3",pez+":9-10 distributed_type DEEPSPEED, zero_stage 3",any_of=["zero3","zero_3","deepspeed_zero3"]),
 "dist.offload_optimizer":T("none",pez+":5"),
 "dist.offload_params":T("none",pez+":6"),
 "dist.save_16bit_weights":T(True,pez+":8 zero3_save_16bit_model true"),
 "batch.micro":T(4,pec+":37 per_device_train_batch_size 4"),
 "batch.grad_accum":T(1,pec+":20 gradient_accumulation_steps 1"),
 "batch.global":T(64,"4 x 1 x 16"),
 "data.seq_len":T(4096,pec+":31 max_seq_length 4096 -> scripts/run_sft.py:305"),
 "precision.mode":T("bf16",pec+":4,17 torch_dtype bfloat16 and bf16 true with "+pez+":14 mixed_precision bf16",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("AdamW","no optim in "+pec+": TrainingArguments default AdamW",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(True,pec+":21 gradient_checkpointing true"),
 "model.attn_implementation":T("flash_attention_2",pec+":5 use_flash_attention_2 true -> scripts/run_sft.py:254"),
 "data.num_workers":T(0,"no dataloader_num_workers in "+pec+": Trainer default 0 (:14 preprocessing_num_workers 64 is for datasets.map)"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("none","no use_peft in "+pec+": scripts/run_sft.py:311 get_peft_config returns None (full fine-tuning)"),
},held_out=True,note=H44+"; train/recipes/prometheus-v2.0/README.md:13-15 'Step 2 - Train absolute grading expert model: ACCELERATE_LOG_LEVEL=info accelerate launch --config_file recipes/accelerate_configs/deepspeed_zero3.yaml scripts/run_sft.py recipes/prometheus-v2.0/sft/config_full_1.yaml', run from train/ where the relative paths resolve (a vendored copy of huggingface/alignment-handbook: an H4ArgumentParser reading one YAML recipe into ModelArguments, DataArguments and SFTConfig, TRL's SFTTrainer with packing False and max_seq_length, a dataset_mixer over local feedback data, an accelerate DeepSpeed ZeRO-3 config with 16 processes; Prometheus 2 absolute-grading evaluator SFT of Mistral-7B-Instruct-v0.2, LLM fine-tuning). Not labelled: data.pin_memory (the installed transformers' default), data.padding (the installed TRL's collator)")

CL=("facebookresearch/CutLER","cca0a270cf68399efc8fd50df426b6d806e39416")
clc="model_zoo/configs/CutLER-ImageNet/cascade_mask_rcnn_R_50_FPN.yaml"
J("cutler-cascade-r50-imagenet-sbatch-srun-detectron2-8gpu",*CL,["cutler"],"cutler",["tools/train-1node.sh","--","--config-file",clc,"MODEL.WEIGHTS","/path/to/dino/d2format/model","OUTPUT_DIR","output/"],{
 "dist.world_size":T(8,"tools/train-1node.sh:4-5,12 one node, srun -> tools/single-node_run.sh:9 train_net.py --num-gpus 8 --num-machines 1 -> train_net.py:170 launch: 8 processes"),
 "dist.nodes":T(1,"tools/train-1node.sh:4 #SBATCH --nodes=1; tools/single-node_run.sh:9 --num-machines 1"),
 "dist.devices_per_node":T(8,"tools/single-node_run.sh:9 --num-gpus 8 (tools/train-1node.sh:5-6 --gres=gpu:8)"),
 "dist.sharding":T("ddp","engine/defaults.py:64-78 create_ddp_model: DistributedDataParallel when more than one process"),
 "batch.micro":T(2,clc+":38 SOLVER.IMS_PER_BATCH 16 is the total over all processes: 16 // 8 = 2 images per GPU"),
 "batch.grad_accum":T(1,"engine/train_loop.py CustomAMPTrainer: one optimizer step per iteration"),
 "batch.global":T(16,clc+":38 SOLVER.IMS_PER_BATCH 16"),
 "precision.mode":T("amp_fp16",clc+":49-50 SOLVER.AMP.ENABLED True -> engine/defaults.py:391-392 CustomAMPTrainer (engine/train_loop.py:314-325 autocast + GradScaler over fp32 weights)",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("SGD","solver/build.py:116-129 build_optimizer torch.optim.SGD with gradient clipping",any_of=["SGD","sgd"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in the ResNet-50 FPN cascade model"),
 "data.num_workers":T(0,clc+":9 DATALOADER.NUM_WORKERS 0"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full training from a DINO ResNet-50 ("+clc+":13 MODEL.WEIGHTS, replaced on the command line)"),
},held_out=True,note=H44+"; README.md:153-160 'cd cutler; sbatch tools/train-1node.sh --config-file model_zoo/configs/CutLER-ImageNet/cascade_mask_rcnn_R_50_FPN.yaml MODEL.WEIGHTS /path/to/dino/d2format/model OUTPUT_DIR output/' (an sbatch script with #SBATCH --nodes/--gres/--gpus-per-node headers whose body is 'srun tools/single-node_run.sh $@', a second script building the dist URL from scontrol and calling train_net.py --num-gpus 8 --num-machines 1 --machine-rank $SLURM_NODEID; a detectron2 project that vendors its own engine/ and solver/ (DefaultTrainer, CustomAMPTrainer, build_optimizer) with a yacs _BASE_ chain, copy-paste augmentation and a DropLoss cascade head; CutLER self-supervised class-agnostic instance segmentation on ImageNet pseudo-masks from MaskCut, vision). Not labelled: data.image_size (multi-scale, shorter side 240-1024), data.pin_memory (detectron2's loader), model.num_parameters (not stated)")

FN=("microsoft/FocalNet","e8514bdcfe1eb6e7e110403e9f2972c67dfed1c3")
fnc="configs/focalnet_tiny_srf.yaml"
J("focalnet-tiny-srf-imagenet-swin-style-distributed-launch-apex-8gpu",*FN,["."],".",["--","python","-m","torch.distributed.launch","--nproc_per_node","8","--master_port","12345",
 "main.py","--cfg",fnc,"--data-path","/path/to/imagenet","--batch-size","128"],{
 "model.num_parameters":T(28400000,"README.md:71 FocalNet-T (SRF) #Params 28.4M",rel_tol=0.1),
 "dist.world_size":T(8,"--nproc_per_node 8"),
 "dist.nodes":T(1,"no --nnodes: one node"),
 "dist.devices_per_node":T(8,"--nproc_per_node 8"),
 "dist.sharding":T("ddp","main.py:92 torch.nn.parallel.DistributedDataParallel"),
 "batch.micro":T(128,"--batch-size 128 (main.py:47 'batch size for single GPU') -> config.py:204-205 DATA.BATCH_SIZE -> data/build.py:43-47 DataLoader(batch_size=128)"),
 "batch.grad_accum":T(1,"config.py:98 TRAIN.ACCUMULATION_STEPS 0 -> main.py:175,195-200 zero_grad, backward and step every iteration"),
 "batch.global":T(1024,"128 x 1 x 8"),
 "data.image_size":T(224,"config.py:29 DATA.IMG_SIZE 224 (not set in "+fnc+")"),
 "precision.mode":T("amp_fp16","main.py:59 --amp-opt-level default O1 -> config.py:220-221 -> main.py:90-91 apex amp.initialize(opt_level='O1') (fp16 casts over fp32 master weights)",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW","config.py:113 TRAIN.OPTIMIZER.NAME 'adamw' -> optimizer.py:29-30 optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"config.py:101 TRAIN.USE_CHECKPOINT False, --use-checkpoint not passed"),
 "data.num_workers":T(8,"config.py:40 DATA.NUM_WORKERS 8 -> data/build.py:46"),
 "data.pin_memory":T(True,"config.py:38 DATA.PIN_MEMORY True -> data/build.py:47"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H44+"; classification/README.md:41-46 'FocalNet-T (SRF): python -m torch.distributed.launch --nproc_per_node 8 --master_port 12345 main.py --cfg configs/focalnet_tiny_srf.yaml --data-path <imagenet-path> --batch-size 128' with the data path filled, run from the repository root where main.py and configs/ live (the Swin-Transformer training code: argparse with a required --local_rank for the legacy launcher, a yacs config of defaults merged from the YAML and the arguments, apex amp with an O1 default opt level, DDP, timm mixup and label smoothing; FocalNet-T with small receptive field on ImageNet-1k, vision classification)")

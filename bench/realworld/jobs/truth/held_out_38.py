"""The thirty-eighth held-out set of the jobs benchmark (run.py --set held-out-38): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them. Every repository was grepped (owner/name and
the bare name) in bench/, docs/, tests/, calibration/, preflight/ and adapters/ and found nowhere
before it was taken. Parameter counts are labelled only where the repository or its model card
states them or they follow from a published checkpoint's size."""
from .core import J, T

H38="thirty-eighth held-out set"
VT=("ylacombe/finetune-hf-vits","6f3f51f4d667f5c3eef89484d151ffd39d2c2b89")
vtr="run_vits_finetuning.py"
J("finetune-hf-vits-english-welsh-accelerate-json-config",*VT,["."],".",["--","accelerate","launch",vtr,"./training_config_examples/finetune_english.json"],{
 "model.ref":T("ylacombe/vits-ljs-with-discriminator","training_config_examples/finetune_english.json:23 model_name_or_path -> "+vtr+":803 VitsModelForPreTraining.from_pretrained",any_of=["ylacombe/vits-ljs-with-discriminator"]),
 "dist.nodes":T(1,"accelerate launch with no --num_machines and no config file: one machine"),
 "batch.micro":T(16,"training_config_examples/finetune_english.json:32 per_device_train_batch_size 16 -> "+vtr+":905-909 DataLoader(batch_size=16)"),
 "batch.grad_accum":T(1,"finetune_english.json:30 gradient_accumulation_steps 1 -> "+vtr+":874-875 Accelerator(gradient_accumulation_steps=1)"),
 "precision.mode":T("fp32","finetune_english.json:52 fp16 true is only logged ("+vtr+":560): "+vtr+":874-879 Accelerator() gets no mixed_precision and the launch passes none, no autocast"),
 "optimizer.name":T("AdamW",vtr+":962 torch.optim.AdamW for the generator (and :969 a second AdamW for the discriminator)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"finetune_english.json:31 gradient_checkpointing false ("+vtr+":890-891)"),
 "data.num_workers":T(0,vtr+":910 num_workers=training_args.dataloader_num_workers, TrainingArguments default 0 (preprocessing_num_workers 4 is datasets.map)"),
 "data.pin_memory":T(False,vtr+":905-911 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tuning of the VITS generator with its discriminator"),
},held_out=True,note=H38+"; README.md:172-177 accelerate launch run_vits_finetuning.py ./training_config_examples/finetune_english.json (HfArgumentParser over a TrainingArguments subclass read from a single JSON file, a hand-written accelerate loop with a generator and a discriminator each with its own AdamW; VITS text-to-speech fine-tuning on a Welsh-accent English dialect, audio). Not labelled: dist.world_size / devices_per_node / sharding / batch.global (accelerate launch with no config file and no --num_processes uses the machine's GPU count), model.num_parameters (not stated for the checkpoint with its discriminator)")
CL=("LAION-AI/CLAP","1fd4c37df5ffbfcfbad5415c170bc66cf94c9994")
clm="src/laion_clap/training/"
J("laion-clap-htsat-tiny-roberta-clotho-webdataset-1gpu",*CL,["."],"src",["--","python","-m","laion_clap.training.main","--save-frequency","5","--save-top-performance","3","--save-most-recent","--dataset-type=webdataset","--datasetpath=/data/clap","--precision=fp32","--batch-size=96","--lr=1e-4","--wd=0.0","--epochs=45","--workers=6","--use-bn-sync","--amodel","HTSAT-tiny","--tmodel","roberta","--warmup","3200","--datasetnames","Clotho","--datasetinfos","train","--top-k-checkpoint-select-dataset=Clotho-test","--top-k-checkpoint-select-metric=mAP@10","--logs","logs","--seed","3407","--gather-with-grad","--optimizer","adam","--data-filling","repeatpad","--data-truncating","rand_trunc","--pretrained-audio","/ckpt/HTSAT-fullset-imagenet-map=0.467.ckpt","--prefetch-factor","2"],{
 "dist.world_size":T(1,"README.md:181 'To train on a single GPU machine, use CUDA_VISIBLE_DEVICES=0 python -m ...': one process ("+clm+"main.py:160 world_info_from_env -> 1)"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,"one process"),
 "dist.sharding":T("none",clm+"main.py:268-276 DDP only when distributed; one process"),
 "batch.micro":T(96,"experiment_scripts/train-only-clotho.sh:8 --batch-size=96 -> "+clm+"data.py:713 wds.batched(96) per GPU"),
 "batch.grad_accum":T(1,"no accumulation in "+clm+"train.py: the optimizer steps every batch"),
 "batch.global":T(96,"96 x 1 x 1"),
 "precision.mode":T("fp32","experiment_scripts/train-only-clotho.sh:7 --precision=fp32 ("+clm+"train.py:51 autocast only for amp; main.py:427 no GradScaler)"),
 "optimizer.name":T("Adam","experiment_scripts/train-only-clotho.sh:24 --optimizer adam -> src/laion_clap/clap_module/utils.py:383-384 optim.Adam",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing flag"),
 "data.num_workers":T(6,"experiment_scripts/train-only-clotho.sh:12 --workers=6 -> "+clm+"data.py:759-763 WebLoader(num_workers=6)"),
 "data.pin_memory":T(True,clm+"data.py:764 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training the audio and text towers (audio tower initialised from an HTSAT checkpoint)"),
},held_out=True,note=H38+"; experiment_scripts/train-only-clotho.sh:1-28 python -m laion_clap.training.main ... (its srun prefix-less form; README.md:178-181 single GPU: CUDA_VISIBLE_DEVICES=0 python -m ...), run from src/ with the data and checkpoint placeholders filled in (the open_clip code base: argparse with dashes, a WebDataset pipeline batched inside the dataset, HTSAT audio encoder + RoBERTa text encoder; CLAP contrastive language-audio pre-training on Clotho, audio). Not labelled: model.ref (two towers: HTSAT-tiny from a local checkpoint and roberta-base), model.num_parameters (not stated), data.seq_len (10 s of 48 kHz audio and 77 text tokens)")
FC=("NVlabs/FourCastNet","93360c1720a9f97aabf970689f21c9fad8737788")
fcy="config/AFNO.yaml"
J("fourcastnet-afno-backbone-era5-srun-amp-ddp-4gpu",*FC,["."],".",["interactive_train.sh"],{
 "dist.world_size":T(4,"interactive_train.sh:7,12 srun -n $ngpu=4 -> export_DDP_vars.sh:4 WORLD_SIZE=$SLURM_NTASKS -> train.py:546-548"),
 "dist.nodes":T(1,"interactive_train.sh:12 srun -n 4 --gpus-per-node 4: the four tasks of one node"),
 "dist.devices_per_node":T(4,"interactive_train.sh:12 --gpus-per-node 4"),
 "dist.sharding":T("ddp","train.py:156-159 DistributedDataParallel when dist.is_initialized()"),
 "batch.micro":T(16,fcy+":66 afno_backbone batch_size 64 is the global batch: train.py:558-559 batch_size = 64 // world_size 4 = 16 -> utils/data_loader_multifiles.py:66-67 DataLoader(batch_size=16)"),
 "batch.grad_accum":T(1,"train.py:291-296 backward and optimizer step every batch"),
 "batch.global":T(64,"16 x 1 x 4 ("+fcy+":66 batch_size 64, train.py:558 global_batch_size)"),
 "precision.mode":T("amp_fp16","interactive_train.sh:10 --enable_amp -> train.py:153-154 amp.GradScaler, :272 amp.autocast(True)",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("FusedAdam",fcy+":52 optimizer_type 'FusedAdam' (full_field, inherited by afno_backbone through <<: *FULL_FIELD) -> train.py:148-149 apex optimizers.FusedAdam",any_of=["FusedAdam","fusedadam","Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(4,fcy+":6 num_data_workers 4 -> utils/data_loader_multifiles.py:68"),
 "data.pin_memory":T(True,"utils/data_loader_multifiles.py:72 pin_memory=torch.cuda.is_available(), True on the GPU nodes"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H38+"; interactive_train.sh:1-12 (a shell script of shell variables and an srun -n 4 of shifter bash -c 'source export_DDP_vars.sh && python train.py --enable_amp --yaml_config=./config/AFNO.yaml --config=afno_backbone --run_num=check'; README.md:106 points at the Slurm scripts; a YAML file of named sections with anchors and <<: merge keys, the global batch divided by the world size in train.py, apex FusedAdam; FourCastNet AFNO global weather forecasting on ERA5, science). Not labelled: model.num_parameters (not stated), data.image_size (720 x 1440 ERA5 fields, 20 channels)")
ED=("ehoogeboom/e3_diffusion_for_molecules","fce07d701a2d2340f3522df588832c2c0f7e044a")
J("edm-egnn-qm9-equivariant-diffusion-argparse-dataparallel",*ED,["."],".",["main_qm9.py","--","--n_epochs","3000","--exp_name","edm_qm9","--n_stability_samples","1000","--diffusion_noise_schedule","polynomial_2","--diffusion_noise_precision","1e-5","--diffusion_steps","1000","--diffusion_loss_type","l2","--batch_size","64","--nf","256","--n_layers","9","--lr","1e-4","--normalize_factors","[1,4,10]","--test_epochs","20","--ema_decay","0.9999"],{
 "dist.nodes":T(1,"one process (main_qm9.py:216-219 torch.nn.DataParallel over the visible GPUs when --dp, default True, and more than one GPU)"),
 "batch.micro":T(64,"--batch_size 64 -> qm9/dataset.py:32-33 DataLoader(batch_size=64), one loader for the single process"),
 "batch.grad_accum":T(1,"train_test.py:57-64 backward and optim.step every batch"),
 "precision.mode":T("fp32","main_qm9.py:130 dtype = torch.float32, no autocast"),
 "optimizer.name":T("AdamW","main_qm9.py:195 get_optim -> qm9/models.py:53-56 torch.optim.AdamW(amsgrad=True)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(0,"main_qm9.py:92 --num_workers default 0 -> qm9/dataset.py:35"),
 "data.pin_memory":T(False,"qm9/dataset.py:32-36 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H38+"; README.md:15 python main_qm9.py --n_epochs 3000 --exp_name edm_qm9 ... --batch_size 64 --nf 256 --n_layers 9 ... --ema_decay 0.9999 (argparse with type=eval booleans, nn.DataParallel in one process rather than DDP, an EMA copy; EDM E(3)-equivariant diffusion for 3D molecule generation on QM9, science). Not labelled: dist.world_size / devices_per_node / sharding / batch.global (DataParallel over however many GPUs the machine shows), model.num_parameters (not stated)")
TD=("guanjq/targetdiff","142f1eb7178480d435fe0b8cb95a99beb48997c7")
tdt="scripts/train_diffusion.py"
J("targetdiff-crossdocked-pocket-diffusion-yaml-pyg-1gpu",*TD,["."],".",[tdt,"--","configs/training.yml"],{
 "dist.world_size":T(1,tdt+": one process on args.device, no distributed code"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(4,"configs/training.yml:46 train.batch_size 4 -> "+tdt+":89-91 torch_geometric DataLoader(batch_size=4)"),
 "batch.grad_accum":T(1,"configs/training.yml:48 n_acc_batch 1 -> "+tdt+":119-137 one batch per optimizer step"),
 "batch.global":T(4,"4 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","configs/training.yml:55 optimizer.type adam -> "+tdt+":112 utils/train.py:57 torch.optim.Adam",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(4,"configs/training.yml:47 train.num_workers 4 -> "+tdt+":93"),
 "data.pin_memory":T(False,tdt+":89-96 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H38+"; README.md:86 python scripts/train_diffusion.py configs/training.yml (a positional YAML path read into an EasyDict, a PyTorch Geometric DataLoader over protein-ligand graphs, gradient accumulation as an inner loop of next() calls on an infinite iterator; TargetDiff 3D equivariant diffusion for target-aware molecule generation on CrossDocked2020, science). Not labelled: model.num_parameters (not stated)")
SE=("jasonkyuyim/se3_diffusion","53359d71cfabc819ffaa571abd2cef736c871a5d")
set_="experiments/train_se3_diffusion.py"
J("framediff-se3-diffusion-pdb-hydra-dataparallel-2gpu",*SE,["."],".",[set_],{
 "dist.nodes":T(1,"config/base.yaml:75 use_ddp False: one process ("+set_+":268-288 nn.DataParallel over num_gpus 2 GPUs)"),
 "batch.grad_accum":T(1,set_+":324-325 backward and optimizer.step every batch"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam",set_+":139-140 torch.optim.Adam(lr=experiment.learning_rate 1e-4)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(5,"config/base.yaml:80 experiment.num_loader_workers 5 -> "+set_+":211-219 -> data/utils.py:428"),
 "data.pin_memory":T(False,"data/utils.py:422-433 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H38+"; README.md:228-235 python experiments/train_se3_diffusion.py ('By default we use 2 GPUs ... num_gpus in base.yml'; a Hydra entry point with config/base.yaml and a joblib launcher override, nn.DataParallel in one process unless use_ddp, a cluster/time sampler with a collate that cuts each batch of 256 same-length proteins down to max_squared_res / length^2; FrameDiff SE(3) diffusion for protein backbone generation on the PDB, science). Not labelled: dist.world_size / devices_per_node / sharding (one process driving two GPUs through DataParallel), batch.micro / global (config/base.yaml:79 batch_size 256 is cut per batch by data/utils.py length_batching to max_squared_res 500000 / length^2), model.num_parameters (not stated)")
AF=("bjing2016/alphaflow","796971961368c9bd1504b3d57c5348a3d1d4ecaa")
J("alphaflow-pdb-flow-matching-alphafold-lightning-accum8",*AF,["."],".",["train.py","--","--lr","5e-4","--noise_prob","0.8","--accumulate_grad","8","--train_epoch_len","80000","--train_cutoff","2018-05-01","--filter_chains","--train_data_dir","/data/pdb_npz","--train_msa_dir","/data/openproteinset","--mmcif_dir","/data/pdb_mmcif","--val_msa_dir","/data/val_msa","--run_name","alphaflow_pdb"],{
 "dist.nodes":T(1,"train.py:107-122 pl.Trainer without num_nodes"),
 "batch.micro":T(1,"alphaflow/utils/parsing.py:19 --batch_size default 1 -> train.py:98-100 DataLoader(batch_size=1)"),
 "batch.grad_accum":T(8,"--accumulate_grad 8 -> train.py:120 Trainer(accumulate_grad_batches=8)"),
 "precision.mode":T("fp32","train.py:107-122 Trainer without precision: 32-bit (train.py:16 only sets TF32 matmul precision 'high'; model_config(low_prec=True) changes epsilons, not dtypes)",any_of=["fp32","tf32"]),
 "optimizer.name":T("Adam","alphaflow/model/wrapper.py:448-450 configure_optimizers torch.optim.Adam",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(True,"train.py:21-25 model_config(train=True) -> alphaflow/config.py:168-169 globals.blocks_per_ckpt = 1: OpenFold activation checkpointing of every Evoformer block"),
 "data.num_workers":T(8,"alphaflow/utils/parsing.py:22 --num_workers default 8 -> train.py:102"),
 "data.pin_memory":T(False,"train.py:98-104 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","train.py:139-143 full fine-tuning of AlphaFold from params_model_1.npz"),
},held_out=True,note=H38+"; README.md:148-156 python train.py --lr 5e-4 --noise_prob 0.8 --accumulate_grad 8 --train_epoch_len 80000 --train_cutoff 2018-05-01 --filter_chains --train_data_dir [DIR] ... --run_name [NAME], taken with the directories filled in (argparse in a module of the package, OpenFold's ml_collections config with a train flag that turns on checkpointing, a PyTorch Lightning Trainer with accelerator='gpu' and no devices, AlphaFold weights imported from JAX .npz; AlphaFlow flow-matching fine-tuning of AlphaFold for protein conformational ensembles on the PDB, science). Not labelled: dist.world_size / devices_per_node / sharding / batch.global (Trainer devices 'auto': every visible GPU), model.ref (JAX params_model_1.npz from a local file), model.num_parameters (not stated)")
IV=("yisol/IDM-VTON","0d5f3ec2d737487a9bb24e4100936ad254780383")
ivt="train_xl.py"
J("idm-vton-sdxl-inpaint-tryon-accelerate-8bit-adam-4gpu",*IV,["."],".",["train_xl.sh"],{
 "model.ref":T("diffusers/stable-diffusion-xl-1.0-inpainting-0.1",ivt+":257 --pretrained_model_name_or_path default -> :329 UNet2DConditionModel.from_pretrained(subfolder='unet'), the UNet trained (:394); the garment UNet of :323 (stabilityai/stable-diffusion-xl-base-1.0) is frozen",any_of=["diffusers/stable-diffusion-xl-1.0-inpainting-0.1"]),
 "dist.world_size":T(4,"train_xl.sh:1 CUDA_VISIBLE_DEVICES=0,1,2,3 accelerate launch with no config file and no --num_processes: one process per visible GPU, 4"),
 "dist.nodes":T(1,"one machine"),
 "dist.devices_per_node":T(4,"CUDA_VISIBLE_DEVICES=0,1,2,3"),
 "dist.sharding":T("ddp","accelerate multi-GPU without DeepSpeed/FSDP: DDP ("+ivt+" accelerator.prepare)"),
 "batch.micro":T(6,"train_xl.sh:1 --train_batch_size=6 -> "+ivt+":441-445 DataLoader(batch_size=6)"),
 "batch.grad_accum":T(1,ivt+":265 --gradient_accumulation_steps default 1 -> :306-308 Accelerator"),
 "batch.global":T(24,"6 x 1 x 4"),
 "precision.mode":T("fp32",ivt+":279 --mixed_precision default None -> :306-307 Accelerator takes the launch's, which is 'no' without a config file; :377 weight_dtype float32, the trained UNet in fp32 (the VAE alone loaded in fp16, :322)"),
 "optimizer.name":T("AdamW8bit","train_xl.sh:1 --use_8bit_adam -> "+ivt+":420 bnb.optim.AdamW8bit",any_of=["AdamW8bit","adamw_8bit","adamw8bit","adamw_bnb_8bit"]),
 "memory.gradient_checkpointing":T(True,"train_xl.sh:1 --gradient_checkpointing -> "+ivt+":407-409 unet.enable_gradient_checkpointing()"),
 "data.num_workers":T(16,ivt+":446 num_workers=16"),
 "data.pin_memory":T(True,ivt+":443 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none",ivt+":394 the whole try-on UNet trained (with the IP-Adapter image projection, :355)"),
},held_out=True,note=H38+"; README.md:104-117 'sh train_xl.sh': CUDA_VISIBLE_DEVICES=0,1,2,3 accelerate launch train_xl.py --gradient_checkpointing --use_8bit_adam --output_dir=result --train_batch_size=6 --data_dir=... (the script's one line ends in a stray ``` glued to the data path; a diffusers-style accelerate script with five pretrained models of which only the SDXL inpainting UNet and an IP-Adapter projection train, bitsandbytes 8-bit AdamW; IDM-VTON virtual try-on diffusion on VITON-HD, vision). Not labelled: model.num_parameters (the trained UNet beside four frozen models), data.image_size (768 x 1024, "+ivt+":263-264)")
DG=("Zhendong-Wang/Diffusion-GAN","2ca5e7aa21f07a3ff0e78966e5796c580126c14f")
dgp="diffusion-projected-gan/"
J("diffusion-projectedgan-fastgan-cifar10-click-mp-spawn-4gpu",*DG,["diffusion-projected-gan"],"diffusion-projected-gan",["train.py","--","--outdir=training-runs","--data=~/cifar10.zip","--gpus=4","--batch","64","--batch-gpu=16","--cfg","fastgan","--kimg","50000","--target","0.45","--d_pos","first","--noise_sd","0.5"],{
 "dist.world_size":T(4,"--gpus=4 -> "+dgp+"train.py:103 torch.multiprocessing.spawn(nprocs=4), :38 init_process_group(world_size=4)"),
 "dist.nodes":T(1,"one machine"),
 "dist.devices_per_node":T(4,"--gpus=4"),
 "dist.sharding":T("ddp",dgp+"training/training_loop.py:320 gradients all-reduced by hand across the 4 replicas (no DDP wrapper, the same replicated data parallelism)"),
 "batch.micro":T(16,"--batch-gpu=16 ("+dgp+"train.py:189); "+dgp+"training/training_loop.py:151 DataLoader(batch_size=64 // 4 = 16)"),
 "batch.grad_accum":T(1,"--batch 64 = 16 x 4: one round per step ("+dgp+"train.py:205 batch must be a multiple of gpus x batch_gpu)"),
 "batch.global":T(64,"--batch 64 ("+dgp+"train.py:133 'Total batch size')"),
 "data.image_size":T(32,"--data ~/cifar10.zip: the 32x32 CIFAR-10 images (README.md:91-92 the CIFAR-10 example)"),
 "precision.mode":T("fp32","--cfg fastgan: "+dgp+"train.py:218-222 the FastGAN generator has no fp16 layers, and nothing in "+dgp+"pg_modules or training/ autocasts"),
 "optimizer.name":T("Adam",dgp+"train.py:173-174 G and D opt_kwargs class_name 'torch.optim.Adam'",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(3,dgp+"train.py:163 --workers default 3 -> :200 data_loader_kwargs.num_workers"),
 "data.pin_memory":T(True,dgp+"train.py:175 data_loader_kwargs pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H38+"; README.md:98-101 'For Diffusion-ProjectedGAN': python train.py --outdir=training-runs --data=\"~/cifar10.zip\" --gpus=4 --batch 64 --batch-gpu=16 --cfg fastgan --kimg 50000 --target 0.45 --d_pos first --noise_sd 0.5, run from diffusion-projected-gan/ (the StyleGAN3/Projected GAN code base: click options, dnnlib EasyDicts naming classes by string, torch.multiprocessing.spawn with hand-written gradient all-reduce, G and D each with its own Adam; Diffusion-GAN, a GAN whose discriminator sees diffusion-noised images, on CIFAR-10, vision). Not labelled: model.num_parameters (not stated)")
PG=("yxuansu/PandaGPT","9b77e0412d42a468362b67d1892ff0f4f659a4f5")
pgd="code/dsconfig/openllama_peft_stage_1.json"
J("pandagpt-vicuna13b-imagebind-lora-deepspeed-zero2-offload-8gpu",*PG,["code","data","pretrained_ckpt"],"code",["scripts/train.sh"],{
 "dist.world_size":T(8,"code/scripts/train.sh:3 deepspeed --include localhost:0,1,2,3,4,5,6,7: eight processes"),
 "dist.nodes":T(1,"--include localhost only"),
 "dist.devices_per_node":T(8,"localhost:0-7"),
 "dist.sharding":T("zero2",pgd+":8 zero_optimization.stage 2 (train_sft.py:56 dsconfig/{model}_stage_{stage}.json -> model/agent.py:14-21 deepspeed.initialize)",any_of=["zero2","zero_2","deepspeed_zero2"]),
 "batch.micro":T(1,pgd+":3 train_micro_batch_size_per_gpu 1 (code/datasets/__init__.py:25-37 a batch sampler of world_size x 1 split across ranks)"),
 "batch.grad_accum":T(8,pgd+":4 gradient_accumulation_steps 8"),
 "batch.global":T(64,pgd+":2 train_batch_size 64 = 1 x 8 x 8"),
 "precision.mode":T("fp16",pgd+":16-17 fp16.enabled true (the bf16 block's 'enable' is a misspelt key, so DeepSpeed's fp16 mixed precision with loss scaling)",any_of=["fp16","amp_fp16"]),
 "optimizer.name":T("Adam",pgd+":24-25 optimizer.type Adam with CPU offload (:9-11): DeepSpeedCPUAdam",any_of=["Adam","adam","AdamW","adamw","DeepSpeedCPUAdam"]),
 "memory.gradient_checkpointing":T(False,pgd+":45-52 activation_checkpointing only configures deepspeed.checkpointing, which code/model/openllama.py never calls; no gradient_checkpointing_enable"),
 "dist.offload_optimizer":T("cpu",pgd+":9-11 offload_optimizer.device cpu"),
 "data.num_workers":T(1,"code/datasets/__init__.py:36 num_workers=1"),
 "data.pin_memory":T(True,"code/datasets/__init__.py:38 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("lora","code/model/openllama.py:95-101 LoraConfig(r=32, lora_alpha=32, q/k/v/o_proj) from code/config/openllama_peft.yaml:12-14",any_of=["lora"]),
},held_out=True,note=H38+"; README.md:184-191 cd ./code; ./scripts/train.sh -> deepspeed --include localhost:0,1,2,3,4,5,6,7 ... train_sft.py --model openllama_peft --stage 1 ... --vicuna_ckpt_path ../pretrained_ckpt/vicuna_ckpt/13b_v0/ --max_tgt_len 400 (the shell script's continuation backslashes follow the arguments without a space; the DeepSpeed JSON picked by an f-string over --model and --stage, a YAML of LoRA settings, ImageBind-huge frozen as the multimodal encoder with a trained linear projection into a LoRA-adapted Vicuna-13B; PandaGPT multimodal instruction tuning, LLM + vision/audio). Not labelled: model.ref (a local Vicuna-13B v0 folder built from LLaMA deltas), model.num_parameters (Vicuna-13B plus the frozen ImageBind-huge), data.seq_len (--max_tgt_len 400 cuts the padded text after the image prefix)")
CN=("LinkSoul-AI/Chinese-Llama-2-7b","a2749381e5fe8c830d0c3c8d923407d9d936a6c8")
J("chinese-llama2-7b-sft-torchrun-hf-trainer-fsdp-full-shard-8gpu",*CN,["."],".",["--","torchrun","--nnodes=1","--node_rank=0","--nproc_per_node=8","--master_port=25003","train.py","--model_name_or_path","meta-llama/Llama-2-7b-hf","--data_path","LinkSoul/instruction_merge_set","--data_cache_path","hf_datasets_cache","--bf16","True","--output_dir","./checkpoints_llama2","--num_train_epochs","1","--per_device_train_batch_size","4","--per_device_eval_batch_size","4","--gradient_accumulation_steps","1","--evaluation_strategy","no","--save_strategy","steps","--save_steps","1200","--save_total_limit","5","--learning_rate","2e-5","--weight_decay","0.","--warmup_ratio","0.03","--lr_scheduler_type","cosine","--logging_steps","1","--fsdp","full_shard auto_wrap","--fsdp_transformer_layer_cls_to_wrap","LlamaDecoderLayer","--tf32","True","--model_max_length","4096","--gradient_checkpointing","True"],{
 "model.ref":T("meta-llama/Llama-2-7b-hf","README.md:151 MODEL_PATH='/PATH/TO/TRANSFORMERS/VERSION/LLAMA2' filled in with the transformers-format Llama-2 7B -> train.py:252-255 AutoModelForCausalLM.from_pretrained",any_of=["meta-llama/Llama-2-7b-hf","meta-llama/Llama-2-7b"]),
 "model.num_parameters":T(6738415616,"Llama-2-7B: 6,738,415,616",rel_tol=0.05),
 "dist.world_size":T(8,"README.md:154 torchrun --nnodes=1 --nproc_per_node=8"),
 "dist.nodes":T(1,"--nnodes=1"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("fsdp_full","README.md:175 --fsdp 'full_shard auto_wrap' (Trainer FSDP FULL_SHARD, LlamaDecoderLayer wrapping)",any_of=["fsdp_full"]),
 "batch.micro":T(4,"--per_device_train_batch_size 4"),
 "batch.grad_accum":T(1,"--gradient_accumulation_steps 1"),
 "batch.global":T(32,"4 x 1 x 8"),
 "data.seq_len":T(4096,"--model_max_length 4096 -> train.py:260 tokenizer model_max_length -> :123-124 samples cut to 4096 tokens"),
 "data.padding":T("dynamic","train.py:190-199 the collator pads with pad_sequence to the longest sample of the batch"),
 "precision.mode":T("amp_bf16","--bf16 True over fp32 weights (train.py:252-255 from_pretrained without torch_dtype)",any_of=["amp_bf16","bf16"]),
 "optimizer.name":T("adamw_torch","train.py:56 optim default 'adamw_torch' in the TrainingArguments subclass",any_of=["adamw_torch","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,"--gradient_checkpointing True"),
 "data.num_workers":T(0,"no --dataloader_num_workers: TrainingArguments default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("none","full fine-tuning"),
},held_out=True,note=H38+"; README.md:146-180 torchrun --nnodes=1 --node_rank=0 --nproc_per_node=8 --master_port=25003 train.py --model_name_or_path ${MODEL_PATH} ... --bf16 True ... --fsdp 'full_shard auto_wrap' --fsdp_transformer_layer_cls_to_wrap 'LlamaDecoderLayer' --tf32 True --model_max_length 4096 --gradient_checkpointing True, taken with the shell variables filled in (MODEL_PATH a placeholder for a transformers Llama-2 folder, here meta-llama/Llama-2-7b-hf; the FastChat train.py pattern: HfArgumentParser over a TrainingArguments subclass, a lazily tokenising dataset, a flash-attention monkey patch applied at import (train.py:16-17), a Trainer subclass that saves FSDP full state dicts; Chinese instruction tuning of Llama-2-7B, LLM). Not labelled: model.attn_implementation (a monkey patch of LlamaAttention.forward rather than an attn_implementation argument)")
OP=("bigcode-project/octopack","e17a8f6470264286bc6a52eb8263582083bf3bf6")
osc="finetuning/santacoder/"
J("octopack-santacoder-line-diff-deepspeed-zero1-hf-trainer",*OP,["finetuning/santacoder"],"finetuning/santacoder",["finetune.sh"],{
 "model.ref":T("bigcode/santacoder",osc+"finetune.py:25 --model_path default bigcode/santacoder (finetune.sh passes none) -> :306-310 AutoModelForCausalLM.from_pretrained(trust_remote_code=True)",any_of=["bigcode/santacoder"]),
 "model.num_parameters":T(1125000000,"SantaCoder 1.1B (model card; from its config: 24 layers of 2,048 with multi-query attention, 49,280 tied embeddings, about 1.125B)",rel_tol=0.05),
 "dist.nodes":T(1,osc+"finetune.sh:1 deepspeed with no hostfile or --num_nodes: one machine"),
 "dist.sharding":T("zero1",osc+"finetune.sh:18 --deepspeed zero_stage1_config.json -> zero_stage1_config.json:22-23 zero_optimization.stage 1",any_of=["zero1","zero_1","deepspeed_zero1"]),
 "batch.micro":T(2,osc+"finetune.sh:5 --batch_size 2 -> finetune.py:324 per_device_train_batch_size=2"),
 "batch.grad_accum":T(4,osc+"finetune.sh:6 --gradient_accumulation_steps 4 -> finetune.py:329"),
 "data.seq_len":T(2000,osc+"finetune.sh:2,14 --max_input_length 2000 with --data_packing -> finetune.py:80-87 samples packed into 2,000-token windows"),
 "data.padding":T("packed",osc+"finetune.sh:14 --data_packing -> finetune.py:80-95",any_of=["packed"]),
 "precision.mode":T("bf16",osc+"finetune.sh:13 --bf16 -> finetune.py:332 TrainingArguments(bf16=True) with zero_stage1_config.json:2-4 bf16.enabled: DeepSpeed bf16",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("AdamW",osc+"zero_stage1_config.json:5-11 optimizer.type AdamW (torch_adam, adam_w_mode)",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(False,osc+"finetune.py:50 --gradient_checkpointing not passed"),
 "data.num_workers":T(0,osc+"finetune.py:317-337 TrainingArguments without dataloader_num_workers: 0 (--num_workers 8 is the num_proc of datasets.map, :152,263)"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("none","full fine-tuning"),
},held_out=True,note=H38+"; README.md:224-226 'The finetuning script for santacoder is at finetuning/santacoder/finetune.py': finetuning/santacoder/finetune.sh, deepspeed finetune.py --max_input_length 2000 --dataset_name bigcode/commits-pjj-2048 ... --batch_size 2 --gradient_accumulation_steps 4 --bf16 --data_packing ... --deepspeed zero_stage1_config.json, run from its folder (argparse flags copied by hand into a TrainingArguments(...) call, a DeepSpeed JSON of 'auto' values, packing in the tokenising map, a module-level tokenizer; OctoPack line-diff commit fine-tuning of SantaCoder, code LLM). Not labelled: dist.world_size / devices_per_node / batch.global (the deepspeed launcher with no --num_gpus or --include takes every GPU of the machine)")

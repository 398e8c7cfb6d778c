"""The forty-first held-out set of the jobs benchmark (run.py --set held-out-41): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them. No repository is used by another jobs set
(bench/realworld/jobs/manifest.json, /work/wt/all_repos.txt, and the dropped draft of set 31,
first_scoring_held_out_31_draft.json); each owner/name and bare name was grepped in bench/, docs/,
tests/, calibration/, preflight/ and adapters/ before it was taken, and where a name appears there
(other corpora) the set's docs section says so.
Parameter counts are labelled only where the repository states them, a published checkpoint's
size gives them, or they follow by arithmetic from the shapes the code builds."""
from .core import J, T

H41="forty-first held-out set"
PP=("nikhilbarhate99/PPO-PyTorch","728cce83d7ab628fe2634eabcdf3239997eb81dd")
J("ppo-pytorch-roboschool-walker-module-constants-1gpu",*PP,["."],".",["train.py"],{
 "dist.world_size":T(1,"one process, no launcher"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,"PPO.py:9-12 device cuda:0 when available -> :138,144 policy .to(device)"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(4000,"train.py:23,39 update_timestep = max_ep_len 1000 * 4 -> :187-189 ppo_agent.update() every 4,000 steps -> PPO.py:215-245 the whole rollout buffer (4,000 transitions) in each of the K_epochs=80 optimizer steps, then buffer.clear()"),
 "batch.grad_accum":T(1,"PPO.py:243-245 zero_grad, backward and step once per K epoch"),
 "batch.global":T(4000,"4,000 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half(); PPO.py:211 float32 tensors"),
 "optimizer.name":T("Adam","PPO.py:139-142 torch.optim.Adam with an actor and a critic parameter group",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H41+"; README.md:28 'To train a new network : run train.py' and :32 'All parameters and hyperparamters to control training ... are in their respective .py file': python train.py (no argparse at all: hyperparameters as local variables of train(), env_name RoboschoolWalker2d-v1, a module-level device picked at import of PPO.py, a rollout buffer of Python lists stacked into one full batch per update, a second policy_old copy loaded by state_dict; PPO with a Gaussian policy on Roboschool Walker2d, reinforcement learning). Not labelled: model.num_parameters (the input and output widths come from env.observation_space/env.action_space at run time, train.py:56-62), data.num_workers / data.pin_memory (no DataLoader)")
HR=("mariusbock/dl-for-har","1cbb2088b044cea9a7e0c90561f8bc592b8badc6")
hrt="model/train.py"
J("dl-for-har-deepconvlstm-wetlab-argparse-job-script-1gpu",*HR,["."],".",["main.py","--","--name","2x128_seed_1","--seed","1","--dataset","wetlab","--valid_type","cross-participant","--valid_epoch","last","--batch_size","100","--epochs","30","--weighted","--sw_length","50","--sw_unit","units","--sw_overlap","60","--nb_units_lstm","128","--nb_layers_lstm","2","--conv_block_type","normal","--nb_filters","64","--nb_conv_blocks","2","--drop_prob","0.5","--filter_width","11","--learning_rate","1e-4","--weight_decay","1e-06","--optimizer","adam","--weights_init","xavier_normal","--logging","--save_analysis"],{
 "dist.world_size":T(1,"one process, no launcher"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,"main.py:139,383 --gpu default 'cuda:0' -> "+hrt+":290 network.to(config['gpu'])"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(100,"--batch_size 100 (main.py:131,415 default 100 as well) -> "+hrt+":319-320 DataLoader(batch_size=100)"),
 "batch.grad_accum":T(1,hrt+":352-368 zero_grad, backward and step every batch"),
 "batch.global":T(100,"100 x 1 x 1"),
 "precision.mode":T("fp32","no autocast, GradScaler or half()"),
 "optimizer.name":T("Adam","--optimizer adam -> "+hrt+":224-225 torch.optim.Adam(lr=1e-4, weight_decay=1e-6)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(0,hrt+":319-320 DataLoader without num_workers"),
 "data.pin_memory":T(True,hrt+":320 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H41+"; README.md:97 'All terminal commands used during our experiments can be found in the corresponding job script file in the job_scripts folder': the first line of job_scripts/iswc-wetlab-jobs (argparse whose defaults are module-level constants of main.py, a cross-participant validation loop calling train() once per left-out subject, string-keyed optimizer/loss/scheduler factories, sliding windows cut from the sensor streams before a TensorDataset; DeepConvLSTM human activity recognition from wearable IMU data on Wetlab, time series). Not labelled: model.num_parameters (the input channel count and class count come from the dataset files), data.seq_len (windows of 50 sensor samples, not tokens)")
CG=("Namkyeong/CGIB","c10be3340c93247498d00576fdad784f3e357a65")
cgd="MolecularInteraction"
J("cgib-chromophore-absorption-graph-pairs-argparse-1gpu",*CG,[cgd],cgd,["main.py","--","--dataset","chr_abs","--lr","0.001","--epochs","500","--beta","1.0"],{
 "dist.world_size":T(1,"one process, no launcher"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,cgd+"/embedder.py:39-41 CUDA_VISIBLE_DEVICES and torch.cuda.set_device of one device (argument.py:8 --device default 3)"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(256,cgd+"/argument.py:18 --batch_size default 256 -> embedder.py:47 torch_geometric DataLoader(batch_size=256) (256 molecule pairs: solute and solvent graphs)"),
 "batch.grad_accum":T(1,cgd+"/models/CGIB.py:33-46 zero_grad, backward and step every batch"),
 "batch.global":T(256,"256 x 1 x 1"),
 "precision.mode":T("fp32","no autocast, GradScaler or half(); CGIB.py:37,41 targets .float()"),
 "optimizer.name":T("Adam",cgd+"/models/CGIB.py:20 optim.Adam(lr=0.001, weight_decay=0.0)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(0,cgd+"/embedder.py:47 DataLoader without num_workers"),
 "data.pin_memory":T(False,cgd+"/embedder.py:47 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H41+"; MolecularInteraction/README.md:12-33 'Following Options can be passed to main.py' with the usage examples --dataset chr_abs, --lr 0.001, --epochs 500, --beta 1.0, run from MolecularInteraction/ after data.py has built data/processed (argparse in argument.py, an embedder class chosen by --embedder default CGIB imported by name in main.py, a torch_geometric DataLoader over pairs of molecular graphs, a conditional graph information bottleneck with a KL term; chromophore absorption regression on molecule/solvent pairs, graph / chemistry). Not labelled: model.num_parameters (not stated)")
GD=("MinkaiXu/GeoDiff","ea0ca48045a2f7abfccd7f0df449e45eb6eae638")
gdc="configs/qm9_default.yml"
J("geodiff-qm9-conformer-diffusion-yaml-easydict-1gpu",*GD,["."],".",["train.py","--",gdc],{
 "dist.world_size":T(1,"one process, no launcher"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,"train.py:23 --device default 'cuda' -> :67 model.to(args.device)"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(64,gdc+":19 train.batch_size 64 -> train.py:37 EasyDict(yaml.safe_load) and :62 torch_geometric DataLoader(train_set, 64) (64 molecular conformer graphs)"),
 "batch.grad_accum":T(1,"train.py:90-108 zero_grad, backward and both optimizers' step every iteration"),
 "batch.global":T(64,"64 x 1 x 1"),
 "precision.mode":T("fp32","no autocast, GradScaler or half()"),
 "optimizer.name":T("Adam",gdc+":24-29 optimizer type adam -> train.py:70-71 get_optimizer -> utils/common.py:44-51 torch.optim.Adam(lr 1e-3, betas (0.95, 0.999)) for the global and the local encoder",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(0,"train.py:62 DataLoader without num_workers"),
 "data.pin_memory":T(False,"train.py:62 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H41+"; README.md:40-45 'You can train the model with the following commands: # Default settings python train.py ./config/qm9_default.yml' (the folder is configs/, README's ./config/ is a typo; argparse for the config path and device, the YAML read into an EasyDict, a model chosen by config.model.network, an infinite iterator over a torch_geometric loader, two Adam optimizers for the global and local encoders stepped together; GeoDiff geometric diffusion for molecular conformation generation on GEOM-QM9, diffusion / chemistry). Not labelled: model.num_parameters (not stated)")
NT=("PiotrNawrot/nanoT5","1375b389d33ab4f34754a9fca62e4cfa1dd52379")
ntc="nanoT5/configs/default.yaml"
ntm="nanoT5/utils/model_utils.py"
J("nanot5-t5-v1-1-base-c4-pretrain-hydra-accelerate-1gpu",*NT,["."],".",["--","python","-m","nanoT5.main","optim.name=adamwscale","optim.lr_scheduler=cosine"],{
 "model.ref":T("google/t5-v1_1-base",ntc+":15-16,22 model.klass local_t5, name google/t5-v1_1-base, random_init true -> "+ntm+":45-48 AutoConfig.from_pretrained and :30-31 MyT5(config) (randomly initialised)",any_of=["google/t5-v1_1-base"]),
 "model.num_parameters":T(247577856,"T5 v1.1 base: 247.6M parameters (google/t5-v1_1-base's config: d_model 768, 12+12 layers, d_ff 2048 gated, vocab 32,128, untied head); README.md:9 'T5-base-v1.1 (248M parameters)'",rel_tol=0.1),
 "dist.world_size":T(1,"python -m nanoT5.main with no launcher: one process (nanoT5/main.py:23-26 Accelerator in that process)"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,ntc+":8 device gpu -> nanoT5/main.py:24 Accelerator(cpu=False) on the one GPU of the single process"),
 "dist.sharding":T("none","one process, no DDP/FSDP/DeepSpeed"),
 "batch.micro":T(128,ntc+":34-41 optim.batch_size 128 // grad_acc 1 -> "+ntm+":188,197-204 DataLoader(batch_size=128)"),
 "batch.grad_accum":T(1,ntc+":41 optim.grad_acc 1 -> nanoT5/utils/train_utils.py:191-194"),
 "batch.global":T(128,"128 x 1 x 1"),
 "data.seq_len":T(512,ntc+":26 data.input_length 512 encoder tokens per example ("+ntm+":116-123 the span-corruption collator reads a longer raw span that masks down to 512)"),
 "precision.mode":T("bf16",ntc+":9 precision 'bf16' -> nanoT5/main.py:25 Accelerator(mixed_precision='bf16'): bf16 autocast over fp32 weights",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("AdamWScale","optim.name=adamwscale (also "+ntc+":32) -> "+ntm+":242-247 nanoT5/utils/copied_utils.py:243 AdamWScale",any_of=["AdamWScale","adamwscale"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in nanoT5/utils/t5_model.py"),
 "data.num_workers":T(8,ntc+":29 data.num_workers 8 -> "+ntm+":202"),
 "data.pin_memory":T(True,ntm+":203 pin_memory=True"),
 "compile.enabled":T(False,ntc+":23 model.compile false -> nanoT5/main.py:47-48"),
 "peft.method":T("none","pre-training from scratch"),
},held_out=True,note=H41+"; README.md:90-96 'To reproduce any of the experiments mentioned above choose any combination of hyperparameters as follows: python -m nanoT5.main optim.name={adafactor,adamwscale} optim.lr_scheduler={legacy,cosine}', here the adamwscale/cosine combination (Hydra @hydra.main over configs/default.yaml with task and local_env groups and hydra.job.chdir, a bare Accelerator with mixed_precision from the config, a hand-written T5 built from the Hub config, a streaming C4 dataset with a T5 span-corruption collator; T5 v1.1 base pre-training on C4, NLP). Not labelled: model.attn_implementation (a hand-written attention in nanoT5/utils/t5_model.py)")
CD=("txie-93/cdvae","f857f598d6f6cca5dc1ea0582d228f12dcc2c2ea")
cdt="conf/train/default.yaml"
cdd="conf/data/perov.yaml"
J("cdvae-perov-5-hydra-lightning-1-3-datamodule-1gpu",*CD,["."],".",["cdvae/run.py","--","data=perov","expname=perov"],{
 "dist.world_size":T(1,cdt+":9 pl_trainer.gpus 1 -> cdvae/run.py:141-150 pl.Trainer(**cfg.train.pl_trainer): one process on one GPU"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,cdt+":9 gpus 1"),
 "dist.sharding":T("none","one GPU, no accelerator/strategy given"),
 "batch.micro":T(512,"data=perov -> "+cdd+":64-66 datamodule.batch_size.train 512 -> cdvae/pl_data/datamodule.py:100-107 torch_geometric DataLoader(batch_size=512) (512 crystal graphs)"),
 "batch.grad_accum":T(1,cdt+":13 accumulate_grad_batches 1"),
 "batch.global":T(512,"512 x 1 x 1"),
 "precision.mode":T("fp32",cdt+":10 precision 32"),
 "optimizer.name":T("Adam","conf/optim/default.yaml:3 _target_ torch.optim.Adam -> cdvae/pl_modules/model.py:35-38 hydra.utils.instantiate in configure_optimizers",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in cdvae/pl_modules"),
 "data.num_workers":T(0,cdd+":59-62 num_workers.train 0 -> datamodule.py:105"),
 "data.pin_memory":T(False,"cdvae/pl_data/datamodule.py:101-107 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile (env.yml:20-21 pytorch 1.8.1, pytorch-lightning 1.3.8)"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H41+"; README.md:84-89 'To train a CDVAE, run the following command: python cdvae/run.py data=perov expname=perov' (Hydra @hydra.main over conf/default.yaml with data/logging/model/optim/train groups and ${oc.env:...} paths, a LightningDataModule and a LightningModule built by hydra.utils.instantiate from _target_ keys, the optimizer instantiated from the optim group inside configure_optimizers, pl.Trainer(**cfg.train.pl_trainer) on Lightning 1.3.8 with gpus=1; crystal diffusion variational autoencoder on Perov-5 crystal structures, materials generation). Not labelled: model.num_parameters (not stated)")
LO=("OpenLMLab/LOMO","45d4bac16c642f101ed00db7244cacf28e5dde15")
loa="config/args_lomo.yaml"
lod="config/ds_config.json"
lot="src/lomo_trainer.py"
J("lomo-llama-7b-wic-full-ft-deepspeed-zero3-hfargparser-yaml-1gpu",*LO,["lomo"],"lomo",["run.sh"],{
 "model.num_parameters":T(6738415616,loa+":2 model_name_or_path '/remote-home/share/llama_hf/7B' (a local LLaMA-7B converted to HF format; lomo/README.md:8 'full parameter fine-tuning of a 7B model on a single RTX 3090') -> src/train_lomo.py:85-89: LLaMA-7B, 6.74B parameters",rel_tol=0.1),
 "dist.world_size":T(1,"run.sh:5 deepspeed --include localhost:0: one process on GPU 0"),
 "dist.nodes":T(1,"--include localhost:0"),
 "dist.devices_per_node":T(1,"--include localhost:0"),
 "dist.sharding":T("zero3",loa+":14 deepspeed config/ds_config.json -> "+lot+":55-58 deepspeed.initialize(config=...) with "+lod+":12-13 zero_optimization stage 3",any_of=["zero3","zero_3","deepspeed_zero3"]),
 "batch.micro":T(16,loa+":18 per_device_train_batch_size 16 -> "+lot+":349-357 the trainer's own DataLoader(batch_size=16) fed to the engine's forward ("+lod+":25 train_micro_batch_size_per_gpu 2 is only the engine's bookkeeping)"),
 "batch.grad_accum":T(1,lot+":104-173 one fused LOMO update per batch ("+lod+":23 gradient_accumulation_steps 1)"),
 "batch.global":T(16,"16 x 1 x 1"),
 "data.seq_len":T(1024,loa+":8 data_max_length 1024 -> src/mydatasets.py:60 tokenizer.encode(truncation=True, max_length=1024)"),
 "precision.mode":T("fp16","src/train_lomo.py:35 torch.set_default_dtype(torch.float16): fp16 weights with no fp32 master copy (LOMO), "+lod+":6-8 fp16.enabled and a loss scaler in src/lomo.py",any_of=["fp16","amp_fp16"]),
 "optimizer.name":T("LOMO",lot+":87 LOMO(model, lr, clip_grad_norm, clip_grad_value) (src/lomo.py: fused backward-and-update SGD)",any_of=["LOMO","lomo"]),
 "memory.gradient_checkpointing":T(True,loa+":39 gradient_checkpointing true -> src/train_lomo.py:82 config.gradient_checkpointing = True before from_pretrained"),
 "data.num_workers":T(0,"no dataloader_num_workers in "+loa+": TrainingArguments default 0 -> "+lot+":355"),
 "data.pin_memory":T(False,loa+":38 dataloader_pin_memory false -> "+lot+":356"),
 "dist.offload_optimizer":T("none",lod+":12-20 no offload_optimizer"),
 "dist.offload_params":T("none",lod+":12-20 no offload_param"),
 "dist.overlap_comm":T(True,lod+":14"),
 "dist.contiguous_gradients":T(True,lod+":15"),
 "dist.stage3_max_live_parameters":T(100000000,lod+":17 1e8"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full-parameter fine-tuning (the LoRA variant is the commented-out run.sh:8)"),
},held_out=True,note=H41+"; lomo/README.md:38-41 'we provide a simple run.sh script for convenience. You can execute the code using the following command: bash run.sh', run from lomo/ (deepspeed --master_port $port --include localhost:0 src/train_lomo.py config/args_lomo.yaml: an HfArgumentParser over three dataclasses parsed from a YAML named as the last argv, a DeepSpeed ZeRO-3 engine built by deepspeed.initialize with no optimizer, a hand-written trainer whose LOMO optimizer fuses the gradient computation and the update in backward hooks, fp16 as the default dtype; full-parameter fine-tuning of LLaMA-7B on SuperGLUE WiC, LLM fine-tuning). Not labelled: model.ref (a local path)")
AV=("maum-ai/assem-vc","a0464a3df3cb9dad5baaf3d189c92efca6c16117")
avc="config/cota/default.yaml"
J("assem-vc-cotatron-lightning-1-0-omegaconf-two-yamls",*AV,["."],".",["cotatron_trainer.py","--","-c","config/global/default.yaml",avc,"-g","0","-n","my_runname"],{
 "dist.world_size":T(1,"cotatron_trainer.py:36-49 Trainer(gpus='0' from -g 0 at :40,57, accelerator=None): one process either way (pytorch_lightning==1.0.3, requirements.txt:8)"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","accelerator=None, one process"),
 "batch.micro":T(64,avc+":3 train.batch_size 64 (merged over config/global/default.yaml at cotatron.py:23-25) -> cotatron.py:138-140 DataLoader(batch_size=64)"),
 "batch.grad_accum":T(1,"no accumulate_grad_batches in cotatron_trainer.py:36-49"),
 "batch.global":T(64,"64 x 1 x 1"),
 "precision.mode":T("fp32","no precision in the Trainer call (Lightning default 32), no autocast"),
 "optimizer.name":T("Adam","cotatron.py:113-117 torch.optim.Adam(lr 3e-4, weight_decay 1e-6) in configure_optimizers",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(16,avc+":2 train.num_workers 16 -> cotatron.py:139"),
 "data.pin_memory":T(True,"cotatron.py:140 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile (requirements.txt torch==1.4.0)"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H41+"; README.md:125-137 'To train the Cotatron ... python cotatron_trainer.py -c config/global/config.yaml config/cota/config.yaml -g 0 -n my_runname' with config.yaml copied from default.yaml (README.md:92-96; the copies are gitignored, so the job names the default.yaml files, identical until edited) (argparse with a two-file --config merged by OmegaConf inside the LightningModule's __init__, a Lightning 1.0.3 Trainer built from keyword arguments with gpus as a string, a custom optimizer_step for learning-rate decay; Cotatron transcription-guided speech encoder, the first stage of Assem-VC any-to-many voice conversion, speech). Not labelled: dist.devices_per_node (Lightning 1.0.3 reads the string gpus='0' as int('0') = 0 GPUs while the README's help text means GPU 0, so the device count is not knowable from the repository), model.num_parameters (not stated)")
DV=("facebookresearch/dinov2","b8931f7bf91576930313be2c6d6af376033b35f0")
dvd="dinov2/configs/ssl_default_config.yaml"
dvs="dinov2/configs/train/vitl16_short.yaml"
dvt="dinov2/train/train.py"
J("dinov2-vitl16-imagenet-submitit-fsdp-4x8gpu",*DV,["."],".",["dinov2/run/train/train.py","--","--nodes","4","--config-file",dvs,"--output-dir","out","train.dataset_path=ImageNet:split=TRAIN:root=data:extra=data"],{
 "dist.world_size":T(32,"--nodes 4 x dinov2/run/submit.py:36-42 --ngpus default 8 -> :108-109 submitit tasks: 32 processes"),
 "dist.nodes":T(4,"--nodes 4 (README.md:485 '4 A100-80GB nodes (32 GPUs)')"),
 "dist.devices_per_node":T(8,"dinov2/run/submit.py:36-42 --ngpus default 8"),
 "dist.sharding":T("fsdp_grad_op",dvd+":3-41 every module's sharding_strategy SHARD_GRAD_OP -> dinov2/fsdp/__init__.py:22 get_fsdp_wrapper (gradients and optimizer state sharded, parameters kept whole)",any_of=["fsdp_grad_op","zero2"]),
 "batch.micro":T(64,dvs+":3 train.batch_size_per_gpu 64 -> "+dvt+":201-204 make_data_loader(batch_size=64) per process (each image gives 2 global and 8 local crops)"),
 "batch.grad_accum":T(1,dvt+" one optimizer step per iteration (no accumulation option)"),
 "batch.global":T(2048,"64 x 1 x 32"),
 "data.image_size":T(224,dvd+":115 crops.global_crops_size 224 (local crops 96)"),
 "precision.mode":T("amp_fp16",dvd+":3-41 FSDP MixedPrecision(param_dtype fp16) over fp32 sharded parameters with :4 grad_scaler true -> dinov2/train/ssl_meta_arch.py:35 ShardedGradScaler",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW",dvt+":62 torch.optim.AdamW(betas=(0.9, 0.999))",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in dinov2/ (block_chunks only groups blocks for FSDP wrapping)"),
 "data.num_workers":T(10,dvd+":67 train.num_workers 10 -> "+dvt+":204"),
 "data.pin_memory":T(True,"dinov2/data/loaders.py:212 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile in dinov2/"),
 "peft.method":T("none","self-supervised pre-training from scratch (MODEL.WEIGHTS '')"),
},held_out=True,note=H41+"; README.md:482-493 'Fast setup: training DINOv2 ViT-L/16 on ImageNet-1k. Run DINOv2 training on 4 A100-80GB nodes (32 GPUs) in a SLURM cluster environment with submitit: python dinov2/run/train/train.py --nodes 4 --config-file dinov2/configs/train/vitl16_short.yaml --output-dir <PATH/TO/OUTPUT/DIR> train.dataset_path=ImageNet:split=TRAIN:root=<PATH/TO/DATASET>:extra=<PATH/TO/DATASET>' with the placeholders filled (a submitit launcher whose argparse parent is the training parser, an OmegaConf default config merged with a short YAML and dotlist overrides, FSDP per submodule with per-module mixed precision from the config, a student/teacher meta-architecture with an EMA teacher; DINOv2 self-supervised ViT-L/16 pre-training on ImageNet-1k, vision). Not labelled: model.num_parameters (ViT-L/16 backbone plus DINO and iBOT heads; not stated)")
SC=("princeton-nlp/SimCSE","49fa580a853752ede55b8c76d9debf748e214d3f")
scs="run_sup_example.sh"
J("simcse-sup-bert-base-nli-hf-trainer-distributed-launch-4gpu",*SC,["."],".",[scs],{
 "model.ref":T("bert-base-uncased",scs+":19 --model_name_or_path bert-base-uncased -> train.py:362 BertForCL.from_pretrained",any_of=["bert-base-uncased"]),
 "model.num_parameters":T(110000000,"BERT-base uncased 109.5M (the checkpoint) plus the 768x768 MLP pooler of simcse/models.py (0.6M)",rel_tol=0.1),
 "dist.world_size":T(4,scs+":7,18 NUM_GPU=4 -> python -m torch.distributed.launch --nproc_per_node 4"),
 "dist.nodes":T(1,"torch.distributed.launch with no --nnodes: one node"),
 "dist.devices_per_node":T(4,"--nproc_per_node 4"),
 "dist.sharding":T("ddp","the HF Trainer (transformers==4.2.1, requirements.txt:1) wraps the model in DistributedDataParallel when launched with --local_rank"),
 "batch.micro":T(128,scs+":23 --per_device_train_batch_size 128 (128 premise/entailment/contradiction triples)"),
 "batch.grad_accum":T(1,"no --gradient_accumulation_steps: TrainingArguments default 1"),
 "batch.global":T(512,"128 x 1 x 4"),
 "data.seq_len":T(32,scs+":25 --max_seq_length 32 -> train.py:428-432 tokenizer(max_length=32, truncation=True, padding=False) with dynamic padding by the collator"),
 "precision.mode":T("amp_fp16",scs+":35 --fp16 -> the Trainer's native torch.cuda.amp autocast and GradScaler over fp32 weights",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW","simcse/trainers.py:76,313 create_optimizer_and_scheduler -> transformers.optimization.AdamW (the Trainer default)",any_of=["AdamW","adamw","adamw_hf","adamw_torch"]),
 "memory.gradient_checkpointing":T(False,"no gradient checkpointing"),
 "data.num_workers":T(0,"no --dataloader_num_workers: TrainingArguments default 0"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tuning of BERT"),
},held_out=True,note=H41+"; README.md:221 'in run_sup_example.sh we give a multiple-GPU example for the supervised version', run as bash run_sup_example.sh from the repository root (python -m torch.distributed.launch --nproc_per_node $NUM_GPU --master_port $PORT_ID train.py --model_name_or_path bert-base-uncased --train_file data/nli_for_simcse.csv ... --per_device_train_batch_size 128 --max_seq_length 32 --pooler_type cls --temp 0.05 --do_train --do_eval --fp16; an HfArgumentParser over three dataclasses, a BertForCL model whose forward is swapped for a contrastive one, a Trainer subclass CLTrainer overriding evaluate and train, a collator that flattens sentence triples; supervised SimCSE sentence embeddings on NLI, NLP). Not labelled: data.pin_memory (transformers 4.2.1 builds the train DataLoader without a pin_memory argument in some releases and with dataloader_pin_memory in others; not checked against that wheel)")
OR=("xfactlab/orpo","208d2d648068e700cbb1ae0e8320b1dc99b014ec")
ors="scripts/run_orpo.sh"
orf="src/accelerate/fsdp.yaml"
J("orpo-opt-1-3b-ultrafeedback-accelerate-fsdp-trainer-4gpu",*OR,["."],".",[ors],{
 "model.ref":T("facebook/opt-1.3b",ors+":10 --model_name facebook/opt-1.3b -> main.py:45-47 AutoModelForCausalLM.from_pretrained(torch_dtype=torch.bfloat16)",any_of=["facebook/opt-1.3b"]),
 "model.num_parameters":T(1315758080,"OPT-1.3b: 1.3B parameters (the facebook/opt-1.3b checkpoint)",rel_tol=0.1),
 "dist.world_size":T(4,ors+":7 accelerate launch --config_file ./src/accelerate/fsdp.yaml -> "+orf+":19 num_processes 4"),
 "dist.nodes":T(1,orf+":18 num_machines 1"),
 "dist.devices_per_node":T(4,orf+":19 num_processes 4 on one machine"),
 "dist.sharding":T("fsdp_full",orf+":3 distributed_type FSDP, :11 fsdp_sharding_strategy FULL_SHARD",any_of=["fsdp_full","fsdp"]),
 "batch.micro":T(4,ors+":15 --per_device_train_batch_size 4 -> main.py:156 TrainingArguments (one chosen/rejected pair per sample)"),
 "batch.grad_accum":T(1,ors+":17 --gradient_accumulation_steps 1 -> main.py:162"),
 "batch.global":T(16,"4 x 1 x 4"),
 "data.seq_len":T(2048,ors+":14 --response_max_length 2048 -> main.py:108-122 tokenizer(max_length=2048, padding='max_length', truncation=True) for the prompt, chosen and rejected texts"),
 "data.padding":T("max_length","main.py:110,115,120 padding='max_length'"),
 "precision.mode":T("bf16","main.py:172 TrainingArguments(bf16=True), "+orf+":17 mixed_precision bf16, main.py:47 weights loaded in torch.bfloat16",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("paged_adamw_32bit","src/args.py:11 --optim default 'paged_adamw_32bit' -> main.py:160 TrainingArguments(optim=...)",any_of=["paged_adamw_32bit","PagedAdamW32bit","PagedAdamW"]),
 "memory.gradient_checkpointing":T(True,"main.py:163 TrainingArguments(gradient_checkpointing=True)"),
 "data.num_workers":T(0,"no dataloader_num_workers in main.py:149-174: TrainingArguments default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch_compile in main.py:149-174 (src/args.py:8 --torch_compile is never passed on)"),
 "peft.method":T("none","--enable_lora not passed (main.py:49-63): full fine-tuning"),
},held_out=True,note=H41+"; scripts/run_orpo.sh (a Slurm-annotated shell script run as bash scripts/run_orpo.sh from the repository root: accelerate launch --config_file ./src/accelerate/fsdp.yaml main.py --lr 5e-6 --warmup_steps 100 --model_name facebook/opt-1.3b --data_name HuggingFaceH4/ultrafeedback_binarized --num_train_epochs 5 --prompt_max_length 128 --response_max_length 2048 --per_device_train_batch_size 4 --per_device_eval_batch_size 4 --gradient_accumulation_steps 1 --num_proc 8; argparse in src/args.py, TrainingArguments built by hand in a class method, an ORPOTrainer subclass of the HF Trainer computing an odds-ratio preference loss, an accelerate FSDP config with full sharding; ORPO preference alignment of OPT-1.3B on UltraFeedback, LLM alignment). Not labelled: model.attn_implementation (flash_attention_2 only with --flash_attention_2, not passed; otherwise the transformers default of the installed version)")
YT=("yunjey/pytorch-tutorial","0500d3df5a2a8080ccfccbc00aca0eacc21818db")
ytd="tutorials/03-advanced/image_captioning"
J("pytorch-tutorial-image-captioning-resnet152-lstm-coco-1gpu",*YT,[ytd],ytd,["train.py"],{
 "dist.world_size":T(1,"one process, no launcher"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,ytd+"/train.py:15 device 'cuda' when available -> :40-41 encoder and decoder .to(device)"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(128,ytd+"/train.py:96 --batch_size default 128 -> :35-37 get_loader -> data_loader.py:100-104 DataLoader(batch_size=128)"),
 "batch.grad_accum":T(1,ytd+"/train.py:62-65 zero_grad, backward and step every batch"),
 "batch.global":T(128,"128 x 1 x 1"),
 "data.image_size":T(224,ytd+"/train.py:83 --crop_size default 224 -> :24 RandomCrop(224) of the 256x256 images resize.py wrote"),
 "precision.mode":T("fp32","no autocast, GradScaler or half()"),
 "optimizer.name":T("Adam",ytd+"/train.py:45-46 torch.optim.Adam(decoder + encoder.linear + encoder.bn parameters, lr=0.001)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(2,ytd+"/train.py:97 --num_workers default 2 -> data_loader.py:103"),
 "data.pin_memory":T(False,ytd+"/data_loader.py:100-104 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none",ytd+"/model.py:11-20 the ImageNet ResNet-152 runs under torch.no_grad and is left out of the optimizer; the LSTM decoder and the encoder's linear+bn are trained in full (no adapters)"),
},held_out=True,note=H41+"; tutorials/03-advanced/image_captioning/README.md:45-48 '4. Train the model: python train.py', run from that folder after build_vocab.py and resize.py (argparse with defaults only, a COCO caption Dataset with a padding collate_fn, a frozen pre-trained ResNet-152 encoder called under no_grad plus a trained projection, an LSTM decoder with pack_padded_sequence, one Adam over a hand-assembled parameter list; show-and-tell image captioning on MS-COCO 2014, vision-language). Not labelled: model.num_parameters (the decoder's embedding and output widths are len(vocab), built from the captions by build_vocab.py), data.seq_len (captions padded to the longest in each batch)")

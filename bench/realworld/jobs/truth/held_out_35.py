"""The thirty-fifth held-out set of the jobs benchmark (run.py --set held-out-35): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them. Every repository was grepped (owner/name and
the bare name) in bench/, docs/, tests/, calibration/, preflight/ and adapters/ and found nowhere
before it was taken."""
from .core import J, T

H35="thirty-fifth held-out set"
IT=("thuml/iTransformer","c2426e68ca13f74aaec08045c5c724d8ad328124")
its="scripts/multivariate_forecasting/Traffic/iTransformer.sh"
J("itransformer-traffic-argparse-exp-class-1gpu",*IT,["."],".",[its],{
 "model.num_parameters":T(6411872,its+":15-21 e_layers 4, d_model 512, d_ff 512 (n_heads default 8), seq_len 96 -> model/iTransformer.py:22-40: embedding Linear(96,512) 49,664 + 4 encoder layers x (4 attention projections 1,050,624 + two 1x1 convs 525,312 + two LayerNorms 2,048) 6,311,936 + final LayerNorm 1,024 + projector Linear(512,96) 49,248 = 6,411,872 for the first run (the four runs differ only in the projector: 6,731,360 at pred_len 720)",rel_tol=0.05),
 "dist.world_size":T(1,its+":1 export CUDA_VISIBLE_DEVICES=2; no --use_multi_gpu (run.py:74): one process on one GPU"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","experiments/exp_long_term_forecasting.py:23-24 DataParallel only with --use_multi_gpu"),
 "batch.micro":T(16,its+":22 --batch_size 16 -> data_provider/data_factory.py:34,48-53 DataLoader(batch_size=16)"),
 "batch.grad_accum":T(1,"experiments/exp_long_term_forecasting.py:110,162-163 zero_grad/backward/step every batch"),
 "batch.global":T(16,"16 x 1 x 1"),
 "precision.mode":T("fp32","run.py:69 --use_amp default False, not passed -> exp_long_term_forecasting.py:125,137 the fp32 branch"),
 "optimizer.name":T("Adam","experiments/exp_long_term_forecasting.py:32 optim.Adam",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(10,"run.py:60 --num_workers default 10 -> data_factory.py:52"),
 "data.pin_memory":T(False,"data_factory.py:48-53 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H35+"; README.md:71 bash ./scripts/multivariate_forecasting/Traffic/iTransformer.sh (an export of CUDA_VISIBLE_DEVICES, a shell variable, then four python -u run.py lines that differ only in --model_id and --pred_len; argparse, an Exp class that picks the model module from a dict by --model name, its own training loop; inverted Transformer forecasting on Traffic, 862 variates, time series). Not labelled: data.seq_len (--seq_len 96 is the number of time steps, each variate a token: the encoder sees 862 tokens plus 4 time-feature tokens)")
TR=("SAI990323/TALLRec","c1db29ce6501bce32cc8c3e343c4eb14155beeb1")
J("tallrec-llama7b-8bit-lora-movie-fire-hf-trainer-1gpu",*TR,["."],".",["finetune_rec.py","--","--base_model","decapoda-research/llama-7b-hf","--train_data_path","./data/movie/train.json","--val_data_path","./data/movie/valid.json","--output_dir","out_0_64","--batch_size","128","--micro_batch_size","32","--num_epochs","200","--learning_rate","1e-4","--cutoff_len","512","--lora_r","8","--lora_alpha","16","--lora_dropout","0.05","--lora_target_modules","[q_proj,v_proj]","--train_on_inputs","--group_by_length","--resume_from_checkpoint","alpaca-lora-7B","--sample","64","--seed","0"],{
 "model.ref":T("decapoda-research/llama-7b-hf","--base_model (README.md:27-29 LLaMA weights in HF format; finetune_rec.py:89 names decapoda-research/llama-7b-hf) -> finetune_rec.py:112-117 LlamaForCausalLM.from_pretrained"),
 "model.num_parameters":T(6738415616,"LLaMA-7B: 6,738,415,616 (LoRA r=8 on q/v adds 4.2M)",rel_tol=0.05),
 "task.mode":T("lora","8-bit base + LoRA",any_of=["lora","qlora"]),
 "dist.world_size":T(1,"python finetune_rec.py: one process (shell/instruct_7B.sh:16 CUDA_VISIBLE_DEVICES=$1, one GPU id)"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","finetune_rec.py:94-98 WORLD_SIZE 1: no DDP; :216-218 with several visible GPUs the model is marked model_parallel, so the Trainer never wraps it in DataParallel"),
 "batch.micro":T(32,"--micro_batch_size 32 -> finetune_rec.py:250 per_device_train_batch_size"),
 "batch.grad_accum":T(4,"finetune_rec.py:90 batch_size 128 // micro_batch_size 32 = 4 (one process) -> :251"),
 "batch.global":T(128,"32 x 4 x 1 (--batch_size 128)"),
 "data.seq_len":T(512,"--cutoff_len 512 -> finetune_rec.py:129-135 truncation at 512"),
 "data.padding":T("dynamic","finetune_rec.py:133 padding=False at tokenisation, :273-275 DataCollatorForSeq2Seq(padding=True, pad_to_multiple_of=8) pads each batch"),
 "precision.mode":T("amp_fp16","finetune_rec.py:255 TrainingArguments(fp16=True) over an 8-bit base loaded with torch_dtype float16 (:112-117)",any_of=["amp_fp16","fp16"]),
 "precision.weights_bits":T(8,"finetune_rec.py:114 load_in_8bit=True"),
 "optimizer.name":T("adamw_torch","finetune_rec.py:257 optim='adamw_torch'",any_of=["adamw_torch","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,"finetune_rec.py:163 prepare_model_for_int8_training (requirements.txt:9 peft 0.3.0, use_gradient_checkpointing default True) enables it"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"finetune_rec.py:289-290 model = torch.compile(model) runs after the Trainer was built with the uncompiled model (:245-279); trainer.train (:292) trains the Trainer's own reference, so nothing compiled is trained"),
 "peft.method":T("lora","finetune_rec.py:165-173 LoraConfig -> get_peft_model; :190-206 the alpaca-lora-7B adapter weights loaded into it"),
 "peft.rank":T(8,"--lora_r 8"),
},held_out=True,note=H35+"; README.md:24-31 bash ./shell/instruct_7B.sh gpu_id random_seed, whose python line (shell/instruct_7B.sh:16-34, inside three one-value for loops) is taken with its XXX placeholders filled in as README.md:27-31 says (base_model the LLaMA-7B HF weights, the movie train/valid JSON, the repository's alpaca-lora-7B adapter as instruction_model, seed 0, sample 64); fire.Fire over a function's keyword defaults, alpaca-lora's 8-bit LoRA recipe, HF Trainer with early stopping; LLM-based recommendation (movie preference, few-shot), recommendation + LLM)")
UV=("baofff/U-ViT","ce551708dc9cde9818d2af7d84dfadfeb7bd9034")
uvc="configs/imagenet256_uvit_large.py"
J("u-vit-l2-imagenet256-latent-ml-collections-accelerate-ddp-8gpu",*UV,["."],".",["--","accelerate","launch","--multi_gpu","--num_processes","8","--mixed_precision","fp16","train_ldm.py","--config="+uvc],{
 "model.num_parameters":T(287000000,uvc+":41-54 U-ViT embed_dim 1024, depth 20, 16 heads, mlp_ratio 4, patch 2 on a 4x32x32 latent, 1001 classes -> libs/uvit.py:138-182: 21 blocks of 12.59M, 10 skip Linear(2048,1024) 2.10M each, label and time embeddings: about 287M (U-ViT-L in the paper: 287M)",rel_tol=0.03),
 "dist.world_size":T(8,"README.md:150 accelerate launch --multi_gpu --num_processes 8"),
 "dist.nodes":T(1,"no --num_machines"),
 "dist.devices_per_node":T(8,"--num_processes 8 on one machine"),
 "dist.sharding":T("ddp","--multi_gpu -> train_ldm.py:29,61-62 accelerator.prepare wraps the network in DDP"),
 "batch.micro":T(128,uvc+":22 train.batch_size 1024 -> train_ldm.py:37-38 divided by the 8 processes -> :57 DataLoader(batch_size=128)"),
 "batch.grad_accum":T(1,"train_ldm.py:90-104 zero_grad/backward/step every batch"),
 "batch.global":T(1024,"128 x 1 x 8 ("+uvc+":22)"),
 "precision.mode":T("amp_fp16","--mixed_precision fp16 -> accelerate autocast fp16 with a GradScaler over fp32 weights",any_of=["amp_fp16"]),
 "optimizer.name":T("AdamW",uvc+":29-34 optimizer name 'adamw' -> utils.py:43-49 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,uvc+":53 nnet use_checkpoint True -> libs/uvit.py:107-111 torch.utils.checkpoint per block"),
 "data.num_workers":T(8,"train_ldm.py:57-58 num_workers=8"),
 "data.pin_memory":T(True,"train_ldm.py:58 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H35+"; README.md:149-150 accelerate launch --multi_gpu --num_processes 8 --mixed_precision fp16 train_ldm.py --config=configs/imagenet256_uvit_large.py (absl flags with an ml_collections config_flags file whose get_config() returns nested ConfigDicts, a network and optimizer named by strings, a plain Accelerator; latent diffusion with a U-ViT-L/2 on precomputed Stable Diffusion autoencoder features of ImageNet 256x256, class-conditional, diffusion). Not labelled: model.ref (the repository's own U-ViT, no Hub id), data.image_size (the network sees 4x32x32 latents read from precomputed features of 256x256 images)")
MT=("shivammehta25/Matcha-TTS","108906c603fad5055f2649b3fd71d2bbdf222eac")
J("matcha-tts-ljspeech-hydra-lightning-2gpu",*MT,["."],".",["matcha/train.py","--","experiment=ljspeech","trainer.devices=[0,1]"],{
 "dist.world_size":T(2,"README.md:182 trainer.devices=[0,1] over configs/trainer/default.yaml:7-8 accelerator gpu: two devices, one process each"),
 "dist.nodes":T(1,"configs/trainer/default.yaml: no num_nodes (Lightning default 1)"),
 "dist.devices_per_node":T(2,"trainer.devices=[0,1]"),
 "dist.sharding":T("ddp","two GPU devices and no strategy in configs/trainer/default.yaml: Lightning 2 (requirements.txt lightning>=2.0.0) picks DDP"),
 "batch.micro":T(32,"configs/data/ljspeech.yaml:5 batch_size 32 (configs/experiment/ljspeech.yaml:7 override /data: ljspeech) -> matcha/data/text_mel_datamodule.py:94-99 DataLoader(batch_size=32)"),
 "batch.grad_accum":T(1,"no accumulate_grad_batches in configs/trainer/default.yaml (Lightning default 1)"),
 "batch.global":T(64,"32 x 1 x 2"),
 "precision.mode":T("amp_fp16","configs/trainer/default.yaml:11 precision 16-mixed",any_of=["amp_fp16"]),
 "optimizer.name":T("Adam","configs/model/optimizer/adam.yaml:1-2 torch.optim.Adam partial -> matcha/models/baselightningmodule.py:30-31",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(20,"configs/data/ljspeech.yaml:6 num_workers 20 -> text_mel_datamodule.py:97"),
 "data.pin_memory":T(True,"configs/data/ljspeech.yaml:7 pin_memory True -> text_mel_datamodule.py:98"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H35+"; README.md:179-182 python matcha/train.py experiment=ljspeech trainer.devices=[0,1] (the lightning-hydra-template layout: configs/train.yaml defaults list of groups, an experiment file that overrides /data, a Hydra list override of the trainer's devices, the LightningModule, DataModule and partial optimizer instantiated from _target_; conditional flow matching text-to-speech on LJSpeech, speech). Not labelled: model.num_parameters (no figure in the repository at this commit), batch sizes in tokens/frames (whole utterances, out_size null)")
TM=("torchmd/torchmd-net","833c07708e7d507fc33bdcd835ed083a321cc651")
tmc="examples/ET-QM9.yaml"
J("torchmd-net-et-qm9-console-script-yaml-lightning-1gpu",*TM,["."],".",["--","torchmd-train","--conf",tmc,"--log-dir","output/"],{
 "dist.world_size":T(1,"README.md:60 CUDA_VISIBLE_DEVICES=0 torchmd-train (pyproject.toml:30-31 torchmdnet.scripts.train:main): "+tmc+":36 ngpus -1 uses the one visible GPU"),
 "dist.nodes":T(1,tmc+":40 num_nodes 1 -> torchmdnet/scripts/train.py:257"),
 "dist.sharding":T("none","one device: Lightning strategy 'auto' (train.py:253) runs a single device"),
 "batch.micro":T(128,tmc+":5 batch_size 128 -> torchmdnet/data.py:127-135 DataLoader(batch_size=128 molecules)"),
 "batch.grad_accum":T(1,"train.py:252-266 no accumulate_grad_batches (Lightning default 1)"),
 "batch.global":T(128,"128 x 1 x 1"),
 "precision.mode":T("fp32",tmc+":44,59 precision 32 -> train.py:261 pl.Trainer(precision=32)"),
 "optimizer.name":T("AdamW","torchmdnet/module.py:120-125 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(6,tmc+":42 num_workers 6 -> data.py:136"),
 "data.pin_memory":T(True,"data.py:138 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch (load_model null)"),
},held_out=True,note=H35+"; README.md:57-60 CUDA_VISIBLE_DEVICES=0 torchmd-train --conf torchmd-net/examples/ET-QM9.yaml --log-dir output/ (the launch line without its CUDA_VISIBLE_DEVICES prefix, the conf path relative to the repository root; a pyproject console script, argparse whose --conf action loads a YAML into the namespace, a LightningModule and LightningDataModule, PyG batches of molecules; Equivariant Transformer (8 layers, width 256) for QM9 energies, GNN / molecular ML). Not labelled: model.num_parameters (no figure in the repository for this config)")
RZ=("DLR-RM/rl-baselines3-zoo","22e3ff2450fd92033f7f032915e1f64894a09584")
rzh="hyperparams/sac.yml"
J("rl-zoo3-sac-halfcheetah-bullet-sb3-yaml-hyperparams-1proc",*RZ,["."],".",["train.py","--","--algo","sac","--env","HalfCheetahBulletEnv-v0","--eval-freq","10000","--eval-episodes","10","--n-eval-envs","1"],{
 "dist.world_size":T(1,"python train.py -> rl_zoo3/train.py: one process (rl_zoo3/exp_manager.py:236-243 one SAC model on --device auto)"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel (Stable-Baselines3 trains on one device)"),
 "batch.micro":T(256,rzh+":91 HalfCheetahBulletEnv-v0 batch_size 256 -> exp_manager.py:237-243 SAC(**hyperparams): 256 transitions sampled from the replay buffer per gradient step"),
 "batch.grad_accum":T(1,"Stable-Baselines3 SAC steps its optimizers after every minibatch ("+rzh+":95-96 train_freq 8, gradient_steps 8: eight steps of one minibatch each)"),
 "batch.global":T(256,"256 x 1 x 1"),
 "precision.mode":T("fp32","Stable-Baselines3 trains in fp32, no autocast"),
 "optimizer.name":T("Adam","no optimizer_class in "+rzh+":100 policy_kwargs: Stable-Baselines3's policy default torch.optim.Adam (actor, critic and entropy coefficient)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H35+"; README.md:69-72 python train.py --algo sac --env HalfCheetahBulletEnv-v0 --eval-freq 10000 --eval-episodes 10 --n-eval-envs 1 (a two-line train.py calling rl_zoo3.train.train, argparse, an ExperimentManager that reads the per-environment hyper-parameters from hyperparams/sac.yml, YAML anchors and a policy_kwargs string evaluated into a dict, then Stable-Baselines3's SAC built with **hyperparams; the training loop is inside Stable-Baselines3, a pip dependency; SAC with gSDE on PyBullet HalfCheetah, RL). Not labelled: model.num_parameters (actor and twin critics of [400, 300] over a 26-dim observation and 6-dim action: no figure in the repository), data.num_workers and data.pin_memory (a replay buffer, no DataLoader)")
FV=("apple/ml-fastvit","8af5928238cab99c45f64fc3e4e7b1516b8224ba")
J("fastvit-t8-imagenet-timm-train-dist-launch-ddp-8gpu",*FV,["."],".",["--","python","-m","torch.distributed.launch","--nproc_per_node=8","train.py","/path/to/ImageNet/dataset","--model","fastvit_t8","-b","128","--lr","1e-3","--native-amp","--mixup","0.2","--output","/path/to/save/results","--input-size","3","256","256"],{
 "model.ref":T("fastvit_t8","README.md:110 --model fastvit_t8 -> train.py:912 timm create_model -> models/fastvit.py:956-957 @register_model fastvit_t8"),
 "dist.world_size":T(8,"README.md:109 --nproc_per_node=8"),
 "dist.nodes":T(1,"no --nnodes"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("ddp","train.py:1055-1059 NativeDDP (torch DistributedDataParallel)"),
 "batch.micro":T(128,"-b 128 (train.py:236-240, per process) -> :1163-1166 create_loader(batch_size=128)"),
 "batch.grad_accum":T(1,"train.py:1397-1417 zero_grad and step every batch"),
 "batch.global":T(1024,"128 x 1 x 8"),
 "data.image_size":T(256,"--input-size 3 256 256"),
 "precision.mode":T("amp_fp16","--native-amp -> train.py:903,989 torch.cuda.amp autocast with NativeScaler",any_of=["amp_fp16"]),
 "optimizer.name":T("AdamW","train.py:253-255 --opt default 'adamw' -> :979 timm create_optimizer_v2 -> torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(8,"train.py:733-736 -j/--workers default 8 -> :1185"),
 "data.pin_memory":T(False,"train.py:776-778 --pin-mem default False, not passed -> :1188"),
 "compile.enabled":T(False,"no torch.compile (train.py:823 --torchscript not passed)"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H35+"; README.md:108-112 python -m torch.distributed.launch --nproc_per_node=8 train.py /path/to/ImageNet/dataset --model fastvit_t8 -b 128 --lr 1e-3 --native-amp --mixup 0.2 --output /path/to/save/results --input-size 3 256 256 (a fork of timm's train.py: argparse with a YAML --config option, the model registered with timm's @register_model in the repository, timm's create_optimizer_v2 and create_loader, model EMA on by default; FastViT-T8 ImageNet-1K classification without distillation, vision). Not labelled: model.num_parameters (the network trains with MobileOne-style parallel branches that are fused after training; the repository gives no parameter figure, the paper's 3.6M is the fused network)")
AG=("OpenMOSS/AnyGPT","282b58fa96ae3f14d639b23f47b4732bf68883f0")
ags="scripts/stage1_pretrain.sh"
agp="anygpt/src/train/stage1_pretrain.py"
J("anygpt-llama2-7b-stage1-multimodal-pretrain-torchrun-slurm-fsdp",*AG,["."],".",[ags],{
 "model.num_parameters":T(6881071104,ags+":7,50 --model_name_or_path a local llama-2-7b-hf -> "+agp+":231-237 LlamaForCausalLM.from_pretrained, then resize_token_embeddings for the added image (8,192), speech (1,024) and music (4 x 2,048) tokens with their start/end tokens (anygpt/src/m_utils/anything2token.py:9-16; "+agp+":220-229): Llama-2-7B 6,738,415,616 + 2 x 17,414 x 4,096 = 6,881,071,104",rel_tol=0.03),
 "dist.devices_per_node":T(8,ags+":44 torchrun --nproc_per_node 8"),
 "dist.sharding":T("fsdp_full",ags+":80-81 --fsdp 'full_shard auto_wrap' with LlamaDecoderLayer (HF Trainer FSDP)"),
 "batch.micro":T(1,ags+":62 --per_device_train_batch_size 1"),
 "batch.grad_accum":T(1,ags+":64 --gradient_accumulation_steps 1"),
 "data.seq_len":T(4500,ags+":60-61 --model_max_length 4500 --block_size 4500 -> "+agp+":279-300,318 samples concatenated into chunks of at most 4,500 tokens (DataArguments concatenating default True, :84-87)"),
 "precision.mode":T("amp_bf16",ags+":56 --bf16 True under FSDP; "+agp+":231-233 the model loaded without torch_dtype (fp32 weights): FSDP bf16 mixed precision",any_of=["amp_bf16"]),
 "optimizer.name":T("adamw_torch",agp+":94-95 a TrainingArguments subclass with optim default 'adamw_torch'",any_of=["adamw_torch","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no --gradient_checkpointing and no gradient_checkpointing_enable in "+agp),
 "model.attn_implementation":T("flash_attention_2",agp+":5-8 FastChat's replace_llama_attn_with_flash_attn() monkey patch at import (flash-attn kernels in LlamaAttention)",any_of=["flash_attention_2","flash"]),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0 (--preprocessing_num_workers 100 is datasets.map)"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no --torch_compile"),
 "peft.method":T("none","full-parameter continued pre-training"),
},held_out=True,note=H35+"; README.md:169 'Please refer to scripts/stage1_pretrain.sh' (a bash function making cache directories, dataset lists in shell variables, NNODE, MASTER_ADDR and NODE_RANK computed from scontrol on $SLURM_JOB_NODELIST, then torchrun --nnode $NNODE --nproc_per_node 8 ... anygpt/src/train/stage1_pretrain.py with HF TrainingArguments flags including --fsdp; HfArgumentParser over three dataclasses, one a TrainingArguments subclass with its own defaults, a LLaMA-2-7B whose vocabulary grows by the discrete image, speech and music tokens; AnyGPT any-to-any multimodal pre-training, multimodal). Not labelled: model.ref (a cluster path, /mnt/petrelfs/share_data/llama2_hf/llama-2-7b-hf, that overrides the placeholder at line 5), dist.world_size, dist.nodes and batch.global (the node count comes from the SLURM allocation at run time)")
VM=("MzeroMiko/VMamba","2ed52ead062a51a64521ed3871d52914bf532876")
vmc="configs/vssm/vmambav2v_tiny_224.yaml"
J("vmamba-t-imagenet-swin-style-yacs-dist-launch-ddp-8gpu",*VM,["."],"classification",["--","python","-m","torch.distributed.launch","--nnodes=1","--node_rank=0","--nproc_per_node=8","--master_addr=127.0.0.1","--master_port=29501","main.py","--cfg",vmc,"--batch-size","128","--data-path","/path/of/dataset","--output","/tmp"],{
 "model.num_parameters":T(30000000,"README.md:91 VMamba-T[s1l8] 30M, config classification/"+vmc+" (embed_dim 96, depths [2,2,8,2])",rel_tol=0.05),
 "dist.world_size":T(8,"README.md:197 --nnodes=1 --nproc_per_node=8"),
 "dist.nodes":T(1,"--nnodes=1"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("ddp","classification/main.py:138 torch.nn.parallel.DistributedDataParallel"),
 "batch.micro":T(128,"--batch-size 128 -> classification/config.py:247-248 DATA.BATCH_SIZE -> classification/data/build.py:69-73 DataLoader(batch_size=128)"),
 "batch.grad_accum":T(1,"classification/config.py:116 TRAIN.ACCUMULATION_STEPS 1, no --accumulation-steps"),
 "batch.global":T(1024,"128 x 1 x 8"),
 "data.image_size":T(224,"classification/config.py:30 DATA.IMG_SIZE 224 (not set in "+vmc+")"),
 "precision.mode":T("amp_fp16","classification/config.py:195 AMP_ENABLE True, no --disable_amp -> main.py:250 torch.cuda.amp.autocast(enabled=True) (fp16) with NativeScalerWithGradNormCount (:139)",any_of=["amp_fp16"]),
 "optimizer.name":T("AdamW","classification/config.py:136 TRAIN.OPTIMIZER.NAME 'adamw' -> classification/utils/optimizer.py:43-44 optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"classification/config.py:119 TRAIN.USE_CHECKPOINT False, no --use-checkpoint"),
 "data.num_workers":T(8,"classification/config.py:41 DATA.NUM_WORKERS 8 -> data/build.py:72"),
 "data.pin_memory":T(True,"classification/config.py:39 DATA.PIN_MEMORY True -> data/build.py:73"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H35+"; README.md:195-198 python -m torch.distributed.launch --nnodes=1 --node_rank=0 --nproc_per_node=8 --master_addr=\"127.0.0.1\" --master_port=29501 main.py --cfg </path/to/config> --batch-size 128 --data-path </path/of/dataset> --output /tmp, run in classification/ with the VMamba-T config of README.md:91 (the Swin Transformer code base: a yacs config.py of defaults merged with a YAML --cfg and argparse flags, the model built by type from the YAML, AMP on by default, model EMA on by default; VMamba-T visual state-space model, ImageNet-1K classification, vision). Not labelled: model.ref (MODEL.NAME vssm1_tiny_0230s is an experiment name, not a registry or Hub id)")
CU=("martin-wey/CodeUltraFeedback","0525dde72c243b6c86af540432409f6f2efe1fd7")
cuc="recipes/config_qlora_dpo_codellama.yaml"
J("codeultrafeedback-codellama7b-qlora-dpo-unsloth-trl-h4-yaml-1gpu",*CU,["."],"src/dpo",["run_dpo.py","--",cuc],{
 "model.ref":T("coseal/CodeLlama-7B-Instruct-sft-qlora","src/dpo/"+cuc+":2 model_name_or_path -> src/dpo/run_dpo.py:56-61 unsloth FastLanguageModel.from_pretrained"),
 "model.num_parameters":T(6738546688,"CodeLlama-7B (vocabulary 32,016): 6,738,546,688 (LoRA r=64 on all seven projections adds about 2.4%)",rel_tol=0.05),
 "task.mode":T("qlora","a 4-bit base with trainable LoRA adapters, DPO",any_of=["qlora","lora"]),
 "dist.world_size":T(1,"python run_dpo.py: one process"),
 "dist.nodes":T(1,"one process"),
 "batch.micro":T(2,"src/dpo/"+cuc+":45 per_device_train_batch_size 2 (pairs: chosen and rejected)"),
 "batch.grad_accum":T(16,"src/dpo/"+cuc+":30 gradient_accumulation_steps 16"),
 "data.seq_len":T(2048,"src/dpo/"+cuc+":39 max_length 2048 -> run_dpo.py:135 DPOTrainer(max_length=2048)"),
 "precision.mode":T("bf16","src/dpo/"+cuc+":26 bf16 true (Trainer bf16 autocast) over unsloth's 4-bit base loaded with dtype None (run_dpo.py:59: bf16 on a bf16-capable GPU); the YAML's torch_dtype bfloat16 is not passed to the loader",any_of=["bf16","amp_bf16"]),
 "precision.weights_bits":T(4,"src/dpo/"+cuc+":6 load_in_4bit true -> run_dpo.py:60"),
 "optimizer.name":T("rmsprop","no optim in the YAML: src/dpo/alignment/configs.py:228,253 DPOConfig optim default 'rmsprop'",any_of=["rmsprop","RMSprop"]),
 "memory.gradient_checkpointing":T(True,"src/dpo/"+cuc+":31 gradient_checkpointing true -> run_dpo.py:73 get_peft_model(use_gradient_checkpointing=True)"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0 (preprocessing_num_workers 12 is datasets.map)"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("lora","src/dpo/"+cuc+":7 use_peft true -> run_dpo.py:63-74 the model name has no 'runs/', so FastLanguageModel.get_peft_model adds a new LoRA adapter"),
 "peft.rank":T(64,"src/dpo/"+cuc+":8 lora_r 64"),
},held_out=True,note=H35+"; no documented command (README.md:68-73 says instructions are being written): the alignment-handbook convention its code copies, python run_dpo.py recipes/config_qlora_dpo_codellama.yaml from src/dpo (run_dpo.py imports the local alignment package; H4ArgumentParser reads a YAML given as the only argument into ModelArguments, DataArguments and a DPOConfig with its own defaults; unsloth's FastLanguageModel loads a 4-bit base and adds LoRA, TRL 0.7.10 DPOTrainer with ref_model None; DPO of CodeLlama-7B-Instruct on CodeUltraFeedback, code LLM alignment). Not labelled: dist.sharding and batch.global (HF Trainer under plain python: DataParallel over the visible GPUs is decided at run time), precision.quant_type and precision.double_quant (set inside unsloth, outside the repository)")
LQ=("yangjianxin1/LongQLoRA","ade0d97558b3be9c5654a1b6e8e73b1d1a36914c")
lqy="train_args/llama2-7b-pretrain.yaml"
lqd="train_args/deepspeed/deepspeed_config_s2.json"
J("longqlora-llama2-7b-8k-qlora-deepspeed-zero2-offload-yaml-args",*LQ,["."],".",["--","deepspeed","train.py","--train_args_file","./"+lqy],{
 "model.ref":T("NousResearch/Llama-2-7b-hf",lqy+":2 model_name_or_path -> train.py:135-150 AutoModelForCausalLM.from_pretrained"),
 "model.num_parameters":T(6738415616,"Llama-2-7B: 6,738,415,616 (LoRA r=64 on every linear layer adds about 2.4%)",rel_tol=0.05),
 "task.mode":T("qlora","a 4-bit base with trainable LoRA adapters",any_of=["qlora","lora"]),
 "dist.nodes":T(1,"README.MD:63 deepspeed with no --hostfile, --num_nodes or --include: DeepSpeed runs on the local host"),
 "dist.sharding":T("zero2",lqy+":4 deepspeed "+lqd+" (a TrainingArguments field read by HfArgumentParser.parse_yaml_file, train.py:95-97) -> "+lqd+":2-3 stage 2"),
 "dist.offload_optimizer":T("cpu",lqd+":4-6 offload_optimizer device cpu"),
 "dist.offload_params":T("none","ZeRO-2 has no parameter offload"),
 "dist.overlap_comm":T(True,lqd+":8"),
 "dist.contiguous_gradients":T(True,lqd+":7"),
 "batch.micro":T(1,lqy+":9 per_device_train_batch_size 1 ("+lqd+":13 'auto')"),
 "batch.grad_accum":T(16,lqy+":10 gradient_accumulation_steps 16 ("+lqd+":14 'auto')"),
 "data.seq_len":T(8192,lqy+":12 max_seq_length 8192 -> train.py:231-232 PretrainCollator -> component/collator.py:19-21 truncation at 8192 (RoPE scaled to model_max_length 8192, train.py:122-126)"),
 "data.padding":T("max_length","component/collator.py:21 padding='max_length' (sft false: the pretraining collator)"),
 "precision.mode":T("fp16",lqy+":30 fp16 true -> "+lqd+":10-12 fp16 enabled 'auto' = true (DeepSpeed fp16 with loss scaling) over a 4-bit base with fp16 compute (train.py:140-146); prepare_model_for_kbit_training casts the other weights to fp32 (:167)",any_of=["fp16","amp_fp16"]),
 "precision.weights_bits":T(4,"train.py:139-143 load_in_4bit=True"),
 "precision.quant_type":T("nf4","train.py:146 bnb_4bit_quant_type nf4"),
 "precision.double_quant":T(True,"train.py:145 bnb_4bit_use_double_quant=True"),
 "optimizer.name":T("paged_adamw_32bit",lqy+":28 optim paged_adamw_32bit (no optimizer block in "+lqd+", so the Trainer builds bitsandbytes' PagedAdamW32bit and hands it to DeepSpeed)",any_of=["paged_adamw_32bit","PagedAdamW32bit"]),
 "memory.gradient_checkpointing":T(True,lqy+":26 gradient_checkpointing true -> train.py:167 prepare_model_for_kbit_training(use_gradient_checkpointing=True)"),
 "model.attn_implementation":T("eager","component/argument.py:20 use_flash_attn default False, not in "+lqy+" -> train.py:120 replace_llama_attn(False) -> attention/llama_attn_replace.py:476-477 forward_noflashattn (shifted sparse attention in plain matmuls)",any_of=["eager"]),
 "data.num_workers":T(0,lqy+":32 dataloader_num_workers 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"transformers 4.31.0 (requirements.txt) and no torch_compile"),
 "peft.method":T("lora","train.py:172-189 LoraConfig on every Linear4bit (find_all_linear_names) -> get_peft_model"),
 "peft.rank":T(64,lqy+":22 lora_rank 64"),
},held_out=True,note=H35+"; README.MD:61-64 deepspeed train.py --train_args_file ./train_args/llama2-7b-pretrain.yaml (the bare deepspeed launcher; argparse reads only the YAML path, then HfArgumentParser.parse_yaml_file fills a custom dataclass and TrainingArguments, whose deepspeed key names the ZeRO JSON; QLoRA with S2-attention monkey patches and linear RoPE scaling, a Trainer subclass with its own loss; LongQLoRA context extension of Llama-2-7B to 8k, LLM). Not labelled: dist.world_size, dist.devices_per_node and batch.global (the bare deepspeed launcher uses every GPU of the host)")
DR=("YiyanXu/DiffRec","d35a6c63c14cc0b376c138eb0b5c35895d1dcffd")
J("diffrec-amazon-book-argparse-own-loop-1gpu",*DR,["."],"DiffRec",["main.py","--","--cuda","--dataset=amazon-book_clean","--data_path=../datasets/amazon-book_clean/","--lr=5e-5","--weight_decay=0","--batch_size=400","--dims=[1000]","--emb_size=10","--mean_type=x0","--steps=5","--noise_scale=0.0001","--noise_min=0.0005","--noise_max=0.005","--sampling_steps=0","--reweight=1","--log_name=log","--round=1","--gpu=0"],{
 "dist.world_size":T(1,"DiffRec/main.py:74-75 CUDA_VISIBLE_DEVICES set to --gpu 0, device cuda:0: one process on one GPU"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(400,"--batch_size=400 -> DiffRec/main.py:86 DataLoader(batch_size=400 users' interaction vectors)"),
 "batch.grad_accum":T(1,"DiffRec/main.py:165-170 zero_grad/backward/step every batch"),
 "batch.global":T(400,"400 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("AdamW","DiffRec/main.py:113 optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(4,"DiffRec/main.py:86 num_workers=4"),
 "data.pin_memory":T(True,"DiffRec/main.py:86 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H35+"; README.md:77-79 cd ./DiffRec; sh run.sh amazon-book_clean 5e-5 0 400 [1000] 10 x0 5 0.0001 0.0005 0.005 0 1 log 1 0, whose run.sh is one nohup python -u main.py line with sixteen positional parameters ($1 ... ${16}), run in the background with its output redirected: taken as that python line with the README's values put in (argparse, an MLP denoiser and a Gaussian diffusion over each user's interaction vector, its own training loop; diffusion recommender on Amazon-Book, recommendation). Not labelled: model.num_parameters (the MLP's input and output width is the number of items of the dataset, not in the repository)")

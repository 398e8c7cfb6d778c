"""The thirty-first held-out set of the jobs benchmark (run.py --set held-out-31): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits. A first draft (0784d9c0, scored once: first_scoring_held_out_31_draft.{json,txt}) held eleven
jobs whose repositories other benchmarks of the project had already seen; they were replaced by the
jobs below from repositories found nowhere else, labelled before preflight was first run on them (the
pytorch_sac job, kept, was in the draft run)."""
from .core import J, T

H31="thirty-first held-out set"
LC=("lich99/ChatGLM-finetune-LoRA","5b0dec68bf31fec4fb2b8be1b5fdbd3a684a5323")
lct="train.py"
lcc="config/default_config.yaml"
J("chatglm-finetune-lora-accelerate-deepspeed-zero2-module-constants-1gpu",*LC,["."],".",["--","accelerate","launch","--config_file",lcc,lct],{
 "model.ref":T("THUDM/chatglm-6b",lct+":19 checkpoint = 'THUDM/chatglm-6b' -> :52 AutoModel.from_pretrained(trust_remote_code=True)"),
 "model.num_parameters":T(6173000000,"ChatGLM-6B (28 layers, hidden 4096, FFN 16384, vocab 130528): 6.17B",rel_tol=0.1),
 "dist.world_size":T(1,lcc+":20 num_processes 1 (README.md:75 tells the user to change it to the GPU count)"),
 "dist.nodes":T(1,lcc+":19 num_machines 1"),
 "dist.devices_per_node":T(1,lcc+":20 num_processes 1"),
 "dist.sharding":T("zero2",lcc+":8-9 distributed_type DEEPSPEED, zero_stage 2"),
 "dist.offload_optimizer":T("none",lcc+":5 offload_optimizer_device none"),
 "dist.offload_params":T("none",lcc+":6 offload_param_device none"),
 "batch.micro":T(1,lct+":32 BATCH = 1 -> :81 DataLoader(batch_size=BATCH)"),
 "batch.grad_accum":T(8,lct+":35 accumulate_step = 8 -> :40 DeepSpeedPlugin(gradient_accumulation_steps=8) and :116-120 optimizer.step() every 8 batches"),
 "batch.global":T(8,"1 x 8 x 1"),
 "data.padding":T("dynamic","dataset/GLM.py:31-43 collate_fn pads each batch to its longest sample (rounded up to a multiple of pad_to)"),
 "precision.mode":T("bf16",lct+":23 mixed_precision 'bf16' -> :41 Accelerator(mixed_precision=...) under DeepSpeed: bf16 weights with fp32 master copies",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("AdamW",lct+":89 torch.optim.AdamW (passed to DeepSpeed as the client optimizer)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,lct+":65 model.gradient_checkpointing = False"),
 "data.num_workers":T(0,lct+":81 DataLoader without num_workers"),
 "data.pin_memory":T(False,lct+":81 DataLoader without pin_memory"),
 "compile.enabled":T(False,lcc+":11 dynamo_backend 'no'"),
 "peft.method":T("lora",lct+":24-29,59 get_lora_model(model, lora_config) -> lora_utils/insert_lora.py:77-92 peft LoraConfig, LoRA layers swapped into each attention's query_key_value"),
 "peft.rank":T(32,lct+":25 lora_config r 32 -> lora_utils/insert_lora.py:84"),
 "task.mode":T("lora","16-bit base + LoRA"),
},held_out=True,note=H31+"; README.md:67-70 accelerate launch --config_file config/default_config.yaml train.py (no argparse at all: every setting a module constant of train.py, an accelerate YAML with a DeepSpeed ZeRO-2 section and one process, a DeepSpeedPlugin built in code, peft LoRA layers inserted by hand into ChatGLM's fused query_key_value, a hand-written accelerate loop with manual accumulation; LoRA tuning of ChatGLM-6B on alpaca). Not labelled: data.seq_len (train.py:79 drops samples longer than MAX_LENGTH 256 rather than truncating; with a batch of one each step is its sample's length)")
LT=("beyondguo/LLM-Tuning","73e6bd55896317c81e0efc1e347c057be98c5542")
ltf="chatglm_lora_tuning.py"
J("llm-tuning-chatglm-6b-lora-hfargparser-device-map-1proc",*LT,["."],".",[ltf,"--","--tokenized_dataset","simple_math_4op","--lora_rank","8","--per_device_train_batch_size","10","--gradient_accumulation_steps","1",
 "--max_steps","100000","--save_steps","200","--save_total_limit","2","--learning_rate","1e-4","--fp16","--remove_unused_columns","false","--logging_steps","50","--output_dir","weights/simple_math_4op"],{
 "model.ref":T("THUDM/chatglm-6b",ltf+":15 model_path = 'THUDM/chatglm-6b' (a module constant; --model_path is parsed but unused) -> :90-94 AutoModel.from_pretrained"),
 "model.num_parameters":T(6173000000,"ChatGLM-6B (28 layers, hidden 4096, FFN 16384, vocab 130528): 6.17B",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:124 python chatglm_lora_tuning.py: one process"),
 "dist.nodes":T(1,"one process"),
 "batch.micro":T(10,"README.md:127 --per_device_train_batch_size 10"),
 "batch.grad_accum":T(1,"README.md:128 --gradient_accumulation_steps 1"),
 "batch.global":T(10,"10 x 1 x 1"),
 "data.padding":T("dynamic",ltf+":31-51 data_collator pads each batch to its longest sample"),
 "precision.mode":T("amp_fp16","README.md:133 --fp16: autocast + GradScaler over the fp32-loaded model ("+ltf+":90-94 from_pretrained without a dtype)",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW","TrainingArguments without --optim (transformers unpinned: adamw_hf or adamw_torch)",any_of=["AdamW","adamw","adamw_hf","adamw_torch","adamw_torch_fused"]),
 "memory.gradient_checkpointing":T(True,ltf+":103 model.gradient_checkpointing_enable()"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch.compile, no --torch_compile"),
 "peft.method":T("lora",ltf+":119-127 LoraConfig -> get_peft_model"),
 "peft.rank":T(8,"README.md:126 --lora_rank 8 -> "+ltf+":122 r"),
 "task.mode":T("lora","full-precision base + LoRA"),
},held_out=True,note=H31+"; README.md:124-137 CUDA_VISIBLE_DEVICES=2,3 python chatglm_lora_tuning.py --tokenized_dataset simple_math_4op --lora_rank 8 --per_device_train_batch_size 10 ... --fp16 --remove_unused_columns false --logging_steps 50 --output_dir weights/simple_math_4op (its CUDA_VISIBLE_DEVICES=2,3 prefix left off; train.sh is every line commented out; HfArgumentParser over a custom dataclass and TrainingArguments, the model id a module constant, device_map='auto', a Trainer subclass with its own compute_loss and collator; LoRA tuning of ChatGLM-6B on a pre-tokenized dataset). Not labelled: dist.sharding (device_map='auto' spreads one process's layers over the visible GPUs, two in the README), data.seq_len (tokenize_dataset_rows.py, a separate step), peft.target_modules (peft's per-architecture default, peft unpinned)")
CC=("OFA-Sys/Chinese-CLIP","31863c707501bf1605d36842f43deb78793dbc5d")
ccs="run_scripts/muge_finetune_vit-b-16_rbt-base.sh"
ccm="cn_clip/training/main.py"
J("chinese-clip-vit-b-16-muge-finetune-distributed-launch-8gpu",*CC,["."],".",[ccs,"--","/data"],{
 "model.num_parameters":T(188000000,ccs+":55-56 ViT-B-16 + RoBERTa-wwm-ext-base-chinese -> "+ccm+":94 CLIP(**model_info); README.md:48 CN-CLIP ViT-B/16 188M (86M vision + 102M text)",rel_tol=0.1),
 "dist.world_size":T(8,ccs+":11,13 GPUS_PER_NODE 8 x WORKER_CNT 1 -> :60 torch.distributed.launch --nproc_per_node=8 --nnodes=1"),
 "dist.nodes":T(1,ccs+":13 WORKER_CNT=1 -> --nnodes=1"),
 "dist.devices_per_node":T(8,ccs+":11 GPUS_PER_NODE=8"),
 "dist.sharding":T("ddp",ccm+":135 DistributedDataParallel"),
 "batch.micro":T(128,ccs+":47 batch_size=128 -> :75 --batch-size -> cn_clip/training/data.py:157,169-175 DataLoader per process"),
 "batch.grad_accum":T(1,ccs+":49 accum_freq=1 -> :79 --accum-freq"),
 "batch.global":T(1024,"128 x 1 x 8"),
 "data.seq_len":T(52,ccs+":45 context_length=52 -> :73 --context-length -> "+ccm+":144 get_data(max_txt_length=52) -> cn_clip/training/data.py:113 tokenize(context_length=52)"),
 "data.image_size":T(224,ccs+":55 ViT-B-16 -> cn_clip/clip/model_configs/ViT-B-16.json:3 image_resolution 224 -> cn_clip/training/data.py:152 resolution"),
 "precision.mode":T("amp_fp16","cn_clip/training/params.py:124-127 --precision default 'amp' -> "+ccm+":176 GradScaler and cn_clip/training/train.py:209 autocast(enabled=True), fp32 weights ("+ccm+":102-103)"),
 "optimizer.name":T("AdamW",ccm+":158 optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"cn_clip/training/params.py:166-169 --grad-checkpointing store_true, not given"),
 "data.num_workers":T(4,"cn_clip/training/params.py:31 --num-workers default 4 -> cn_clip/training/data.py:173"),
 "data.pin_memory":T(False,"cn_clip/training/data.py:172 pin_memory=False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none",ccs+":30 resumes from the pretrained CN-CLIP checkpoint; every parameter trained (no --freeze-vision)"),
},held_out=True,note=H31+"; README.md:332 bash run_scripts/muge_finetune_vit-b-16_rbt-base.sh ${DATAPATH} (DATAPATH filled with /data; shell variables for the distributed layout and every hyperparameter, python3 -m torch.distributed.launch --use_env --nproc_per_node=${GPUS_PER_NODE} --nnodes=${WORKER_CNT} ... cn_clip/training/main.py with dashed flags, argparse in params.py, the vision and text towers chosen by name from JSON configs; contrastive fine-tuning of Chinese CLIP ViT-B/16 on MUGE image-text retrieval)")
VT=("jeonsworld/ViT-pytorch","460a162767de1722a014ed2261463dbbc01196b6")
J("vit-pytorch-b16-cifar10-finetune-apex-o2-1gpu",*VT,["."],".",["train.py","--","--name","cifar10-100_500","--dataset","cifar10","--model_type","ViT-B_16","--pretrained_dir","checkpoint/ViT-B_16.npz","--fp16","--fp16_opt_level","O2"],{
 "model.num_parameters":T(85806346,"--model_type ViT-B_16 -> models/configs.py:38-46 (hidden 768, MLP 3072, 12 layers, no representation layer) -> train.py:64 VisionTransformer(img_size 224, num_classes 10): patch embedding 590,592 + position 151,296 + class token 768 + 12 blocks x 7,087,872 + final LayerNorm 1,536 + head Linear(768, 10) 7,690 = 85,806,346",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:41 python3 train.py: --local_rank -1 (train.py:281) -> :299-301 one process, no DDP (:170)"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","train.py:170-171 apex DDP only when --local_rank != -1; no DataParallel"),
 "batch.micro":T(512,"train.py:260 --train_batch_size default 512 -> :147 // gradient_accumulation_steps 1 -> utils/data_utils.py:51-55 DataLoader"),
 "batch.grad_accum":T(1,"train.py:285 --gradient_accumulation_steps default 1"),
 "batch.global":T(512,"512 x 1 x 1"),
 "data.image_size":T(224,"train.py:258 --img_size default 224 -> utils/data_utils.py:17 RandomResizedCrop((224, 224))"),
 "precision.mode":T("amp_fp16","--fp16 --fp16_opt_level O2 -> train.py:163-167 apex amp.initialize(opt_level='O2'): fp16 model with fp32 master weights and loss scaling",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("SGD","train.py:153 torch.optim.SGD(momentum=0.9)",any_of=["SGD","sgd"]),
 "data.num_workers":T(4,"utils/data_utils.py:54 num_workers=4"),
 "data.pin_memory":T(True,"utils/data_utils.py:55 pin_memory=True"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","train.py:65 ImageNet-21k weights loaded, every parameter fine-tuned"),
},held_out=True,note=H31+"; README.md:41 python3 train.py --name cifar10-100_500 --dataset cifar10 --model_type ViT-B_16 --pretrained_dir checkpoint/ViT-B_16.npz --fp16 --fp16_opt_level O2 (argparse, the architecture from an ml_collections config picked by name, NVIDIA apex amp and apex DDP, the per-step batch divided by the accumulation steps after parsing; fine-tuning ViT-B/16 on CIFAR-10, vision)")
PI=("krasserm/perceiver-io","46c63250d93eb351bcd8ff8ba9113f5025941dd9")
pis="examples/training/img_clf/train.sh"
J("perceiver-io-mnist-image-classifier-lightning-cli-2gpu",*PI,["."],".",[pis],{
 "dist.world_size":T(2,pis+":19-20 --trainer.accelerator=gpu --trainer.devices=2 (one node)"),
 "dist.nodes":T(1,"no --trainer.num_nodes (default 1)"),
 "dist.devices_per_node":T(2,pis+":20 --trainer.devices=2"),
 "dist.sharding":T("ddp",pis+":22 --trainer.strategy=ddp_static_graph -> perceiver/scripts/cli.py:32-33 DDPStrategy(static_graph=True)"),
 "batch.micro":T(128,pis+":15 --data.batch_size=128 -> perceiver/data/vision/mnist.py:64-70 DataLoader per process"),
 "batch.grad_accum":T(1,"no --trainer.accumulate_grad_batches (Lightning default 1)"),
 "batch.global":T(256,"128 x 1 x 2"),
 "data.image_size":T(28,"--data=MNISTDataModule -> perceiver/data/vision/mnist.py:44-48 image_shape 28 x 28"),
 "precision.mode":T("fp32","no --trainer.precision and none in perceiver/scripts/trainer.yaml (Lightning 2 default 32-true)"),
 "optimizer.name":T("AdamW",pis+":16 --optimizer=AdamW (LightningCLI optimizer class)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(3,"perceiver/data/vision/mnist.py:25 num_workers default 3"),
 "data.pin_memory":T(True,"perceiver/data/vision/mnist.py:26 pin_memory default True"),
 "memory.gradient_checkpointing":T(False,"perceiver/model/core/config.py:60,75 activation_checkpointing default False (not set)"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H31+"; docs/training-examples.md:131 bash examples/training/img_clf/train.sh (python -m perceiver.scripts.vision.image_classifier fit --model.num_latents=32 ... --data=MNISTDataModule --data.batch_size=128 --optimizer=AdamW --optimizer.lr=1e-3 --trainer.accelerator=gpu --trainer.devices=2 --trainer.strategy=ddp_static_graph ...: a LightningCLI subclass run as a module, defaults from a packaged trainer.yaml, linked arguments, a custom strategy string replaced in instantiate_trainer; Perceiver IO image classification on MNIST). Not labelled: model.num_parameters (a Perceiver encoder/decoder assembled from nested config dataclasses with CLI overrides; not counted by hand here)")
MG=("seungwonpark/melgan","aca59909f6dd028ec808f987b154535a7ca3400c")
mgc="config/default.yaml"
J("melgan-vocoder-multidoc-yaml-hparams-1gpu",*MG,["."],".",["trainer.py","--","-c",mgc,"-n","melgan"],{
 "dist.world_size":T(1,"README.md:27 python trainer.py -c ... -n ...: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","utils/train.py:17-18 .cuda() on one device; no DDP/DataParallel"),
 "batch.micro":T(16,mgc+":8 train.batch_size 16 -> datasets/dataloader.py:15-16 DataLoader"),
 "batch.grad_accum":T(1,"utils/train.py:71-98 one step of each optimizer per batch"),
 "batch.global":T(16,"16 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam",mgc+":9 optimizer 'adam' -> utils/train.py:20-23 torch.optim.Adam for generator and discriminator",any_of=["Adam","adam"]),
 "data.num_workers":T(32,mgc+":7 train.num_workers 32 -> datasets/dataloader.py:16"),
 "data.pin_memory":T(True,"datasets/dataloader.py:16 pin_memory=True"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H31+"; README.md:27 python trainer.py -c [config yaml file] -n [name of the run] (filled with config/default.yaml and melgan; argparse for the paths, hyperparameters from a multi-document YAML (--- separated, utils/hparams.py:18 yaml.load_all) merged into a dot-access HParam object, a generator and a multi-scale discriminator each with its own Adam; MelGAN neural vocoder, speech synthesis). Not labelled: model.num_parameters (a generator and a discriminator: no single model), data.seq_len (16,000 audio samples a segment)")
GC=("chennnM/GCNII","ca91f5686c4cd09cc1c6f98431a5d5b7e36acc92")
J("gcnii-64-layer-cora-argparse-full-batch-1gpu",*GC,["."],".",["train.py","--","--data","cora","--layer","64","--test"],{
 "model.num_parameters":T(354375,"--layer 64, train.py:22 --hidden default 64 -> :46-53 GCNII(nfeat 1433 Cora features, nclass 7) -> model.py:41-51 64 GraphConvolution(64, 64) weights without bias (262,144) + Linear(1433, 64) (91,776) + Linear(64, 7) (455) = 354,375",rel_tol=0.1),
 "dist.world_size":T(1,"semi.sh:1 python -u train.py: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel (train.py:39-40 one device, cuda:0)"),
 "batch.grad_accum":T(1,"train.py:60-68 one optimizer step per epoch over the whole graph"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","train.py:55-58 optim.Adam with two parameter groups",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H31+"; semi.sh:1 python -u train.py --data cora --layer 64 --test (the first of the six runs of README.md:36's sh semi.sh, its -u dropped; argparse, `from utils import *` and `from model import *`, full-batch training on Cora with two weight-decay groups and early stopping; a 64-layer graph convolutional network with initial residual and identity mapping, graph). Not labelled: batch sizes (full-batch: every node every step), data loader workers and pin memory (no DataLoader)")
CU=("MishaLaskin/curl","8416d6e3869e38ca0e46fcbc54a2f784dc09d7fc")
cus="scripts/run.sh"
J("curl-sac-cartpole-swingup-pixels-shell-1gpu",*CU,["."],".",[cus],{
 "dist.world_size":T(1,cus+":1 CUDA_VISIBLE_DEVICES=5 python train.py: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(128,cus+":9 --batch_size 128 -> utils.py:127 replay buffer sample of 128"),
 "batch.grad_accum":T(1,"curl_sac.py:437-460 one step of each optimizer per update"),
 "batch.global":T(128,"128 x 1 x 1"),
 "data.image_size":T(84,cus+":6 --image_size 84 -> utils.py:134 random_crop(obses, 84)"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","curl_sac.py:302-326 torch.optim.Adam for actor, critic, temperature, encoder and CPC",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H31+"; README.md:14-16 bash script/run.sh (the folder is scripts/; CUDA_VISIBLE_DEVICES=5 python train.py --domain_name cartpole --task_name swingup --encoder_type pixel --action_repeat 8 --pre_transform_image_size 100 --image_size 84 --agent curl_sac --frame_stack 3 ... --batch_size 128 --num_train_steps 1000000; argparse, a replay buffer that crops 100-pixel frames to 84, an agent class with five Adam optimizers; contrastive unsupervised representations for pixel-based soft actor-critic on DeepMind Control, RL). Not labelled: model.num_parameters (actor, critic, target critic and CURL head: no single model), data loader workers and pin memory (no DataLoader)")
DL=("VainF/DeepLabV3Plus-Pytorch","4e1087de98bc49d55b9239ae92810ef7368660db")
J("deeplabv3plus-mobilenet-voc-argparse-dataparallel-1gpu",*DL,["."],".",["main.py","--","--model","deeplabv3plus_mobilenet","--enable_vis","--vis_port","28333","--gpu_id","0","--year","2012_aug","--crop_val","--lr","0.01","--crop_size","513","--batch_size","16","--output_stride","16"],{
 "dist.world_size":T(1,"README.md:209 python main.py --gpu_id 0: one process, main.py:224 CUDA_VISIBLE_DEVICES='0'"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","main.py:307 nn.DataParallel over the one visible GPU: nothing replicated"),
 "batch.micro":T(16,"README.md:209 --batch_size 16 -> main.py:238-240 DataLoader (one GPU)"),
 "batch.grad_accum":T(1,"main.py one optimizer step per batch"),
 "batch.global":T(16,"16 x 1 x 1"),
 "data.image_size":T(513,"--crop_size 513 -> main.py:106 ExtRandomCrop((513, 513))"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("SGD","main.py:256 torch.optim.SGD",any_of=["SGD","sgd"]),
 "data.num_workers":T(2,"main.py:239 num_workers=2"),
 "data.pin_memory":T(False,"main.py:238-240 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","ImageNet-pretrained backbone, every parameter trained"),
},held_out=True,note=H31+"; README.md:209 python main.py --model deeplabv3plus_mobilenet --enable_vis --vis_port 28333 --gpu_id 0 --year 2012_aug --crop_val --lr 0.01 --crop_size 513 --batch_size 16 --output_stride 16 (argparse, CUDA_VISIBLE_DEVICES set from --gpu_id inside the script, the network from a dict of builder functions keyed by --model, the model always wrapped in nn.DataParallel, joint transforms of image and mask; semantic segmentation on PASCAL VOC 2012 aug). Not labelled: model.num_parameters (a MobileNetV2 backbone with a DeepLabV3+ head built through several factory layers; not counted by hand here)")
AT=("jadore801120/attention-is-all-you-need-pytorch","132907dd272e2cc92e3c10e6c4e783a87ff8893d")
J("attention-is-all-you-need-multi30k-torchtext-bucketiterator-1gpu",*AT,["."],".",["train.py","--","-data_pkl","m30k_deen_shr.pkl","-embs_share_weight","-proj_share_weight","-label_smoothing","-output_dir","output","-b","256","-warmup","128000","-epoch","400"],{
 "dist.world_size":T(1,"README.md:47 python train.py: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(256,"-b 256 -> train.py:306,334 BucketIterator(batch_size=256) (examples a batch)"),
 "batch.grad_accum":T(1,"train.py:92-93 backward then step_and_update_lr every batch"),
 "batch.global":T(256,"256 x 1 x 1"),
 "data.padding":T("dynamic","torchtext BucketIterator pads each batch to its longest sentence"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","train.py:298-300 ScheduledOptim(optim.Adam(betas=(0.9, 0.98)))",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H31+"; README.md:47 python train.py -data_pkl m30k_deen_shr.pkl -log m30k_deen_shr -embs_share_weight -proj_share_weight -label_smoothing -output_dir output -b 256 -warmup 128000 -epoch 400 (its -log m30k_deen_shr left off: train.py declares no -log and argparse would reject it; single-dash argparse, a pickled torchtext Field vocabulary, BucketIterator batches, the optimizer wrapped in a warm-up schedule class; the original Transformer for German-English translation on Multi30k). Not labelled: model.num_parameters (source and target vocabulary sizes come from the data pickle), data.seq_len (train.py:317 filters sentences longer than the pickle's max_len rather than truncating)")
YO=("eriklindernoren/PyTorch-YOLOv3","1d621c8489e22c76ceb93bb2397ac6c8dfb5ceb7")
yot="pytorchyolo/train.py"
J("pytorch-yolov3-coco-darknet-cfg-poetry-console-script-1gpu",*YO,["."],".",["--","poetry","run","yolo-train","--data","config/coco.data","--pretrained_weights","weights/darknet53.conv.74"],{
 "model.num_parameters":T(61949149,yot+":63 --model default config/yolov3.cfg: Darknet-53 backbone + three YOLO heads for 80 COCO classes (the widely printed 61,949,149)",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:88 poetry run yolo-train (pyproject.toml:40 pytorchyolo.train:run): one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(16,"config/yolov3.cfg:6-7 batch 16 // subdivisions 1 -> "+yot+":106 mini_batch_size -> :49-55 DataLoader"),
 "batch.grad_accum":T(1,"config/yolov3.cfg:7 subdivisions 1 -> "+yot+":173 optimizer step every batch"),
 "batch.global":T(16,"16 x 1 x 1"),
 "data.image_size":T(416,"config/yolov3.cfg:8-9 width and height 416 -> "+yot+":116 img_size"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","config/yolov3.cfg has no optimizer key -> "+yot+":133-134 optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(8,yot+":67 --n_cpu default 8 -> :53"),
 "data.pin_memory":T(True,yot+":54 pin_memory=True"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile (pyproject.toml:12 torch < 1.13)"),
 "peft.method":T("none","Darknet-53 ImageNet weights for the backbone, every parameter trained"),
},held_out=True,note=H31+"; README.md:88 poetry run yolo-train --data config/coco.data --pretrained_weights weights/darknet53.conv.74 (a Poetry console script, pyproject.toml:38-41 yolo-train = pytorchyolo.train:run; argparse, the network and the batch, subdivisions, input size and optimizer from a Darknet .cfg file parsed by the project, accumulation by subdivisions; YOLOv3 object detection on COCO)")
SA=("denisyarats/pytorch_sac","81c5b536d3a1c5616b2531e446450df412a064fb")
sac="config/agent/sac.yaml"
J("pytorch-sac-cheetah-run-hydra-0-11-1gpu",*SA,["."],".",["train.py","--","env=cheetah_run"],{
 "dist.world_size":T(1,"README.md:27 python train.py env=cheetah_run: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(1024,sac+":22 batch_size 1024 -> agent/sac.py:131-132 replay_buffer.sample(1024)"),
 "batch.grad_accum":T(1,"agent/sac.py:95-128 one step of each optimizer per update"),
 "batch.global":T(1024,"1024 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","agent/sac.py:44-54 torch.optim.Adam for actor, critic and temperature",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H31+"; README.md:27 python train.py env=cheetah_run (a Hydra 0.11 app, conda_env.yml:17 hydra@0.11_branch: @hydra.main(config_path='config/train.yaml', strict=True) names the primary YAML file, a defaults list with the agent group, class/params entries built by hydra.utils.instantiate with ??? fields filled at run time; soft actor-critic on the DeepMind Control cheetah run task, RL with a replay buffer). Not labelled: model.num_parameters (an actor, a double-Q critic and a frozen target critic with no single model; obs and action sizes come from the environment at run time), data loader workers and pin memory (no DataLoader: the batch is drawn from a replay buffer with numpy)")

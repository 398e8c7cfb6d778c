"""The forty-eighth held-out set of the jobs benchmark (run.py --set held-out-48): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them. No repository is used by another jobs set's
manifest (bench/realworld/jobs/manifest.json); each owner/name and each bare repository name was
grepped in bench/, docs/, tests/, calibration/, preflight/ and adapters/ and appears nowhere.
Parameter counts are labelled only where a published checkpoint's shape gives them or the
repository's own layer definitions fix them exactly."""
from .core import J, T

H48="forty-eighth held-out set"

SQ=("yyDing1/ScaleQuest","74c12c2e3245bdaec1e23f74cd58eb9230ba7d38")
sqs="src/train_question_generator/scripts/run_qwen2_qft.sh"
sqy="src/train_question_generator/scripts/zero3.yaml"
sqt="src/train_question_generator/qft_train/train.py"
J("scalequest-qwen2-math-7b-qft-trl-sft-accelerate-deepspeed-zero3-8gpu",*SQ,["src/train_question_generator"],"src/train_question_generator/qft_train",
  ["--","accelerate","launch","--config_file","../scripts/zero3.yaml","--main_process_port","29500","train.py",
   "--model_path","Qwen/Qwen2-Math-7B-Instruct","--dataset_path","/path/to/gsm8k_math_15k","--prompt_type","qwen2-math",
   "--num_train_epochs","1","--gradient_checkpointing","false","--max_length","256","--output_dir","models/Qwen2-Math-7B-QFT",
   "--per_device_train_batch_size","1","--per_device_eval_batch_size","1","--gradient_accumulation_steps","4"],{
 "model.ref":T("Qwen/Qwen2-Math-7B-Instruct",sqs+":6 --model_path -> "+sqt+":107-112 AutoModelForCausalLM.from_pretrained"),
 "model.num_parameters":T(7615616512,"Qwen2-Math-7B-Instruct (the Qwen2-7B architecture): 7.62B published",rel_tol=0.1),
 "dist.world_size":T(8,sqy+":15 num_processes 8 (accelerate launch --config_file, no --num_processes)"),
 "dist.nodes":T(1,sqy+":14 num_machines 1"),
 "dist.devices_per_node":T(8,sqy+":15 num_processes 8 on one machine"),
 "dist.sharding":T("zero3",sqy+":8-9 distributed_type DEEPSPEED, zero_stage 3"),
 "dist.offload_optimizer":T("none",sqy+":4 offload_optimizer_device none"),
 "dist.offload_params":T("none",sqy+":5 offload_param_device none"),
 "batch.micro":T(1,sqs+":13 --per_device_train_batch_size 1 -> "+sqt+":87"),
 "batch.grad_accum":T(4,sqs+":15 --gradient_accumulation_steps 4 -> "+sqt+":93"),
 "batch.global":T(32,"1 x 4 x 8"),
 "data.seq_len":T(256,sqs+":11 --max_length 256 -> "+sqt+":156-157 SFTTrainer(max_seq_length=256, packing=True): packed 256-token sequences"),
 "data.padding":T("packed",sqt+":157 packing=True",any_of=["packed"]),
 "precision.mode":T("bf16",sqt+":109 torch_dtype=torch.bfloat16 weights, :44-45 bf16 default True -> :96, "+sqy+":13 mixed_precision bf16: DeepSpeed bf16",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("paged_adamw_32bit",sqt+":61-63 optim default paged_adamw_32bit (not passed) -> :100 (the accelerate DeepSpeed plugin has no optimizer, so the Trainer's own is handed to DeepSpeed)",any_of=["paged_adamw_32bit","PagedAdamW32bit","PagedAdamW"]),
 "memory.gradient_checkpointing":T(False,sqs+":10 --gradient_checkpointing false (over "+sqt+":57-59's default True) -> :94"),
 "model.attn_implementation":T("flash_attention_2",sqt+":110 use_flash_attention_2=True",any_of=["flash_attention_2","flash_attn"]),
 "data.num_workers":T(0,sqt+":84-104 no dataloader_num_workers: TrainingArguments default 0"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("none",sqt+":148-158 SFTTrainer without peft_config: full fine-tuning"),
},held_out=True,note=H48+"; the job is the first of the two commands in "+sqs+" (step 1, question fine-tuning: ACCELERATE_LOG_LEVEL=info accelerate launch --config_file ./zero3.yaml --main_process_port 29500 train.py --model_path Qwen/Qwen2-Math-7B-Instruct --max_length 256 --per_device_train_batch_size 1 --gradient_accumulation_steps 4 ...); the script names ./zero3.yaml (in scripts/) and train.py (in qft_train/) relative to one folder that holds neither, so the invocation is that command run from qft_train/ with the config path made ../scripts/zero3.yaml (an HfArgumentParser over one ScriptArguments dataclass whose values are copied into TrainingArguments in code, the model loaded in bf16 with flash-attention 2 and moved to cuda before the Trainer, TRL SFTTrainer with dataset_text_field and packing; Qwen2-Math-7B-Instruct taught to generate questions from GSM8K/MATH problems, LLM SFT). The script's second command (qpo_train's DPO) is another job. Not labelled: data.pin_memory (the installed transformers' default)")

VL=("KangHoML/VLSI","239d59dd63b5530eb59ca23134325946c509024e")
vls="2024-03-22/lstm.sh"
vlt="2024-03-22/train.py"
J("vlsi-imdb-lstm-classifier-torchrun-ddp-amp-by-bool-flag-4gpu",*VL,["2024-03-22"],"2024-03-22",["lstm.sh"],{
 "dist.world_size":T(4,vls+":1 torchrun --nproc_per_node 4 train.py --is_ddp True -> "+vlt+":104-109 init_process_group, DistributedSampler"),
 "dist.nodes":T(1,"torchrun without --nnodes: one node"),
 "dist.devices_per_node":T(4,vls+":1 --nproc_per_node 4"),
 "dist.sharding":T("ddp",vlt+":123-124 DistributedDataParallel(net)"),
 "batch.micro":T(16,vls+":14 --batch_size 16 -> "+vlt+":115-116 DataLoader(batch_size=16) per process"),
 "batch.grad_accum":T(1,vlt+":160-178 one optimizer.step per batch"),
 "batch.global":T(64,"16 x 1 x 4"),
 "data.seq_len":T(500,vls+":5 --max_len 500 -> 2024-03-22/data.py:36,82-90 every review padded or cut to 500 tokens"),
 "precision.mode":T("amp_fp16",vls+":2 --is_amp False, but "+vlt+":32 declares --is_amp with type=bool, and bool('False') is True -> :141-142 GradScaler and :165-171 torch.cuda.amp.autocast() (fp16) over fp32 weights",any_of=["amp_fp16"]),
 "optimizer.name":T("RMSprop",vls+":10 --optimizer 'RMSprop' -> "+vlt+":76-84,130-131 torch.optim.RMSprop",any_of=["RMSprop","rmsprop"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(4,vlt+":116 num_workers=4"),
 "data.pin_memory":T(True,vlt+":116 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H48+"; the job is 2024-03-22/lstm.sh run from its folder (torchrun --nproc_per_node 4 train.py --is_ddp True --is_amp False --tokenizer nltk --vocab_size 10000 --max_len 500 --model lstm --hidden_size 128 --embed_size 100 --n_layers 1 --optimizer RMSprop --lr_scheduler Cosine --batch_size 16 --learning_rate 1e-2 --epoch 15, output redirected to ./result/lstm.txt: argparse with type=bool flags, an IMDB sentiment dataset tokenised with nltk and a torchtext vocabulary, DDP with a DistributedSampler, optional GradScaler/autocast, an embedding + LSTM + linear SentenceClassifier; IMDB sentiment classification, a weekly study-group exercise). Not labelled: model.ref (an in-repository class), model.num_parameters (the embedding's size is len(dataset.vocab), and 2024-03-22/data.py:76-77 builds that vocabulary by iterating each kept token's characters (build_vocab_from_iterator over a dict's keys), so it depends on the data)")

DT=("pcmin03/dacon-template","f2d81eebb906cdd61d9379d5ecf60740e96b02a5")
dts="bash/ddp_train.sh"
dtm="src/models/plant_module.py"
dtd="configs/datamodule/plant.yaml"
J("dacon-template-efficientnetv2-m-hydra-lightning-ddp-sam-6gpu",*DT,["."],"bash",["ddp_train.sh"],{
 "model.num_parameters":T(52890000,dts+":16-17 model.model.name=tf_efficientnetv2_m_in21k, num_classes=25 -> "+dtm+":57 timm.create_model: EfficientNetV2-M, 54.1M published with a 1000-class head, 52.9M with a 25-class head",rel_tol=0.1),
 "dist.world_size":T(6,dts+":13 CUDA_VISIBLE_DEVICES=2,3,4,5,6,7 and trainer.gpus=6, +trainer.num_nodes=1"),
 "dist.nodes":T(1,dts+":13 +trainer.num_nodes=1"),
 "dist.devices_per_node":T(6,dts+":13 trainer.gpus=6"),
 "dist.sharding":T("ddp",dts+":13 +trainer.strategy=ddp"),
 "batch.micro":T(15,dts+":13 datamodule.batch_size=15 (over "+dtd+":5's 100) -> src/datamodules/plant_datamodule.py:210-214 DataLoader per process"),
 "batch.grad_accum":T(1,"no accumulate_grad_batches in configs/trainer/default.yaml or the overrides: Lightning default 1 (SAM's manual optimisation steps every batch, "+dtm+":137-145)"),
 "batch.global":T(90,"15 x 1 x 6"),
 "precision.mode":T("fp32",dts+":13 +trainer.precision=32"),
 "optimizer.name":T("SAM",dts+":17 +model.SAM=True -> "+dtm+":256-259 SAM(self.parameters(), torch.optim.AdamW) replacing :252's Adam, with manual optimisation (:70-72, first_step/second_step at :137-145)",any_of=["SAM","AdamW"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(4,dtd+":6 num_workers 4"),
 "data.pin_memory":T(False,dtd+":7 pin_memory False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none",dtm+":57 pretrained=True (configs/model/efficient.yaml:5) timm backbone, fully fine-tuned"),
},held_out=True,note=H48+"; the job is bash/ddp_train.sh run from bash/ (cd ../, then for fold in 2 3 4: CUDA_VISIBLE_DEVICES=2,...,7 python run.py datamodule.batch_size=15 trainer.gpus=6 +trainer.num_nodes=1 +trainer.strategy=ddp +trainer.precision=32 datamodule.label_type=total datamodule.fold=$fold model.model.name=tf_efficientnetv2_m_in21k model.model.num_classes=25 model.lr=5e-4 trainer.max_epochs=100 +model.SAM=True +model.label_smoothing=0.05 +model.cutmix=0.5; labelled for each fold alike: an ashleve/lightning-hydra-template project, @hydra.main over configs/config.yaml with trainer/model/datamodule/callbacks/logger groups, hydra.utils.instantiate of pytorch_lightning.Trainer, a LightningModule wrapping a timm model with SAM, CutMix and label smoothing, a k-fold LightningDataModule with albumentations lists; DACON crop-disease image classification, 25 classes). Not labelled: model.ref (a timm name, not a hub id), data.image_size (the datamodule builds its datasets with Lightning's train_transforms attribute, src/datamodules/plant_datamodule.py:199, not the albumentations list it loaded at :96-100, so the image size is the files')")

IC=("williamconvertino/icl-for-language-modeling","c230466b931a80f6824d34d4123f0b5f26aee31a")
ics="scripts/run.sh"
ict="src/util/training.py"
J("icl-for-lm-transformer-8l-512d-tinystories-lightning-torchrun-sbatch-1gpu",*IC,["."],"scripts",["run.sh"],{
 "model.num_parameters":T(50938368,"main.py:51-56 Transformer(Config('transformer')): src/config/config.py:10-14 d_embed 512, n_heads 8, 8 blocks, vocab len(Tokenizer()) = 50263 (src/data/tokenizer.py:8-32: r50k_base plus three special tokens, counted twice); src/models/transformer.py:10-17 tied embedding 25,734,656 + 8 blocks of 3,150,336 (src/models/model_components/transformer_components.py:13-16 four bias-free 512x512 projections, :57-58 a 512-2048-512 MLP, two LayerNorms) + final LayerNorm 1,024",rel_tol=0.05),
 "dist.world_size":T(1,ics+":31 DEVICES='0' (no --device= argument) -> :49-50 NUM_DEVICES 1 -> :61 torchrun --nproc_per_node=1"),
 "dist.nodes":T(1,ics+":2 #SBATCH --nodes=1; torchrun without --nnodes"),
 "dist.devices_per_node":T(1,ics+":7 --gres=gpu:1, :53 CUDA_VISIBLE_DEVICES=0"),
 "dist.sharding":T("none",ics+":32 STRATEGY='auto' -> :61 --strategy auto -> "+ict+":55-64 Trainer(strategy='auto') on one device"),
 "batch.micro":T(32,"main.py:19 --batch_size default 32 -> "+ict+":66 DataLoader(batch_size=32)"),
 "batch.grad_accum":T(1,ict+":55-64 no accumulate_grad_batches: Lightning default 1"),
 "batch.global":T(32,"32 x 1 x 1"),
 "data.seq_len":T(512,"src/config/config.py:11 max_seq_len 512 -> src/data/disk_dataset.py:38 512-token windows; the model sees 511 after src/util/lightning.py:31-32's shift",any_of=[512,511]),
 "precision.mode":T("amp_fp16","main.py:25 --precision default '16-mixed' -> "+ict+":59 Trainer(precision='16-mixed')",any_of=["amp_fp16"]),
 "optimizer.name":T("AdamW","src/util/lightning.py:57-62 torch.optim.AdamW(betas=(0.9, 0.95), weight_decay=0.1)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(16,"main.py:20 --num_workers default 16 -> "+ict+":66"),
 "data.pin_memory":T(False,ict+":66 DataLoader without pin_memory: default False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H48+"; the job is scripts/run.sh run from scripts/ with no arguments (an sbatch header asking for one GPU, then a shell loop taking --device=/--strategy= out of the arguments, DEVICES defaulting to '0', CUDA_VISIBLE_DEVICES and PYTORCH_CUDA_ALLOC_CONF exported, torchrun --master_port=$MASTER_PORT --nproc_per_node=$NUM_DEVICES ../main.py --strategy auto: argparse, a Config class filled from a preset YAML, a tiktoken r50k_base tokenizer with three extra tokens, a pre-LayerNorm decoder with rotary embeddings from torchtune, a LightningWrapper with AdamW and a cosine warm-up schedule, memory-mapped TinyStories windows; the 'transformer' baseline of a study of in-context-learning blocks for language modelling, LM pre-training). Not labelled: model.ref (an in-repository class)")

DB=("Hzfinfdu/Diffusion-BERT","19d7f494f6eab7f104098873095871d172a879b6")
dbm="DDP_main.py"
J("diffusion-bert-base-layerwise-timestep-lm1b-torch-distributed-launch-4gpu",*DB,["."],".",["run.sh"],{
 "model.ref":T("bert-base-uncased",dbm+":33 --model_name_or_path default bert-base-uncased (not passed by run.sh) -> :93,132 tokenizer and BertConfig from it"),
 "model.num_parameters":T(137853498,dbm+":68-69 --timestep layerwise -> models/modeling_bert_new_timestep.py BertForMaskedLM: bert-base-uncased's masked-LM model (109,514,298 without the pooler) plus a 768-1536-768 timestep MLP in each of the 12 layers (models/modeling_bert_new_timestep.py:489-493, 2,361,600 each)",rel_tol=0.05),
 "dist.world_size":T(4,"run.sh:1 CUDA_VISIBLE_DEVICES='4,5,6,7' python -m torch.distributed.launch --nproc_per_node 4"),
 "dist.nodes":T(1,"torch.distributed.launch without --nnodes: one node"),
 "dist.devices_per_node":T(4,"run.sh:1 --nproc_per_node 4"),
 "dist.sharding":T("ddp",dbm+":143 DDP(model, device_ids=[local_rank])"),
 "batch.micro":T(128,"run.sh:3 --batch_size 128 -> "+dbm+":178 DataLoader(batch_size=128) per process"),
 "batch.grad_accum":T(1,dbm+":234-258 backward and optimizer.step every batch"),
 "batch.global":T(512,"128 x 1 x 4"),
 "data.seq_len":T(130,"dataloader.py:24 lm1b sentences cut at max_length=128, padded per batch ("+dbm+":162-173) and wrapped in [CLS]/[SEP] by denoise_fn ("+dbm+":209-219): at most 130 positions",any_of=[128,130]),
 "data.padding":T("dynamic",dbm+":166-168 pad_sequence to the longest in the batch"),
 "precision.mode":T("fp32",dbm+": no autocast or GradScaler, model built in fp32"),
 "optimizer.name":T("AdamW",dbm+":12,144 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(4,dbm+":178 num_workers=4"),
 "data.pin_memory":T(True,dbm+":178 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full training of every parameter (the model is built from its config: run.sh:5 --from_scratch false is parsed by "+dbm+":51's type=bool as True, so :135-136 model_cls(cfg) with random weights)"),
},held_out=True,note=H48+"; README.md:35-39 'the default training parameters in run.sh' (CUDA_VISIBLE_DEVICES='4,5,6,7' python -m torch.distributed.launch --nproc_per_node 4 --master_port 29501 DDP_main.py --lr 5e-5 --batch_size 128 --timestep 'layerwise' --from_scratch false: argparse with type=bool flags, LOCAL_RANK from the environment, fitlog, a modified HF BertForMaskedLM chosen by --timestep, a discrete masked diffusion with word-frequency noise, a hand-written DDP loop with value clipping and a LambdaLR warm-up; DiffusionBERT, a discrete diffusion language model trained on LM1B). Note: --from_scratch false turns pre-trained initialisation off, the opposite of what it says")

CA=("icip-cas/ChatAlpaca","b83c44a2fefd4e69759c4c196abeaf02d38fd041")
cas="script/train_hf.sh"
cat_="train/train_hf.py"
J("chatalpaca-llama-7b-full-sft-torchrun-hf-trainer-fsdp-8gpu",*CA,["."],".",["script/train_hf.sh"],{
 "model.num_parameters":T(6738415616,cas+":4 --model_name_or_path /path/to/llama-7b (README.md's 'original LLaMA-7B model'): 6.74B published",rel_tol=0.1),
 "dist.world_size":T(8,cas+":3 torchrun --nproc_per_node=8"),
 "dist.nodes":T(1,"torchrun without --nnodes: one node"),
 "dist.devices_per_node":T(8,cas+":3 --nproc_per_node=8"),
 "dist.sharding":T("fsdp_full",cas+":22-23 --fsdp 'full_shard auto_wrap' --fsdp_transformer_layer_cls_to_wrap LlamaDecoderLayer"),
 "batch.micro":T(16,cas+":9 --per_device_train_batch_size 16"),
 "batch.grad_accum":T(1,cas+":11 --gradient_accumulation_steps 1"),
 "batch.global":T(128,"16 x 1 x 8"),
 "data.seq_len":T(2048,cas+":25 --model_max_length 2048 -> "+cat_+":242-246 tokenizer model_max_length, :91-97 padding='max_length' (also for --lazy_preprocess, :186-190)"),
 "data.padding":T("max_length",cat_+":94 padding='max_length'"),
 "precision.mode":T("amp_bf16",cas+":5 --bf16 True over fp32 weights ("+cat_+":237-240 from_pretrained without torch_dtype): FSDP bf16 mixed precision",any_of=["amp_bf16","bf16"]),
 "optimizer.name":T("adamw_torch",cat_+":43 optim default adamw_torch (not passed)",any_of=["adamw_torch","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,cas+":26 --gradient_checkpointing True"),
 "model.attn_implementation":T("flash_attention_2",cat_+":3-7 replace_llama_attn_with_flash_attn() monkey-patches LLaMA attention with FlashAttention",any_of=["flash_attention_2","flash_attn"]),
 "data.num_workers":T(0,"no --dataloader_num_workers: TrainingArguments default 0"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("none","full fine-tuning (the LoRA recipe is script/train_lora.sh)"),
},held_out=True,note=H48+"; README.md:133-170 'run the fintuning script' (script/train_hf.sh: torchrun --nproc_per_node=8 --master_port=20001 train/train_hf.py --model_name_or_path /path/to/llama-7b --bf16 True --per_device_train_batch_size 16 --fsdp 'full_shard auto_wrap' --fsdp_transformer_layer_cls_to_wrap LlamaDecoderLayer --tf32 True --model_max_length 2048 --gradient_checkpointing True --lazy_preprocess True ...: FastChat's train.py with its flash-attention monkey patch, HfArgumentParser over model/data/training dataclasses, a Vicuna conversation template with padding to model_max_length and masked user turns, transformers.Trainer under FSDP; LLaMA-7B full SFT on the 20k multi-turn ChatAlpaca conversations). Related code: README.md:136 says the code is based on lm-sys/FastChat and tloen/alpaca-lora. Not labelled: model.ref (a placeholder local path), data.pin_memory (the installed transformers' default)")

CV=("ZhenyuLU-Heliodore/Customized-ViT","dab44fd576fdd9fe45fa58b9c83ae0217bee662e")
cvs="shells/train_vit_default.sh"
cvt="train_vit.py"
J("customized-vit-6l-512d-cifar100-torch-distributed-run-ddp-8gpu",*CV,["."],"shells",[cvs.split("/")[1]],{
 "model.num_parameters":T(19680356,cvs+":3 --kwargs_path .../vit-for-cifar100/configs/default.yml (this repository's configs/default.yml:1-10) -> vit_classifier/modeling/vit_encoder.py:23-38: a 2x2-patch Conv2d (3->512), 256 positions + CLS, six nn.TransformerEncoderLayer(512, 8 heads, 2048) of 3,152,384 each, a 512-1024-100 classifier",rel_tol=0.05),
 "dist.world_size":T(8,cvs+":1-2 python3.8 -m torch.distributed.run --nnodes=1 --nproc_per_node=8"),
 "dist.nodes":T(1,cvs+":2 --nnodes=1"),
 "dist.devices_per_node":T(8,cvs+":2 --nproc_per_node=8"),
 "dist.sharding":T("ddp",cvt+":47 distribute_model -> vit_classifier/train_utils/distributed.py:11-17 DistributedDataParallel(find_unused_parameters=True)"),
 "batch.micro":T(128,cvs+":6 --train_batch_size 128 -> "+cvt+":37-39 DataLoader per process"),
 "batch.grad_accum":T(1,"vit_classifier/train_utils/train_loops.py:43-54 step every batch"),
 "batch.global":T(1024,"128 x 1 x 8"),
 "data.image_size":T(32,"vit_classifier/data_utils/datasets.py:6-7 CIFAR-100 with RandomCrop(32, padding=4); configs/default.yml:5 input_size 32"),
 "precision.mode":T("fp32","vit_classifier/train_utils/train_loops.py:43-54 no autocast"),
 "optimizer.name":T("AdamW","configs/default.yml:14-16 optim_type AdamW -> vit_classifier/train_utils/inits.py:11-12 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(8,cvt+":38 num_workers=8"),
 "data.pin_memory":T(False,cvt+":37-39 no pin_memory: default False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H48+"; README.md:22-25 'sh /shells/train_vit_default.sh' (CUDA_LAUNCH_BLOCKING=1 python3.8 -m torch.distributed.run --nnodes=1 --nproc_per_node=8 ../train_vit.py --kwargs_path /home/ubuntu/projects/vit-for-cifar100/configs/default.yml --train_batch_size 128 --valid_batch_size 256 --epochs 100, run from shells/: argparse, a YAML of model/optimizer/scheduler kwargs, GROUP_RANK/LOCAL_RANK from the environment, DDP with find_unused_parameters, a per-batch cosine schedule, a hand-written train loop with TensorBoard; a small ViT trained from scratch on CIFAR-100, image classification). Not labelled: model.ref (an in-repository class)")

GC=("gammachen/p-llm-dialog-element-extraction","1f7e97aace15b262578ab9f70338c2ee05c97720")
gct="train.py"
gcd="ds_zero2_no_offload.json"
J("p-llm-dialog-qwen-1.8b-chat-qlora-deepspeed-launcher-zero2-1gpu",*GC,["."],".",
  ["--","CUDA_VISIBLE_DEVICES=0","deepspeed","--master_port","5545","train.py","--train_path","data/train.json","--test_path","data/test.json",
   "--model_name_or_path","Qwen-1_8-chat/","--per_device_train_batch_size","2","--max_len","2048","--max_src_len","1560",
   "--learning_rate","1e-4","--weight_decay","0.1","--num_train_epochs","3","--gradient_accumulation_steps","4","--warmup_ratio","0.03",
   "--seed","1234","--show_loss_step","10","--lora_dim","16","--lora_alpha","64","--save_model_step","100","--lora_dropout","0.1",
   "--output_dir","./output_dir_qlora","--gradient_checkpointing","--ds_file","ds_zero2_no_offload.json","--is_skip"],{
 "dist.world_size":T(1,"run.md:2 CUDA_VISIBLE_DEVICES=0 deepspeed (the launcher starts one process per visible GPU)"),
 "dist.nodes":T(1,"deepspeed without a hostfile: one node"),
 "dist.devices_per_node":T(1,"run.md:2 CUDA_VISIBLE_DEVICES=0"),
 "dist.sharding":T("zero2",gcd+":5-6 zero_optimization stage 2 -> "+gct+":232-233,286 deepspeed.initialize(config=ds_config)"),
 "batch.micro":T(2,"run.md:6 --per_device_train_batch_size 2 -> "+gct+":219 DataLoader and :236 train_micro_batch_size_per_gpu (over "+gcd+":3's 4)"),
 "batch.grad_accum":T(4,"run.md:12 --gradient_accumulation_steps 4 -> "+gct+":242"),
 "batch.global":T(8,gct+":239 train_batch_size = 2 x world size 1 x 4 (over "+gcd+":2's 32)"),
 "data.seq_len":T(2048,"run.md:7 --max_len 2048 -> utils.py:96-105 prompt and answer cut to 2048 tokens; batches padded to the longest, rounded up to a multiple of 8 (utils.py:140-150)"),
 "data.padding":T("dynamic","utils.py:140-150 pad to the batch's longest length"),
 "precision.mode":T("bf16",gcd+":14-16 bf16 enabled (DeepSpeed bf16 over the LoRA weights; the base is 4-bit with compute dtype from the checkpoint's config, "+gct+":154-164)",any_of=["bf16","amp_bf16"]),
 "precision.weights_bits":T(4,gct+":156 load_in_4bit=True"),
 "precision.quant_type":T("nf4",gct+":159 bnb_4bit_quant_type='nf4'"),
 "precision.double_quant":T(True,gct+":158 bnb_4bit_use_double_quant=True"),
 "task.mode":T("qlora","4-bit NF4 base ("+gct+":154-167 prepare_model_for_kbit_training) + LoRA adapters"),
 "optimizer.name":T("AdamW",gcd+":36-37 DeepSpeed optimizer type AdamW (lr, betas, eps, weight_decay filled at "+gct+":245-248)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,"run.md:21 --gradient_checkpointing -> "+gct+":270-272 model.gradient_checkpointing_enable()"),
 "data.num_workers":T(0,gct+":219 DataLoader without num_workers: default 0"),
 "data.pin_memory":T(False,gct+":219 DataLoader without pin_memory: default False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("lora",gct+":170-184 peft LoraConfig over every linear layer (find_all_linear_names)",any_of=["lora","qlora"]),
 "peft.rank":T(16,"run.md:16 --lora_dim 16 -> "+gct+":174 r"),
},held_out=True,note=H48+"; run.md:1-23, the first of its two commands (CUDA_VISIBLE_DEVICES=0 deepspeed --master_port 5545 train.py --model_name_or_path Qwen-1_8-chat/ --per_device_train_batch_size 2 --max_len 2048 --max_src_len 1560 --gradient_accumulation_steps 4 --lora_dim 16 --lora_alpha 64 --gradient_checkpointing --ds_file ds_zero2_no_offload.json --is_skip ...; the second passes --learning_rate l1e-4 and no --ds_file, so it fails) (a firefly/ChatGLM-style hand-written DeepSpeed loop: argparse plus deepspeed.add_config_arguments, the repository's own Qwen-1.8B modelling code loaded in 4-bit NF4 with bitsandbytes, peft LoRA over all linear layers, the DeepSpeed JSON read and rewritten in code (batch sizes, AdamW hyper-parameters, WarmupDecayLR steps), model.backward/model.step; Qwen-1.8B-Chat QLoRA for extracting elements from customer-service dialogues, LLM SFT). Not labelled: model.ref (a local directory), model.num_parameters (Qwen-1.8B-Chat, 1.84B published, but held as 4-bit blocks; earlier sets leave 4-bit bases' counts out), dist.offload_optimizer ("+gcd+":7-12 gives offload_param and offload_optimizer device 'auto', which is not one of DeepSpeed's devices)")

AQ=("jkx19/ActiveQueryNew","09aec498735b932ba49aa47915fb051eb7a3105c")
aqy="recipes/zephyr-7b-beta/dpo/config_qlora.yaml"
aqa="recipes/accelerate_configs/multi_gpu.yaml"
aqt="scripts/trainer.py"
J("activequery-zephyr-7b-sft-qlora-dpo-accelerate-multi-gpu-4gpu",*AQ,["."],".",["pipeline.sh"],{
 "model.ref":T("alignment-handbook/zephyr-7b-sft-qlora",aqy+":2 model_name_or_path (a LoRA adapter: scripts/run_dpo.py:140-160 loads its base, mistralai/Mistral-7B-v0.1, and the adapter)",any_of=["alignment-handbook/zephyr-7b-sft-qlora","mistralai/Mistral-7B-v0.1"]),
 "dist.world_size":T(4,"pipeline.sh:2,6 CUDA_VISIBLE_DEVICES=0,1,2,3 and --num_processes=4 (over "+aqa+":10's 8)"),
 "dist.nodes":T(1,aqa+":9 num_machines 1"),
 "dist.devices_per_node":T(4,"pipeline.sh:6 --num_processes=4 on one machine"),
 "dist.sharding":T("ddp",aqa+":3 distributed_type MULTI_GPU -> Trainer DDP"),
 "batch.micro":T(4,aqy+":51 per_device_train_batch_size 4"),
 "batch.grad_accum":T(4,aqy+":37 gradient_accumulation_steps 4"),
 "batch.global":T(64,"4 x 4 x 4"),
 "data.seq_len":T(512,"no max_length in "+aqy+" (src/alignment/configs.py:285-288 default None) -> scripts/run_dpo.py:189 -> "+aqt+":284-290 DPOTrainer falls back to 512"),
 "precision.mode":T("amp_bf16",aqy+":30 bf16 true, :3 torch_dtype bfloat16 for the 4-bit base's compute dtype (src/alignment/model_utils.py:43-54), LoRA weights under bf16 autocast; "+aqa+":8 mixed_precision bf16",any_of=["amp_bf16","bf16"]),
 "precision.weights_bits":T(4,aqy+":7 load_in_4bit true -> src/alignment/model_utils.py:44-54 BitsAndBytesConfig(load_in_4bit=True)"),
 "precision.quant_type":T("nf4","src/alignment/configs.py:183-185 bnb_4bit_quant_type default nf4"),
 "precision.double_quant":T(False,"src/alignment/configs.py:186 use_bnb_nested_quant default False"),
 "task.mode":T("qlora","4-bit NF4 base + LoRA adapters ("+aqy+":6-18)"),
 "optimizer.name":T("paged_adamw_32bit",aqy+":49 optim paged_adamw_32bit",any_of=["paged_adamw_32bit","PagedAdamW32bit","PagedAdamW"]),
 "memory.gradient_checkpointing":T(True,aqy+":38-40 gradient_checkpointing true (use_reentrant false)"),
 "data.num_workers":T(0,"no dataloader_num_workers in "+aqy+": TrainingArguments default 0 (:27 preprocessing_num_workers is datasets.map's)"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("lora",aqy+":6-18 use_peft with LoRA r 128 on the seven projections -> "+aqt+":205-237 the loaded SFT adapter merged, then a new LoRA from get_peft_config",any_of=["lora","qlora"]),
 "peft.rank":T(128,aqy+":8 lora_r 128"),
},held_out=True,note=H48+"; the job is pipeline.sh run from the repository root (HF_HOME and CUDA_VISIBLE_DEVICES=0,1,2,3 exported, then ACCELERATE_LOG_LEVEL=info accelerate launch --config_file recipes/accelerate_configs/multi_gpu.yaml --num_processes=4 --main_process_port 29500 scripts/run_dpo.py recipes/zephyr-7b-beta/dpo/config_qlora.yaml: a fork of huggingface/alignment-handbook (an earlier set's repository) whose run_dpo.py imports a modified DPOTrainer from scripts/trainer.py with data_selection/Gamma/pseudo_label options for active preference-data selection, H4ArgumentParser reading the YAML, an SFT LoRA adapter loaded onto its 4-bit base, ref_model None under PEFT; Zephyr-7B QLoRA DPO on UltraFeedback, LLM preference tuning). Not labelled: model.num_parameters (a 4-bit base, as in earlier sets), model.attn_implementation (use_flash_attention_2 default False, not set), data.pin_memory (the installed transformers' default)")

MN=("vayvi/modded-nanogpt-SOAP-pom","7b5d2ffee4713589b30902dcc053a38ff2a5ef4e")
mnt="train.py"
J("modded-nanogpt-soap-pom-gpt-d12-hydra-torchrun-standalone-4gpu",*MN,["."],".",["run_4_gpus.sh"],{
 "dist.world_size":T(4,"run_4_gpus.sh:6 torchrun --standalone --nproc_per_node=4 -> "+mnt+":261-264 init_process_group, WORLD_SIZE"),
 "dist.nodes":T(1,"run_4_gpus.sh:6 --standalone"),
 "dist.devices_per_node":T(4,"run_4_gpus.sh:6 --nproc_per_node=4"),
 "dist.sharding":T("ddp",mnt+":319 DDP(model, device_ids=[ddp_local_rank])"),
 "batch.micro":T(48,"run_4_gpus.sh:9 training.batch_size=48 -> "+mnt+":275-281 DistributedDataLoader(batch_size=48, sequence_length) per rank"),
 "batch.grad_accum":T(2,"run_4_gpus.sh:10 training.accumulation=2 (over config/experiment/pomgpt_multihead.yaml:11's 8) -> "+mnt+":478-487 two micro-batches per step, gradients divided by 2"),
 "batch.global":T(384,"48 x 2 x 4"),
 "data.seq_len":T(1024,"config/config.yaml:12 training.sequence_length 1024 -> "+mnt+":278"),
 "precision.mode":T("amp_bf16","config/config.yaml:48 hardware.dtype bfloat16 -> "+mnt+":323 torch.amp.autocast(dtype=bfloat16) over fp32 weights (:296-297)",any_of=["amp_bf16"]),
 "optimizer.name":T("SOAP",mnt+":326-330 raw_model.configure_optimizers -> models/gpt.py:221-259 CombinedOptimizer of AdamW for lm_head and SOAP for the transformer blocks (config/config.yaml:3's optimizer group is not used)",any_of=["SOAP","CombinedOptimizer","soap"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(0,mnt+":275-281 no torch DataLoader: the .bin shard loader reads in the training process"),
 "compile.enabled":T(True,"config/config.yaml:49 hardware.compile true -> "+mnt+":315-316 torch.compile(model)"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H48+"; README.md:54 './run_4_gpus.sh' (export WANDB_MODE=offline, then torchrun --standalone --nproc_per_node=4 train.py experiment=pomgpt_multihead model.n_head=192 training.batch_size=48 training.accumulation=2: a @hydra.main over config/config.yaml with model/optimizer/data groups and an experiment group, hydra.utils.instantiate of models.gpt.GPT with a polynomial-mixer (PoM) mixing layer in place of self-attention, a FineWeb10B .bin-shard DistributedDataLoader, torch.compile then DDP, bf16 autocast, a combined AdamW + SOAP optimiser, wandb; GPT-2-small-sized language-model pre-training comparing SOAP and PoM). Related code: README.md:3 says it is a fork of KellerJordan/modded-nanogpt (an earlier set's repository). Not labelled: model.ref (an in-repository class), model.num_parameters (the PoM mixing layer's size, models/pom.py, is not stated and the GPT's blocks are built from nested Hydra groups)")

SR=("linyihaolyh/SRGAN-with-distributed-training","c46e70f977603421eddfe7848dd1189ce4bfca45")
srs="sbatches/lightning4GPU2node.sh"
srm="ddp_lightning.py"
J("srgan-div2k-lightning-ddp-sbatch-srun-2-nodes-4gpu",*SR,["."],".",[srs],{
 "dist.world_size":T(4,srs+":3,7-8,18 two nodes x two tasks and two RTX 8000s each, srun python "+srm+" --device 2 --nodes 2 -> "+srm+":125-130 Trainer(devices=2, num_nodes=2)"),
 "dist.nodes":T(2,srs+":3 --nodes=2 and --nodes 2 -> num_nodes"),
 "dist.devices_per_node":T(2,srs+":7 --gres=gpu:rtx8000:2 and --device 2 -> devices"),
 "dist.sharding":T("ddp",srm+":129 strategy='ddp'"),
 "batch.micro":T(128,srs+":18 --bs 128 -> "+srm+":120 DataLoader(batch_size=128) per process (Lightning adds the DistributedSampler)"),
 "batch.grad_accum":T(1,"no accumulate_grad_batches: Lightning default 1"),
 "batch.global":T(512,"128 x 1 x 4"),
 "data.image_size":T(128,srm+":118 DIV2K_train_set(upscale_factor=4, crop_size=128): 128-pixel high-resolution crops, 32-pixel low-resolution inputs"),
 "precision.mode":T("fp32",srm+":125-130 no precision: Lightning default 32"),
 "optimizer.name":T("Adam",srm+":33-39 two torch.optim.Adam, discriminator and generator",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(2,srm+":120 num_workers=2"),
 "data.pin_memory":T(False,srm+":120 no pin_memory: default False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H48+"; README.md:12 'ddp_lightning.py -- train with multi-GPUs using PyTorch Lightning, can use multiple nodes'; the job is sbatches/lightning4GPU2node.sh submitted from the repository root (two nodes, --ntasks-per-node=2, --gres=gpu:rtx8000:2, module loads, then srun python ddp_lightning.py --bs 128 --epochs 20 --device 2 --nodes 2: argparse plus pl.Trainer.add_argparse_args, a LightningModule holding an SRGAN generator (16 residual blocks, x4), a discriminator and a VGG feature extractor, two Adam optimisers alternated by optimizer_idx (Lightning 1.x automatic optimisation), a plain DataLoader over DIV2K crops; SRGAN super-resolution, a course project comparing DP, DDP and Lightning). Not labelled: model.ref (in-repository classes), model.num_parameters (model.py's generator and discriminator and utils.py:81-87's frozen VGG19 feature extractor: counts not stated)")

EZ=("ChiYeungLaw/LLaMa-EasyFT","522dc81c7b24a52ae6001a5d06e72d2947a2a112")
ezt="src/train.py"
ezd="src/configs/deepspeed_config.json"
J("llama-easyft-7b-lora-deepspeed-launcher-hf-trainer-zero3-offload",*EZ,["."],".",["finetune.sh"],{
 "model.num_parameters":T(6738415616,"finetune.sh:2,7 --model_name_or_path $MODEL=/path/to/llama7B (README.md 'Training LLaMA-7B'): 6.74B published (plus one [PAD] row in the embedding and head, "+ezt+":240-245)",rel_tol=0.1),
 "dist.nodes":T(1,"finetune.sh:6 deepspeed train.py without a hostfile or --num_nodes: the local machine"),
 "dist.sharding":T("zero3","finetune.sh:24 --deepspeed configs/deepspeed_config.json (after :5 cd src) -> "+ezd+":2-3 zero_optimization stage 3"),
 "dist.offload_optimizer":T("cpu",ezd+":4-7 offload_optimizer device cpu"),
 "dist.offload_params":T("cpu",ezd+":8-11 offload_param device cpu"),
 "batch.micro":T(64,"finetune.sh:11 --per_device_train_batch_size 64"),
 "batch.grad_accum":T(1,"finetune.sh:13 --gradient_accumulation_steps 1"),
 "data.seq_len":T(512,ezt+":73-76 model_max_length default 512 (not passed) -> :233-239 tokenizer, :114-119 truncation at 512; batches padded to the longest (:187-190)"),
 "data.padding":T("dynamic",ezt+":187-190 pad_sequence to the batch's longest"),
 "precision.mode":T("fp16","finetune.sh:25 --fp16 True -> "+ezd+":22-30 DeepSpeed fp16 enabled (fp16 weights, fp32 master copies; "+ezt+":209-212 loads without torch_dtype)",any_of=["fp16","amp_fp16"]),
 "optimizer.name":T("AdamW",ezd+":31-42 DeepSpeed optimizer type AdamW (replacing "+ezt+":72's adamw_torch)",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(True,"finetune.sh:23 --gradient_checkpointing True"),
 "data.num_workers":T(0,"no --dataloader_num_workers: TrainingArguments default 0"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("lora",ezt+":214-224 peft LoraConfig on q_proj, v_proj, k_proj",any_of=["lora"]),
 "peft.rank":T(16,ezt+":54 LORA_R = 16 -> :218"),
},held_out=True,note=H48+"; README.md 'Training LLaMA-7B: bash finetune.sh' (exports DATA, MODEL and CKPT placeholders, cd src, then deepspeed train.py --model_name_or_path $MODEL --per_device_train_batch_size 64 --gradient_accumulation_steps 1 --gradient_checkpointing True --deepspeed configs/deepspeed_config.json --fp16 True ...: tatsu-lab/stanford_alpaca's train.py (an earlier set's repository) with peft LoRA r 16 on the attention projections and a state_dict patched to save only the adapter, transformers.Trainer under DeepSpeed ZeRO-3 with CPU offload of parameters and optimizer; LLaMA-7B LoRA on the Alpaca 52k instructions, LLM SFT). Not labelled: model.ref (a placeholder local path), dist.world_size, dist.devices_per_node and batch.global (the deepspeed launcher without --num_gpus or --include uses every GPU of the machine, a number the files do not give), data.pin_memory (the installed transformers' default)")

"""The thirty-third held-out set of the jobs benchmark (run.py --set held-out-33): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them. Every repository was grepped (owner/name and
the bare name) in bench/, docs/, tests/, calibration/, preflight/ and adapters/ and found nowhere
before it was taken."""
from .core import J, T

H33="thirty-third held-out set"
SD=("SmallDoges/small-doge","0e305a735708fd277f5a8e9fd36954492aba28f1")
sdc="recipes/doge/Doge-160M-Instruct/sft/config_full.yaml"
sda="recipes/accelerate_configs/ddp.yaml"
sds="src/small_doge/trainer/sft.py"
J("small-doge-160m-sft-trl-accelerate-ddp-8gpu-yaml",*SD,["."],".",["--","accelerate","launch","--config_file",sda,"./"+sds,"--config",sdc],{
 "model.ref":T("SmallDoge/Doge-160M",sdc+":19 model_name_or_path -> "+sds+":135-136 SFTTrainer(model=model_args.model_name_or_path)"),
 "model.num_parameters":T(160000000,"README.md:82 Doge-160M: 160M parameters",rel_tol=0.15),
 "dist.world_size":T(8,sda+":3,9-10 MULTI_GPU, num_machines 1, num_processes 8"),
 "dist.nodes":T(1,sda+":9 num_machines 1"),
 "dist.devices_per_node":T(8,sda+":10 num_processes 8"),
 "dist.sharding":T("ddp",sda+":3 distributed_type MULTI_GPU (no DeepSpeed, no FSDP)"),
 "batch.micro":T(1,sdc+":35 per_device_train_batch_size 1"),
 "batch.grad_accum":T(128,sdc+":47 gradient_accumulation_steps 128"),
 "batch.global":T(1024,"1 x 128 x 8"),
 "data.seq_len":T(2048,sdc+":27 max_seq_length 2048; src/small_doge/utils/training_args_configs.py:93-95 max_length default 2048 -> "+sds+":95 mix_sft_datasets(max_length=2048)"),
 "data.padding":T("packed",sdc+":28 packing True -> "+sds+":96 mix_sft_datasets(packing=True): samples packed into 2048-token rows"),
 "precision.mode":T("bf16",sdc+":22 torch_dtype bfloat16 -> "+sds+":108-116,121 model_init_kwargs torch_dtype torch.bfloat16 (bf16 weights) with "+sdc+":52 bf16 True and "+sda+":8 mixed_precision bf16"),
 "optimizer.name":T("adamw_torch",sdc+":40 optim adamw_torch",any_of=["adamw_torch","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,sdc+":48 gradient_checkpointing true"),
 "data.num_workers":T(0,"no dataloader_num_workers (TrainingArguments default 0; preprocessing_num_workers 1 is dataset preprocessing)"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("none","no use_peft in the config: "+sds+":141 get_peft_config(model_args) returns None; every parameter trained"),
},held_out=True,note=H33+"; docs/training.md:93-95,172-175 accelerate launch --config_file recipes/accelerate_configs/<single_gpu|ddp|...>.yaml ./src/small_doge/trainer/sft.py --config recipes/doge/Doge-20M-Instruct/sft/config_full.yaml (the docs name src/small_doge/trainer/doge/sft.py, which is src/small_doge/trainer/sft.py at this commit; here the ddp.yaml option and the Doge-160M-Instruct recipe); TrlParser over ScriptArguments, an SFTConfig subclass and ModelConfig with a YAML --config, SFTTrainer given a Hub id string as the model, a remote-code architecture (Dynamic Mask Attention), packing; SFT of a 160M small language model)")
CS=("WisdomShell/codeshell","09d1adc88ccada1a92924c69ece0cf0e73899b1b")
css="run_finetune.sh"
csd="ds_config_zero3.json"
J("codeshell-7b-sft-deepspeed-zero3-hf-trainer-launch-script",*CS,["."],"finetune",[css,"--","WisdomShell/CodeShell-7B","/data/codeshell_sft.json","exp1"],{
 "model.ref":T("WisdomShell/CodeShell-7B","README_EN.md:83-84 WisdomShell/CodeShell-7B, passed as $1 -> finetune/"+css+":7,21 --model_name_or_path -> finetune.py:167-171 AutoModelForCausalLM.from_pretrained"),
 "model.num_parameters":T(7980000000,"CodeShell-7B: 42 layers, hidden 4096, FFN 16384, grouped-query attention with 8 KV groups, 70,144-token vocabulary, untied head (model/configuration_codeshell.py:100-107 defaults and the released config): about 7.98B",rel_tol=0.1),
 "dist.nodes":T(1,css+":15-17 the hostfile line is commented out; deepspeed_args names only a port: the local node"),
 "dist.sharding":T("zero3",csd+":15-16 zero_optimization stage 3"),
 "dist.offload_optimizer":T("none",csd+":17-20 offload_optimizer device none"),
 "dist.offload_params":T("none",csd+":21-24 offload_param device none"),
 "dist.overlap_comm":T(True,csd+":25"),
 "dist.contiguous_gradients":T(True,csd+":26"),
 "batch.micro":T(1,css+":25 --per_device_train_batch_size 1 ("+csd+":40 'auto')"),
 "batch.grad_accum":T(8,css+":26 --gradient_accumulation_steps 8 ("+csd+":36 'auto')"),
 "data.seq_len":T(4096,css+":23 --model_max_length 4096 -> finetune.py:104,122,134 each conversation cut to 4096 tokens"),
 "data.padding":T("dynamic","finetune.py:211-213 Trainer with a tokenizer and no data_collator: DataCollatorWithPadding pads to the longest sample of the batch"),
 "precision.mode":T("bf16",css+":33 --bf16 -> "+csd+":11-13 bf16 enabled 'auto' (true): DeepSpeed bf16 weights with fp32 master copies",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("adamw_torch","no optimizer block in "+csd+"; finetune.py:27 optim default 'adamw_torch' (a TrainingArguments subclass field)",any_of=["adamw_torch","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,css+":27 --gradient_checkpointing True"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no --torch_compile"),
 "peft.method":T("none","finetune.py:34 use_lora default False and no --use_lora: full fine-tuning"),
},held_out=True,note=H33+"; finetune/README_EN.md:28-33 cd codeshell/finetune; ./run_finetune.sh $model_name_or_path $dataset_path $save_path (filled with WisdomShell/CodeShell-7B /data/codeshell_sft.json exp1: positional parameters, project_dir=$(cd \"$(dirname $0)\"; pwd), deepspeed_args with a random master port, deepspeed ${project_dir}/finetune.py --deepspeed ${project_dir}/ds_config_zero3.json ... piped to tee; HfArgumentParser over three dataclasses, a remote-code GPT-style model; supervised fine-tuning of a 7B code LLM). Not labelled: dist.world_size, dist.devices_per_node and batch.global (the deepspeed launcher without --num_gpus or --include uses every GPU of the node)")
SC=("yxuansu/SimCTG","3a91449c8f3133f2c183e481e705b1dbb268589c")
scs="train.sh"
J("simctg-gpt2-wikitext103-contrastive-raw-loop-1gpu",*SC,["."],"document_generation",[scs],{
 "model.ref":T("gpt2","document_generation/"+scs+":2 --model_name gpt2 -> train.py:68,80 SimCTG(model_name) -> simctg.py:26 GPT2LMHeadModel.from_pretrained"),
 "model.num_parameters":T(124439808,"gpt2 (GPT-2 small): 124.4M",rel_tol=0.05),
 "dist.world_size":T(1,scs+":1 CUDA_VISIBLE_DEVICES=0 python train.py: one process on one GPU (train.py:59-61,82-83 nn.DataParallel only when more than one GPU is visible)"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none",scs+":1 one visible GPU: no DataParallel, no DDP"),
 "batch.micro":T(8,scs+":8-9 --number_of_gpu 1 --batch_size_per_gpu 8 -> trainer.py:74 get_next_train_batch(8 x 1)"),
 "batch.grad_accum":T(16,scs+":10 --gradient_accumulation_steps 16 -> trainer.py:88-92 optimizer.step every 16 batches"),
 "batch.global":T(128,scs+":11 --effective_batch_size 128 (trainer.py:52 asserts 8 x 16 x 1)"),
 "data.seq_len":T(256,scs+":7 --max_len 256 -> dataclass.py:52-55 tokens cut to 256"),
 "data.padding":T("dynamic","dataclass.py:61-63 rnn.pad_sequence: each batch padded to its longest sample"),
 "precision.mode":T("fp32","no autocast, no half()"),
 "optimizer.name":T("AdamW","trainer.py:56-57 transformers.optimization.AdamW",any_of=["AdamW","adamw","adamw_hf"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","every GPT-2 parameter trained"),
},held_out=True,note=H33+"; document_generation/README.md:40-41 chmod +x ./train.sh; ./train.sh (CUDA_VISIBLE_DEVICES=0 python train.py --model_name gpt2 ... --max_len 256 --number_of_gpu 1 --batch_size_per_gpu 8 --gradient_accumulation_steps 16 --effective_batch_size 128 ...; argparse values passed into a helper function in another module, batches built by hand from token lists without a DataLoader, a contrastive token loss beside the MLE loss, a manual accumulation counter; contrastive training of GPT-2 on WikiText-103, NLP). Not labelled: data.num_workers and data.pin_memory (no DataLoader)")
PC=("facebookresearch/pycls","5719de641657c251f807c20a1fcf8ef6f4b60144")
pcc="configs/dds_baselines/regnetx/RegNetX-400MF_dds_8gpu.yaml"
J("pycls-regnetx-400mf-imagenet-yacs-mp-spawn-ddp-8gpu",*PC,["."],".",["tools/run_net.py","--","--mode","train","--cfg",pcc,"OUT_DIR","/tmp"],{
 "model.num_parameters":T(5157512,"MODEL_ZOO.md:75-77 RegNetX-400MF: 5.2M parameters ("+pcc+":1-9 regnet DEPTH 22, W0 24, WA 24.48, WM 2.54, GROUP_W 16, 1000 classes)",rel_tol=0.1),
 "dist.world_size":T(8,pcc+":25 NUM_GPUS 8 -> tools/run_net.py:49 multi_proc_run(num_proc=8) -> pycls/core/distributed.py:137-140 torch.multiprocessing.start_processes, one process per GPU"),
 "dist.nodes":T(1,"pycls/core/config.py:391 LAUNCH.MODE 'local': one node (MAX_GPUS_PER_NODE 8, config.py:428)"),
 "dist.devices_per_node":T(8,"NUM_GPUS 8 on the local node"),
 "dist.sharding":T("ddp","pycls/core/trainer.py:161-164 DistributedDataParallel when NUM_GPUS > 1 (FSDP.ENABLED default False, config.py:408)"),
 "batch.micro":T(128,pcc+":20 TRAIN.BATCH_SIZE 1024 is the total -> pycls/datasets/loader.py:98-104 batch_size=int(1024 / 8)"),
 "batch.grad_accum":T(1,"trainer.py: one optimizer step per batch"),
 "batch.global":T(1024,pcc+":20 TRAIN.BATCH_SIZE 1024 (128 x 1 x 8)"),
 "data.image_size":T(224,pcc+":19 TRAIN.IM_SIZE 224"),
 "precision.mode":T("fp32","pycls/core/config.py:318 TRAIN.MIXED_PRECISION False -> trainer.py:199 autocast(enabled=False)"),
 "optimizer.name":T("SGD","pycls/core/config.py:245 OPTIM.OPTIMIZER 'sgd' -> pycls/core/optimizer.py:50-54 torch.optim.SGD (nesterov, config.py:270)",any_of=["SGD","sgd"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(8,"pycls/core/config.py:357 DATA_LOADER.NUM_WORKERS 8 -> loader.py:58"),
 "data.pin_memory":T(True,"pycls/core/config.py:360 DATA_LOADER.PIN_MEMORY True -> loader.py:59"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H33+"; docs/GETTING_STARTED.md:87-93 ./tools/run_net.py --mode train --cfg configs/dds_baselines/regnetx/RegNetX-400MF_dds_8gpu.yaml OUT_DIR /tmp (a yacs CfgNode with defaults in pycls/core/config.py, a YAML --cfg and KEY VALUE overrides, a total batch divided by NUM_GPUS in the loader, processes started by torch.multiprocessing inside the script; ImageNet classification with RegNetX-400MF, vision). Not labelled: model.ref (a RegNet built from DEPTH/W0/WA/WM numbers, no catalog or Hub name in the code)")
CV=("apple/ml-cvnets","77717569ab4a852614dae01f010b32b820cb33bb")
cvc="config/classification/imagenet/mobilevit.yaml"
J("ml-cvnets-mobilevit-s-imagenet-yaml-amp-fp16",*CV,["."],".",["main_train.py","--","--common.config-file",cvc,"--common.results-loc","classification_results"],{
 "model.num_parameters":T(5600000,"MobileViT-S ("+cvc+":64-69 mobilevit, mit mode small, 1000 classes): 5.6M parameters (MobileViT paper, Table 1)",rel_tol=0.1),
 "batch.micro":T(128,cvc+":12 train_batch_size0 128 at the 256x256 base crop ('128 images/GPU'); the variable batch sampler, :31-41, scales it with the crop size"),
 "batch.grad_accum":T(1,"options/opts.py:133-136 --common.accum-freq default 1"),
 "data.image_size":T(256,cvc+":33-35 vbs crop_size 256 (the base crop; :37-40 multi-scale 160-320)"),
 "precision.mode":T("amp_fp16",cvc+":6 common.mixed_precision true with options/opts.py:127-130 mixed-precision-dtype default float16: autocast fp16 with a grad scaler over fp32 weights",any_of=["amp_fp16"]),
 "optimizer.name":T("AdamW",cvc+":48-54 optim name adamw",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in the config"),
 "data.num_workers":T(8,cvc+":15 dataset.workers 8"),
 "data.pin_memory":T(True,cvc+":17 dataset.pin_memory true"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H33+"; docs/source/en/models/classification/README-mobilevit.md:3-8 export CFG_FILE=config/classification/imagenet/mobilevit.yaml; cvnets-train --common.config-file $CFG_FILE --common.results-loc classification_results (cvnets-train is setup.py:44 main_train:main_worker, here python main_train.py; a nested YAML read into dotted argparse options, a variable-resolution batch sampler, EMA; ImageNet classification with MobileViT-S, vision). Not labelled: dist.world_size, dist.sharding and batch.global (main_train.py:246-250 world size = the number of visible GPUs; the doc says single node 8-GPU, the code reads the machine), model.ref (a cvnets registry name 'mobilevit' with mode small, not a Hub or torchvision name)")
DM=("facebookresearch/demucs","e976d93ecc3865e5757426930257e200846a520a")
J("demucs-htdemucs-dora-hydra-run-1gpu",*DM,["."],".",["--","dora","run","model=htdemucs"],{
 "dist.world_size":T(1,"docs/training.md:71-72 dora run without -d: one process (-d would use every GPU)"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","demucs/distrib.py world_size 1: no DDP wrap"),
 "batch.micro":T(64,"conf/config.yaml:41 batch_size 64 -> demucs/train.py:190-192 distrib.loader -> distrib.py:89-90 DataLoader(batch_size=64) when world_size is 1"),
 "batch.grad_accum":T(1,"demucs/solver.py:370-388 one optimizer step per batch"),
 "batch.global":T(64,"64 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half() in demucs/solver.py or train.py"),
 "optimizer.name":T("Adam","conf/config.yaml:49 optim.optim adam -> demucs/train.py:91-92 torch.optim.Adam",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(10,"conf/config.yaml:81 misc.num_workers 10 -> demucs/train.py:191-192"),
 "data.pin_memory":T(False,"demucs/distrib.py:84-90 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H33+"; docs/training.md:61-73,104-111 dora run [-d] [overrides] (Dora's hydra_main over conf/config.yaml with config groups dset/svd/variant and architecture sections selected by model=, demucs/train.py:222; Makefile:10 python3 -m dora run; here dora run model=htdemucs: Hybrid Transformer Demucs v4 trained on MusDB HQ, music source separation, audio). Not labelled: model.num_parameters (HTDemucs built from the htdemucs section of conf/config.yaml and the dataset's sources; no figure given for this configuration), data.seq_len (audio segments in seconds, conf/config.yaml:16)")
TS=("thu-ml/tianshou","f2402056b03acafeedf2518a5088db55add004ab")
tss="mujoco_sac.py"
J("tianshou-sac-mujoco-ant-off-policy-trainer-1gpu",*TS,["."],"examples/mujoco",[tss,"--","--task","Ant-v3"],{
 "dist.world_size":T(1,"examples/mujoco/README.md:47 python mujoco_sac.py --task Ant-v3: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(256,tss+":44 batch_size 256 -> :174-183 OffPolicyTrainerParams(batch_size=256): 256 transitions sampled from the replay buffer per gradient step"),
 "batch.grad_accum":T(1,"one optimizer step per sampled batch (update_per_step 1, :42,185)"),
 "batch.global":T(256,"256 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam",tss+":89,103,105 AdamOptimizerFactory for the actor and both critics (torch.optim.Adam)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H33+"; examples/mujoco/README.md:47 python mujoco_sac.py --task Ant-v3 (a typed main() turned into a command line by sensai's logging.run_cli, :198-199; tianshou 2 algorithm objects built from optimizer factories, a replay buffer filled by a collector, an off-policy trainer; soft actor-critic on MuJoCo Ant, RL). Not labelled: model.num_parameters (MLP sizes depend on the environment's observation and action shapes), data.num_workers and data.pin_memory (no DataLoader)")
LL=("time-series-foundation-models/lag-llama","013ff0c786c6fee677a360b76df95685c9dac25d")
lls="scripts/pretrain.sh"
J("lag-llama-pretrain-gluonts-lightning-launch-script-1gpu",*LL,["."],".",[lls],{
 "model.num_parameters":T(2449299,"configs/lag_llama.json:5-7 n_layer 8, n_head 9, n_embd_per_head 16 (width 144) -> lag_llama/model/module.py:197-211 attention 82,944 and :367-381 SwiGLU MLP 3 x 144 x 512 per layer, 8 layers 2.44M plus the lag-feature input projection and the Student-t head: about 2.45M",rel_tol=0.1),
 "dist.world_size":T(1,"run.py:247-250 trainer_kwargs accelerator 'gpu', devices=[args.gpu]: one GPU"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,"devices=[args.gpu]"),
 "dist.sharding":T("none","one device: no DDP"),
 "batch.grad_accum":T(1,"run.py:247-255 no accumulate_grad_batches (Lightning default 1)"),
 "precision.mode":T("fp32","run.py:247-255 no precision in trainer_kwargs (Lightning default 32)"),
 "optimizer.name":T("Adam","lag_llama/gluon/lightning_module.py:525-538 torch.optim.Adam",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","pre-training from scratch"),
},held_out=True,note=H33+"; README.md:42 the pretraining script scripts/pretrain.sh (run from the repository root: mkdir, a seed file read in a while loop, a for loop over seeds around python run.py -e ... --batch_size 512 ... --num_workers 2 --args_from_dict_path configs/lag_llama.json --search_batch_size --lr 0.0001; argparse values overridden from a JSON dict, a GluonTS PyTorchLightningEstimator that builds the Lightning Trainer from trainer_kwargs; pre-training a probabilistic time-series foundation model on 27 datasets, time series). Not labelled: batch.micro and batch.global (--search_batch_size, run.py:404-457, halves 512 until a trial fits the GPU and then halves once more: decided at run time), data.seq_len (context_length 32 plus lags up to about three years of steps), data.num_workers (--num_workers 2 feeds the evaluation; training batches come from GluonTS as_stacked_batches, lag_llama/gluon/estimator.py:409-460)")
DC=("shenweichen/DeepCTR-Torch","f6854257b1fc29caab655ce72c6b5528b7432574")
dcs="run_classification_criteo.py"
J("deepctr-torch-deepfm-criteo-keras-style-fit-1gpu",*DC,["."],"examples",[dcs],{
 "dist.world_size":T(1,"examples/"+dcs+":48-56 DeepFM(device='cuda:0') without gpus: one process, one GPU"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","deepctr_torch/models/basemodel.py:206-209 DataParallel only when gpus is given (it is not)"),
 "batch.micro":T(32,dcs+":61 model.fit(batch_size=32) -> basemodel.py:213-214 DataLoader(batch_size=32)"),
 "batch.grad_accum":T(1,"basemodel.py:247,261-262 zero_grad/backward/step per batch"),
 "batch.global":T(32,"32 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adagrad",dcs+":58 model.compile('adagrad', ...) -> basemodel.py:443,453-454 torch.optim.Adagrad",any_of=["Adagrad","adagrad"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(0,"basemodel.py:213-214 DataLoader without num_workers"),
 "data.pin_memory":T(False,"basemodel.py:213-214 DataLoader without pin_memory"),
 "compile.enabled":T(False,dcs+":58 model.compile(...) is DeepCTR's Keras-style compile (basemodel.py:433-445: optimizer, loss and metrics), not torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H33+"; docs/source/Examples.md:4-30 the Criteo example, python run_classification_criteo.py from examples/ (reads ./criteo_sample.txt; a Keras-style API: model.compile(optimizer name, loss, metrics) and model.fit(x, y, batch_size, epochs) that builds the DataLoader and the training loop inside the library; DeepFM click-through-rate prediction, recommendation). Not labelled: model.num_parameters (embedding tables sized by the data's vocabularies, :30)")
PG=("snap-stanford/pretrain-gnns","8b20528a83b8869ce16451305b32c827258d19a3")
pgs="pretrain_contextpred.py"
J("pretrain-gnns-gin-context-prediction-chem-pyg-1gpu",*PG,["."],"chem",[pgs,"--","--output_model_file","model_gin/contextpred_new"],{
 "dist.world_size":T(1,"README.md:46 python pretrain_contextpred.py --output_model_file ...: one process on cuda:0 (chem/"+pgs+":107,141)"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(256,"chem/"+pgs+":109 --batch_size default 256 -> :153 DataLoaderSubstructContext(batch_size=256): 256 molecular graphs per batch"),
 "batch.grad_accum":T(1,"one step of each optimizer per batch"),
 "batch.global":T(256,"256 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half() (:86-87 the loss in double)"),
 "optimizer.name":T("Adam",pgs+":160-161 optim.Adam for the substructure and the context GNN",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(8,pgs+":136 --num_workers default 8 -> :153"),
 "data.pin_memory":T(False,"chem/dataloader.py:6,17-22 a torch DataLoader subclass without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","pre-training from scratch"),
},held_out=True,note=H33+"; README.md:41-50 python pretrain_contextpred.py --output_model_file OUTPUT_MODEL_PATH, run in chem/ (argparse defaults, two GIN networks with two Adam optimizers, a torch DataLoader subclass with a custom collate over torch_geometric data; self-supervised context-prediction pre-training of a GIN on 2M ZINC molecules, GNN). Not labelled: model.num_parameters (two GIN encoders, the context one with l2 - l1 layers, sized by the atom and bond vocabularies)")
SS=("yang-song/score_sde_pytorch","cb1f359f4aadf0ff9a5e122fe8fffc9451fd6e44")
ssc="configs/vp/cifar10_ddpmpp_continuous.py"
J("score-sde-ddpmpp-vp-cifar10-ml-collections-config",*SS,["."],".",["main.py","--","--config",ssc,"--workdir","exp/vp_cifar10_ddpmpp_cont","--mode","train"],{
 "dist.world_size":T(1,"main.py: one process (models/utils.py:88-93 nn.DataParallel over the visible GPUs inside it)"),
 "dist.nodes":T(1,"one process"),
 "batch.grad_accum":T(1,"run_lib.py: one optimizer step per batch"),
 "batch.global":T(128,"configs/default_cifar10_configs.py:9 training.batch_size 128 per optimizer step (split by DataParallel over the visible GPUs)"),
 "data.image_size":T(32,"configs/default_cifar10_configs.py:43 data.image_size 32"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","configs/default_cifar10_configs.py:62 optim.optimizer 'Adam' -> losses.py:28-30 optim.Adam",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H33+"; README.md:86-98 main.py --config <configs/...py> --workdir <dir> --mode train (absl flags with an ml_collections config_file flag: a Python config whose get_config() calls get_default_configs() from another module and sets fields; data from tensorflow_datasets, not a torch DataLoader; the model wrapped in nn.DataParallel; DDPM++ continuous VP-SDE score model on CIFAR-10, diffusion). Not labelled: batch.micro and dist.sharding (nn.DataParallel over however many GPUs are visible), model.num_parameters (NCSN++-family network from nf 128, ch_mult (1,2,2,2), 4 res blocks: no figure given for this config), data.num_workers and data.pin_memory (tf.data pipeline)")
VS=("SwinTransformer/Video-Swin-Transformer","db018fb8896251711791386bbd2127562fd8d6a6")
vsc="configs/recognition/swin/swin_tiny_patch244_window877_kinetics400_1k.py"
J("video-swin-t-kinetics400-mmaction-dist-train-apex-8gpu",*VS,["."],".",["tools/dist_train.sh","--",vsc,"8","--cfg-options","model.backbone.pretrained=checkpoints/swin_tiny_patch4_window7_224.pth"],{
 "model.num_parameters":T(28000000,"README.md:28 Swin-T Kinetics-400: 28M parameters (configs/_base_/models/swin/swin_tiny.py:2-23 embed_dim 96, depths 2-2-6-2, 400 classes)",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:87 dist_train.sh <config> 8 -> tools/dist_train.sh:4,8 torch.distributed.launch --nproc_per_node=8"),
 "dist.nodes":T(1,"no --nnodes (default 1)"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("ddp","tools/dist_train.sh:9 --launcher pytorch -> mmaction/apis/train.py:106 MMDistributedDataParallel"),
 "batch.micro":T(8,vsc+":63 videos_per_gpu 8"),
 "batch.grad_accum":T(4,vsc+":115-117 DistOptimizerHook update_interval 4"),
 "batch.global":T(256,"8 x 4 x 8"),
 "data.image_size":T(224,vsc+":21 Resize scale (224, 224) of each frame (32-frame clips, :17)"),
 "precision.mode":T("amp_fp16",vsc+":113-121 fp16 None, DistOptimizerHook use_fp16 True -> mmaction/apis/train.py:85-99 apex.amp.initialize(opt_level='O1'): fp16 autocasting with dynamic loss scaling over fp32 weights",any_of=["amp_fp16"]),
 "optimizer.name":T("AdamW",vsc+":92 optimizer type AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no model.backbone.use_checkpoint=True on the command line (README.md:83 lists it as optional; mmaction/models/backbones/swin_transformer.py:501 default False)"),
 "data.num_workers":T(4,vsc+":64 workers_per_gpu 4"),
 "data.pin_memory":T(True,"mmaction/datasets/builder.py:54,111-117 build_dataloader pin_memory default True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","the whole network fine-tuned from ImageNet-1K Swin-T weights"),
},held_out=True,note=H33+"; README.md:85-88 bash tools/dist_train.sh configs/recognition/swin/swin_tiny_patch244_window877_kinetics400_1k.py 8 --cfg-options model.backbone.pretrained=<PRETRAIN_MODEL> (positional CONFIG and GPUS, PORT=${PORT:-29500}, python -m torch.distributed.launch ... $(dirname \"$0\")/train.py $CONFIG --launcher pytorch ${@:3}; an mmcv Python config with _base_ inheritance, apex O1 through a custom optimizer hook with gradient accumulation; Kinetics-400 video recognition, vision)")

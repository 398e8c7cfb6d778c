"""Hardware catalog (GPUs, cloud instances) and the `preflight gpus` command."""

from __future__ import annotations

import json

import pytest

from preflight import hardware

GIB = 1 << 30


def test_catalog_sizes_and_providers():
    assert len(hardware.gpus()) >= 30
    instances = hardware.instances()
    assert len(instances) >= 40
    providers = {i.provider for i in instances}
    assert {"aws", "gcp", "azure", "lambda", "runpod", "coreweave"} <= providers


@pytest.mark.parametrize("name", ["H200", "B200", "GB200", "MI300X", "L40S", "A10G", "L4", "T4",
                                  "RTX 4090", "rtx-3060", "A100-40GB", "a100-80gb", "H100",
                                  "V100", "V100-32GB", "MI325X", "MI250X", "RTX-6000-Ada"])
def test_required_gpus_are_found_case_insensitively(name):
    found = hardware.find(name) or hardware.find(name.replace(" ", ""))
    assert isinstance(found, hardware.GPU), name
    assert hardware.find(name.upper()) is found or hardware.find(name.replace(" ", "").upper()) is found


def test_usable_memory_is_below_advertised_and_plausible():
    for gpu in hardware.gpus():
        advertised = gpu.advertised_gib * GIB
        assert gpu.memory_bytes <= advertised, gpu.name
        assert gpu.memory_bytes > 0.85 * advertised, gpu.name


def test_every_memory_figure_says_where_it_comes_from():
    kinds = {"torch-listing", "torch-oom", "sibling", "derived"}
    measured = 0
    for gpu in hardware.gpus():
        assert gpu.memory_source in kinds, gpu.name
        assert gpu.memory_evidence and gpu.source, gpu.name
        measured += gpu.measured
    assert measured >= 15


def test_measured_figures_match_their_evidence():
    """A torch listing's 'MB' figure is total_memory in MiB: the bytes must agree with it."""
    for gpu in hardware.gpus():
        if gpu.memory_source == "torch-listing":
            assert f"total_memory={gpu.memory_bytes // (1 << 20)} MB" in gpu.memory_evidence, gpu.name


def test_dtype_support():
    assert not hardware.find("T4").bf16 and not hardware.find("V100").bf16
    assert hardware.find("A100-80GB").bf16 and not hardware.find("A100-80GB").fp8
    assert hardware.find("H100").fp8 and hardware.find("L40S").fp8 and hardware.find("MI300X").fp8


def test_instances_reference_catalog_gpus_and_their_counts():
    p4d = hardware.find("P4D.24XLARGE")
    assert isinstance(p4d, hardware.Instance)
    assert p4d.gpu is hardware.find("A100-40GB") and p4d.count == 8
    assert p4d.memory_bytes == 8 * p4d.gpu.memory_bytes
    assert hardware.find("g5.xlarge").count == 1 and hardware.find("g5.48xlarge").count == 8
    assert hardware.find("standard_nd96amsr_a100_v4").gpu.name == "A100-SXM-80GB"
    names = {g.name for g in hardware.gpus()}
    for inst in hardware.instances():
        assert inst.gpu.name in names and inst.count >= 1
        assert inst.source, inst.name
        assert inst.hourly_usd is None or inst.hourly_usd > 0


def test_prices_say_they_are_approximate_or_absent():
    for inst in hardware.instances():
        if inst.hourly_usd is None:
            assert "no price" in inst.source, inst.name
        else:
            assert "approximate" in inst.source and "as of" in inst.source, inst.name


@pytest.mark.parametrize("text, count, gpu", [
    ("8xH100", 8, "H100-SXM-80GB"),
    ("4 x a100-80gb", 4, "A100-SXM-80GB"),
    ("2*RTX-4090", 2, "RTX-4090-24GB"),
    ("16×mi300x", 16, "MI300X-192GB"),
])
def test_count_times_gpu_is_an_ad_hoc_instance(text, count, gpu):
    found = hardware.find(text)
    assert isinstance(found, hardware.Instance)
    assert (found.provider, found.count, found.gpu.name, found.hourly_usd) == ("custom", count, gpu, None)
    assert found.memory_bytes == count * hardware.find(gpu).memory_bytes


@pytest.mark.parametrize("name", ["", "   ", "a100-sxm", "tpu-v5e", "p9.96xlarge", "0xH100",
                                  "8xp4d.24xlarge", "8xnothing", "x8 h100"])
def test_unknown_or_ambiguous_names_are_none(name):
    assert hardware.find(name) is None


def _write_catalog(tmp_path, gpus, instances):
    (tmp_path / "gpus.json").write_text(json.dumps({"about": "", "gpus": gpus}))
    (tmp_path / "instances.json").write_text(json.dumps({"about": "", "instances": instances}))


GPU_ROW = {"name": "X-8GB", "aliases": ["x"], "vendor": "nvidia", "memory_bytes": 8 << 30,
           "advertised_gib": 8, "bf16": True, "fp8": False, "source": "test"}


@pytest.mark.parametrize("gpus, instances, message", [
    ([GPU_ROW, dict(GPU_ROW, name="Y-8GB")], [], "names both"),
    ([GPU_ROW], [{"name": "i", "provider": "p", "gpu": "Z", "count": 1}], "unknown GPU"),
    ([dict(GPU_ROW, memory_bytes="lots")], [], "bad GPU entry"),
])
def test_broken_data_files_are_reported(tmp_path, monkeypatch, gpus, instances, message):
    _write_catalog(tmp_path, gpus, instances)
    monkeypatch.setattr(hardware, "_DIR", tmp_path)
    monkeypatch.setattr(hardware, "_DATA", None)
    with pytest.raises(hardware.HardwareError, match=message):
        hardware.gpus()


# ----------------------------------------------------------------------------- CLI

def test_cli_lists_gpus(cli):
    result = cli("gpus")
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[0].split() == ["GPU", "VENDOR", "USABLE", "GIB", "ADVERTISED", "GIB", "BF16", "FP8"]
    rows = {line.split()[0]: line.split() for line in lines[1:-1]}
    assert set(rows) == {g.name for g in hardware.gpus()}
    h100 = hardware.find("H100")
    assert rows[h100.name][2] == f"{h100.memory_bytes / GIB:.1f}"
    assert rows[h100.name][3:] == ["80", "yes", "yes"]
    assert rows["T4-16GB"][-2:] == ["no", "no"]
    derived = hardware.find("L4")
    assert rows[derived.name][2].endswith("*")


def test_cli_lists_instances(cli):
    result = cli("gpus", "--instances")
    assert result.code == 0, result.err
    row = next(line for line in result.out.splitlines() if " p4d.24xlarge " in line)
    p4d = hardware.find("p4d.24xlarge")
    assert row.split() == ["aws", "p4d.24xlarge", "A100-SXM-40GB", "x8",
                           f"{p4d.memory_bytes / GIB:.1f}", f"{p4d.hourly_usd:.2f}"]
    unpriced = next(line for line in result.out.splitlines() if " p5e.48xlarge " in line)
    assert unpriced.split()[-1] == "-"


def test_cli_json_is_the_catalog(cli):
    result = cli("gpus", "--format", "json")
    assert result.code == 0
    doc = json.loads(result.out)
    assert doc["version"] == 1
    assert [g["name"] for g in doc["gpus"]] == [g.name for g in hardware.gpus()]
    by_name = {g["name"]: g for g in doc["gpus"]}
    assert by_name["H200-141GB"]["memory_bytes"] == hardware.find("h200").memory_bytes
    inst = json.loads(cli("gpus", "--instances", "--format", "json").out)["instances"]
    assert len(inst) == len(hardware.instances())
    g5 = next(i for i in inst if i["name"] == "g5.12xlarge")
    assert g5["gpu"] == "A10G-24GB" and g5["count"] == 4
    assert g5["memory_bytes"] == 4 * hardware.find("a10g").memory_bytes


def test_cli_rejects_bad_format(cli):
    result = cli("gpus", "--format", "yaml")
    assert result.code == 2 and "invalid choice" in result.err


@pytest.mark.parametrize("name,gib,bf16", [
    ("TITAN RTX", 24, False), ("TITAN V", 12, False), ("RTX 2080 Ti", 11, False), ("RTX 2080", 8, False),
    ("GTX 1080 Ti", 11, False), ("Quadro RTX 6000", 24, False), ("Quadro RTX 8000", 48, False),
    ("RTX A4000", 16, True), ("RTX A4500", 20, True), ("RTX 4070", 12, True), ("RTX 4060", 8, True),
    ("RTX 4000 Ada", 20, True), ("RTX 5000 Ada", 32, True), ("A30", 24, True), ("A2", 16, True),
    ("L20", 48, True), ("H20", 96, True), ("H800", 80, True), ("A800", 80, True), ("P40", 24, False),
    ("MI210", 64, True), ("MI100", 32, True)])
def test_older_and_regional_gpus_are_catalogued(name, gib, bf16):
    gpu = hardware.find(name) or hardware.find(name.replace(" ", "-"))
    assert isinstance(gpu, hardware.GPU), name
    assert gpu.advertised_gib == gib and gpu.bf16 is bf16
    assert gpu.memory_source == "derived" and "vendor specification" in gpu.source

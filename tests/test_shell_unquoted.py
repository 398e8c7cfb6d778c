"""The launch-script lexer's one scanner of unquoted characters, and the readers built on it."""

from __future__ import annotations

from preflight.adapters.shell_commands import line_parts
from preflight.adapters.shell_lex import Unquoted, _strip_comment, command_tokens, logical_lines


def test_scanner_skips_quoted_text_and_escapes() -> None:
    text = """a 'b;c' "d\\"e" \\; f"""
    got = [text[k] for k in Unquoted(text)]
    assert ";" not in got  # inside quotes or escaped
    assert got[0] == "a" and got[-1] == "f"


def test_scanner_reports_the_quote_left_open() -> None:
    scan = Unquoted('ARGS="--a 1 \\" --b')
    list(scan)
    assert scan.quote == '"'
    scan = Unquoted("x='it''s'")
    list(scan)
    assert scan.quote == ""


def test_scanner_seek_skips_ahead() -> None:
    text = "a&&b;c"
    scan = Unquoted(text)
    seen = []
    for k in scan:
        seen.append(text[k])
        if text.startswith("&&", k):
            scan.seek(k + 2)
    assert seen == ["a", "&", "b", ";", "c"]


def test_readers_built_on_the_scanner() -> None:
    # a quoted value spanning lines is one logical line; `#` inside quotes is no comment
    lines = ['ARGS="--nproc_per_node 8 # gpus', '--lr 1e-4"', "torchrun train.py $ARGS"]
    assert logical_lines(lines) == [(1, 'ARGS="--nproc_per_node 8 # gpus --lr 1e-4"'), (3, "torchrun train.py $ARGS")]
    assert _strip_comment('echo "a # b" # note') == 'echo "a # b"'
    assert line_parts('cd src && torchrun x.py --msg "a && b"; echo done') == [
        ("cd src", False), ('torchrun x.py --msg "a && b"', True), ("echo done", False)]
    assert command_tokens("python train.py > log.txt 2>&1") == ["python", "train.py"]
    assert line_parts("if [ -z $X ]; then N=1; else N=2; fi", keep_else=True) == [
        ("if [ -z $X ]", False), ("N=1", False), ("else", False), ("N=2", False), ("fi", False)]

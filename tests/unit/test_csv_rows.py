from pathlib import Path

import pytest

from lectern.adapters.sources.csv_rows import CsvProblem, CsvRow, read_csv
from lectern.errors import SourceError


def _write(tmp_path: Path, content: bytes) -> Path:
    path = tmp_path / "data.csv"
    path.write_bytes(content)
    return path


def test_bad_rows_are_reported_with_their_line_and_reading_goes_on(tmp_path: Path) -> None:
    content = (
        b"id,title\n"
        b"1,First\n"
        b"2,Second,extra\n"  # wrong field count
        b'3,"multi\nline"\n'
        b"4,Fo\x00urth\n"  # NUL byte
        b"5,Caf\xe9\n"  # latin-1 byte in a UTF-8 file
        b"\n"
        b"6,Last\n"
    )
    items = list(read_csv(_write(tmp_path, content), ["id", "title"]))
    rows = [i for i in items if isinstance(i, CsvRow)]
    problems = [i for i in items if isinstance(i, CsvProblem)]
    assert [p.line for p in problems] == [3]
    assert problems[0].reason == "wrong_field_count"
    assert [r.values["id"] for r in rows] == ["1", "3", "4", "5", "6"]
    by_id = {r.values["id"]: r for r in rows}
    assert by_id["3"].line == 4 and by_id["3"].values["title"] == "multi\nline"
    assert by_id["4"].values["title"] == "Fourth"
    assert "nul_bytes_removed" in by_id["4"].problems
    assert "replacement_characters" in by_id["5"].problems
    assert by_id["6"].line == 9


def test_an_unterminated_quote_is_one_problem_not_a_crash(tmp_path: Path) -> None:
    content = b'id,title\n1,ok\n2,"never closed\n3,x\n'
    items = list(read_csv(_write(tmp_path, content), ["id", "title"]))
    assert isinstance(items[0], CsvRow)
    assert all(isinstance(i, CsvProblem) for i in items[1:])


def test_missing_required_column_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="missing column"):
        list(read_csv(_write(tmp_path, b"id,name\n1,x\n"), ["id", "title"]))


def test_empty_file_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="empty"):
        list(read_csv(_write(tmp_path, b""), ["id"]))


def test_missing_file_and_directory_are_source_errors(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="cannot read"):
        list(read_csv(tmp_path / "nope.csv", ["id"]))
    with pytest.raises(SourceError, match="cannot read"):
        list(read_csv(tmp_path, ["id"]))


def test_binary_garbage_is_rejected_or_reported_never_raised(tmp_path: Path) -> None:
    garbage = bytes(range(256)) * 50
    path = _write(tmp_path, b"id,title\n" + garbage + b"\n1,fine\n")
    items = list(read_csv(path, ["id", "title"]))
    assert any(isinstance(i, CsvRow) and i.values["id"] == "1" for i in items)

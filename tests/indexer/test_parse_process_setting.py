"""INDEX_PARSE_PROCESS is a flag like every other (1/yes/on, 0/no/off), or `auto`."""

from __future__ import annotations

from pathlib import Path

import pytest

from sextant.config import ConfigError
from sextant.indexer.config import IndexerSettings


@pytest.mark.parametrize(("value", "chosen"), [("1", "true"), ("Yes", "true"), ("on", "true"), ("TRUE", "true"),
                                               ("0", "false"), ("no", "false"), ("off", "false"), ("Auto", "auto"),
                                               ("", "auto")])  # fmt: skip
def test_the_parse_process_setting_reads_as_a_flag_or_auto(tmp_path: Path, value: str, chosen: str) -> None:
    settings = IndexerSettings.from_env({"SEXTANT_HOME": str(tmp_path), "INDEX_PARSE_PROCESS": value})
    assert settings.parse_process == chosen


def test_any_other_value_is_a_config_error_naming_the_choices(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="INDEX_PARSE_PROCESS='sometimes' is not true, false or auto"):
        IndexerSettings.from_env({"SEXTANT_HOME": str(tmp_path), "INDEX_PARSE_PROCESS": "sometimes"})

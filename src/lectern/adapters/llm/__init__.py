"""Language-model adapters: extractive (offline default), LangChain chat models, local GGUF."""

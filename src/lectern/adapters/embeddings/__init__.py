"""Text embedders: the packaged ONNX MiniLM by default, sentence-transformers optional."""

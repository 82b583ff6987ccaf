"""Query understanding adapters: the offline rules (the LLM graph is in adapters/llm/graphs)."""

"""LangGraph flows over the LLMClient port."""

"""The search fallback: robust triggers, a ReAct agent with two search tools, its report."""

"""The answering workflows: the knowledge-base reply graph and the research chain."""

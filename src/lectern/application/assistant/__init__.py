"""The assistant: tools, approvals, the bounded loop and its guardrails."""

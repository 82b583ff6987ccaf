"""External books providers: one module per public API, normalised like the CSV sources."""

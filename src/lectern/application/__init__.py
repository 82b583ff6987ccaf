"""Application services and the ports they depend on."""

"""Readers that turn files and records into documents with pages, sections and offsets."""

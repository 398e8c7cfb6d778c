"""Shared analyses over one parsed file: node index, scopes, dataflow."""

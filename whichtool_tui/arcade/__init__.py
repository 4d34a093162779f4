"""Bouts: security experiments (atoms) judged from the JSON-RPC wire, with receipts."""

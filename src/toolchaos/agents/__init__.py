"""Protocols that drive a conversation, and the scripted baselines."""

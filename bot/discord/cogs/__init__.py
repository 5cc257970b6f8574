"""Thin command handlers: parse, check permissions, call the service, send what render made."""

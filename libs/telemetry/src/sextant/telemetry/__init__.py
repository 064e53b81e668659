"""OpenTelemetry setup shared by every service."""

"""JetStream broker factory, claim check, embedded nats-server."""

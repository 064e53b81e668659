"""Language-model clients and untrusted-text fencing."""

"""Turning a selection and the evidence into the prompt: excerpt layout, framing, the evidence block."""

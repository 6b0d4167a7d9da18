"""The hidden suites, one per step, and what they share (`support`, `feedback`)."""

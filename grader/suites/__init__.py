"""The hidden suite (`test_steps`, one test per fixture case of every step) and what it shares
(`support`, `feedback`, `diagnosis`, `returned`)."""

"""What each step must return: the expected outputs, computed from the checkpoint (`build`) into
the kit's `fixtures/` folder, then read and hash-checked for the judge (`store`)."""

"""What the compiler did: the TORCH_TRACE log, the insight read from it, explanations in the user's terms, generated
artifacts, compiled-frame counts, and which frames are the user's code."""

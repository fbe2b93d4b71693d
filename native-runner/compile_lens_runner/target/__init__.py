"""Compile targets: loading a built-in sample or the user's FILE:FN, and measuring each mode against eager."""

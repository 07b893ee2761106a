"""Native helpers built at install time (optional; see setup.py)."""

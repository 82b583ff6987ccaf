"""Personal data detection."""

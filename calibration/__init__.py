"""Calibration harnesses: measured peaks that pin the estimator constants."""

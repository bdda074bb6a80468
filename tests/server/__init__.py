"""Tests against a real app server, over Streamlit's own websocket protocol (bench/wsclient.py)."""

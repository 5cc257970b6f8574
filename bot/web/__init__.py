"""The server's read-only web page (issue 16): an HTTP edge beside the Discord one."""

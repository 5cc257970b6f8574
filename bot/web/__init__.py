"""The server's read-only web page: an HTTP edge beside the Discord one."""

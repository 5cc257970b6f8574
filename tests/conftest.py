pytest_plugins = ["tests.double.fixtures"]

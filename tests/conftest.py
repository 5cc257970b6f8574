pytest_plugins = ["tests.double.fixtures", "tests.postgres"]

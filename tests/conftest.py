pytest_plugins = ["tests.double.fixtures", "tests.postgres", "tests.redis_server"]

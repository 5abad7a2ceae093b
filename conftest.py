pytest_plugins = ["tests.infrastructure"]

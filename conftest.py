pytest_plugins = ["memgw.common.testing.fixtures"]

"""The staff: logins and their roles, lock-outs, API tokens, devices and browser sessions."""

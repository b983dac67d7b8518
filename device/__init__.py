"""The appliance: cameras, buttons, the roll controller, history and the CLI."""
